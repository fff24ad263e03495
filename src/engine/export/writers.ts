import type { ExportBlock, ExportFormat, ExportModel, TableBlock, TableCell, TextBlock } from './model.js';
import { gridTexts, headerRows } from './table-grid.js';

/**
 * The export writers (docs/export.md): the model as JSON (itself), Markdown (CommonMark with GFM tables) and HTML
 * (semantic elements, text escaped). Pure: no MuPDF.
 */

/** Characters that start Markdown syntax inside a line, escaped wherever they are. */
const mdInline = (text: string) => text.replace(/([\\`*_[\]<>|])/gu, '\\$1');

/** Escaped, and a line that would read as a heading, list item, quote or rule written so that it reads as text. */
function mdText(text: string): string {
  const escaped = mdInline(text);
  return escaped.replace(/^(#{1,6}(?=\s|$)|[-+=](?=\s|$)|>)/u, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/u, '$1\\$2');
}

export const imageLabel = (pageIndex: number, n: number) => `Image ${n} on page ${pageIndex + 1}`;
const imageAnchor = (pageIndex: number, n: number) => `#page-${pageIndex + 1}-image-${n}`;

/** A GFM table: merged cells (which GFM has not) as their text at their top left and the positions they cover empty, as in CSV. */
function mdTable(table: TableBlock): string {
  const texts = gridTexts(table.rows);
  const columns = Math.max(1, texts[0]?.length ?? 0);
  const row = (cells: string[]) => `| ${Array.from({ length: columns }, (_, i) => mdInline(cells[i] ?? '').replace(/\n/gu, '<br>')).join(' | ')} |`;
  const [head = [], ...rest] = texts;
  return [row(head), `|${' --- |'.repeat(columns)}`, ...rest.map(row)].join('\n');
}

/** Consecutive list items of one kind: one list. */
export function groupLists(blocks: ExportBlock[]): (ExportBlock | TextBlock[])[] {
  const out: (ExportBlock | TextBlock[])[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.type === 'listItem' && Array.isArray(last) && last[0]!.ordered === b.ordered) last.push(b);
    else out.push(b.type === 'listItem' ? [b] : b);
  }
  return out;
}

export function toMarkdown(model: ExportModel): string {
  const parts: string[] = [];
  for (const page of model.pages) {
    let images = 0;
    for (const item of groupLists(page.blocks)) {
      if (Array.isArray(item)) {
        parts.push(item.map((li, i) => `${li.ordered ? `${i + 1}.` : '-'} ${mdText(li.text)}`).join('\n'));
      } else if (item.type === 'heading') parts.push(`${'#'.repeat(item.level ?? 1)} ${mdInline(item.text)}`);
      else if (item.type === 'paragraph') parts.push(mdText(item.text));
      else if (item.type === 'table') parts.push(mdTable(item));
      else if (item.type === 'image') {
        images++;
        parts.push(`![${mdInline(item.alt ?? imageLabel(page.pageIndex, images))}](${imageAnchor(page.pageIndex, images)})`);
      }
    }
  }
  return parts.length ? `${parts.join('\n\n')}\n` : '';
}

const html = (text: string) => text.replace(/[&<>"']/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A table with its head rows (headerRows) in thead as th, merged cells as colspan and rowspan. */
function htmlTable(table: TableBlock): string {
  const head = headerRows(table.rows);
  const span = (c: TableCell) => `${c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ''}${c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ''}`;
  const rows = (from: number, to: number, tag: 'th' | 'td') =>
    table.rows.slice(from, to).map((row) => `<tr>${row.map((c) => `<${tag}${span(c)}>${html(c.text)}</${tag}>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead>${rows(0, head, 'th')}</thead>\n<tbody>\n${rows(head, table.rows.length, 'td')}\n</tbody>\n</table>`;
}

export function toHtml(model: ExportModel, title: string): string {
  const parts: string[] = [];
  for (const page of model.pages) {
    parts.push(`<section data-page="${page.pageIndex + 1}">`);
    let images = 0;
    for (const item of groupLists(page.blocks)) {
      if (Array.isArray(item)) {
        const tag = item[0]!.ordered ? 'ol' : 'ul';
        parts.push(`<${tag}>\n${item.map((li) => `<li>${html(li.text)}</li>`).join('\n')}\n</${tag}>`);
      } else if (item.type === 'heading') parts.push(`<h${item.level ?? 1}>${html(item.text)}</h${item.level ?? 1}>`);
      else if (item.type === 'paragraph') parts.push(`<p>${html(item.text)}</p>`);
      else if (item.type === 'table') parts.push(htmlTable(item));
      else if (item.type === 'image') {
        images++;
        parts.push(`<figure id="${imageAnchor(page.pageIndex, images).slice(1)}"><figcaption>${html(item.alt ?? imageLabel(page.pageIndex, images))}</figcaption></figure>`);
      }
    }
    parts.push('</section>');
  }
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${html(title)}</title>\n</head>\n<body>\n${parts.join('\n')}\n</body>\n</html>\n`;
}

export function writeExport(model: ExportModel, format: ExportFormat, title: string): string {
  if (format === 'markdown') return toMarkdown(model);
  if (format === 'html') return toHtml(model, title);
  return JSON.stringify(model);
}
