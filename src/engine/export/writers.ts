import type { ExportBlock, ExportFormat, ExportModel, TableBlock, TextBlock } from './model.js';

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

function mdTable(table: TableBlock): string {
  const columns = Math.max(...table.rows.map((r) => r.length));
  const row = (cells: string[]) => `| ${Array.from({ length: columns }, (_, i) => mdInline(cells[i] ?? '').replace(/\n/gu, '<br>')).join(' | ')} |`;
  const [head = [], ...rest] = table.rows.map((r) => r.map((c) => c.text));
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
        parts.push(`![${imageLabel(page.pageIndex, images)}](${imageAnchor(page.pageIndex, images)})`);
      }
    }
  }
  return parts.length ? `${parts.join('\n\n')}\n` : '';
}

const html = (text: string) => text.replace(/[&<>"']/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function htmlTable(table: TableBlock): string {
  const [head = [], ...rest] = table.rows;
  const cells = (row: typeof head, tag: 'th' | 'td') => row.map((c) => `<${tag}>${html(c.text)}</${tag}>`).join('');
  const body = rest.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${cells(head, 'th')}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
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
        parts.push(`<figure id="${imageAnchor(page.pageIndex, images).slice(1)}"><figcaption>${html(imageLabel(page.pageIndex, images))}</figcaption></figure>`);
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
