import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { xmlStandIns } from '../syntax/xml-writer.js';
import type { ExportModel, ImageBlock, TableBlock, TextBlock } from './model.js';
import { headerRows, tableGrid } from './table-grid.js';
import { groupLists, imageLabel } from './writers.js';

/**
 * The DOCX writer (docs/export.md): the export model as a flowing WordprocessingML document written by the `docx`
 * library (Decisions table, docs/architecture.md). Headings are Heading 1-6, paragraphs Normal, list items numbered
 * paragraphs of Word lists, tables w:tbl with the header row repeated, images inline in their place, a page break
 * before each PDF page but the first, external links w:hyperlink. Nothing is positioned: no text boxes, no frames.
 */

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6] as const;
/** Twentieths of a point, WordprocessingML's unit of page and table sizes. */
const TWIPS = 20;
/** Page margins: 1 inch (72 pt) on every side, Word's default. */
const MARGIN_PT = 72;
/** docx sizes images in pixels at 96 to the inch. */
const PX_PER_PT = 96 / 72;
const BULLETS = 'bullets';
const NUMBERS = 'numbers';

/**
 * Text as XML 1.0 can hold it. PDFs' text may have C0 controls, which the docx library drops silently (9.15.2); the
 * export writes the stand-ins the XFDF export writes (control pictures), so that they stay visible.
 */
const clean = xmlStandIns;

/** A text block's runs: its text, with the words of its links as hyperlinks (each found after the previous one). */
function runs(block: TextBlock, style: { bold?: boolean; italics?: boolean }): ParagraphChild[] {
  const text = clean(block.text);
  const out: ParagraphChild[] = [];
  let at = 0;
  for (const link of block.links ?? []) {
    const anchor = clean(link.text);
    const found = anchor ? text.indexOf(anchor, at) : -1;
    if (found < 0) continue;
    if (found > at) out.push(new TextRun({ text: text.slice(at, found), ...style }));
    out.push(new ExternalHyperlink({ link: link.uri, children: [new TextRun({ text: anchor, style: 'Hyperlink', ...style })] }));
    at = found + anchor.length;
  }
  if (at < text.length || out.length === 0) out.push(new TextRun({ text: text.slice(at), ...style }));
  return out;
}

function table(block: TableBlock, textWidth: number): Table {
  const columns = Math.max(1, tableGrid(block.rows)[0]?.length ?? 0);
  const head = headerRows(block.rows);
  const column = Math.floor(textWidth / columns);
  return new Table({
    width: { size: column * columns, type: WidthType.DXA },
    columnWidths: Array.from({ length: columns }, () => column),
    rows: block.rows.map(
      (row, r) =>
        new TableRow({
          // The head rows (the first, and those its merged cells reach into), as in the HTML export: Word repeats them on every page.
          ...(r < head ? { tableHeader: true } : {}),
          children: row.map(
            (cell) =>
              new TableCell({
                width: { size: column * cell.colSpan, type: WidthType.DXA },
                ...(cell.colSpan > 1 ? { columnSpan: cell.colSpan } : {}),
                // docx writes the vMerge continuation cells of the rows below (the model lists a cell in its first row only).
                ...(cell.rowSpan > 1 ? { rowSpan: cell.rowSpan } : {}),
                children: [new Paragraph({ children: [new TextRun({ text: clean(cell.text), bold: r < head })] })],
              }),
          ),
        }),
    ),
  });
}

/** An image's paragraph content: the image at its size on the page (made smaller to fit the text width), or a caption when its data was not taken. */
function image(block: ImageBlock, label: string, textWidth: number): ParagraphChild[] {
  if (!block.png) return [new TextRun({ text: `[${label}]`, italics: true })];
  const scale = Math.min(1, textWidth / TWIPS / Math.max(1, block.rectangle.width));
  const width = Math.max(1, Math.round(block.rectangle.width * scale * PX_PER_PT));
  const height = Math.max(1, Math.round(block.rectangle.height * scale * PX_PER_PT));
  return [new ImageRun({ type: 'png', data: block.png, transformation: { width, height }, altText: { name: label, description: label, title: label } })];
}

/** The model as a DOCX file. Packer's work (building the XML, zipping it with fflate's zipSync) is synchronous; only its answer is a promise. */
export async function toDocx(model: ExportModel, title: string): Promise<Uint8Array> {
  const first = model.pages[0];
  const pageWidth = Math.round((first?.width ?? 612) * TWIPS);
  const pageHeight = Math.round((first?.height ?? 792) * TWIPS);
  const textWidth = Math.max(TWIPS * 72, pageWidth - 2 * MARGIN_PT * TWIPS);
  const children: (Paragraph | Table)[] = [];
  let lists = 0;
  for (const [n, page] of model.pages.entries()) {
    // A page break before every page but the first: on the page's first paragraph, or an empty one before a table.
    let breakPending = n > 0;
    const paragraph = (options: ConstructorParameters<typeof Paragraph>[0] & object) => {
      const p = new Paragraph({ ...options, ...(breakPending ? { pageBreakBefore: true } : {}) });
      breakPending = false;
      return p;
    };
    let images = 0;
    for (const item of groupLists(page.blocks)) {
      if (Array.isArray(item)) {
        // Each list its own instance, so that a numbered list counts from 1.
        const instance = ++lists;
        for (const li of item) children.push(paragraph({ children: runs(li, {}), numbering: { reference: li.ordered ? NUMBERS : BULLETS, level: 0, instance } }));
      } else if (item.type === 'heading') {
        children.push(paragraph({ heading: HEADINGS[Math.min(6, Math.max(1, item.level ?? 1)) - 1]!, children: runs(item, {}) }));
      } else if (item.type === 'table') {
        if (breakPending) children.push(paragraph({}));
        children.push(table(item, textWidth));
      } else if (item.type !== 'image') {
        children.push(paragraph({ children: runs(item, { bold: item.font.bold, italics: item.font.italic }) }));
      } else {
        images++;
        children.push(paragraph({ children: image(item, item.alt ?? imageLabel(page.pageIndex, images), textWidth) }));
      }
    }
    if (breakPending) children.push(paragraph({}));
  }
  const level = (format: (typeof LevelFormat)[keyof typeof LevelFormat], text: string) => ({
    level: 0,
    format,
    text,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720, hanging: 360 } } },
  });
  const doc = new Document({
    title,
    creator: 'pdfservice',
    numbering: { config: [{ reference: BULLETS, levels: [level(LevelFormat.BULLET, '•')] }, { reference: NUMBERS, levels: [level(LevelFormat.DECIMAL, '%1.')] }] },
    sections: [
      {
        properties: { page: { size: { width: pageWidth, height: pageHeight }, margin: { top: MARGIN_PT * TWIPS, bottom: MARGIN_PT * TWIPS, left: MARGIN_PT * TWIPS, right: MARGIN_PT * TWIPS } } },
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}
