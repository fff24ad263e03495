import type { Rectangle } from '../syntax/geometry.js';
import type { Box, Line, RawPage } from './layout.js';
import { headerRows, tableGrid } from './table-grid.js';
import type { ExportBlock, ExportModel, TableBlock, TextBlock, TextLink } from './model.js';

/**
 * Document-wide classification of the pages' lines (docs/export.md): running headers and footers and page numbers
 * left out, then each run of lines a heading, a paragraph or list items, with line-end hyphenation joined.
 */

/** Top and bottom share of a page where running headers, footers and page numbers are looked for. */
const MARGIN_BAND = 0.1;
const PAGE_NUMBER = /^(page\s+)?[-–(]?\s*\d{1,5}\s*[-–)]?(\s*(of|\/)\s*\d{1,5})?$/iu;
const BULLET = /^[•◦▪▫●○■□‣⁃∙·*–—-]\s+/u;
const ORDERED = /^(\d{1,3}|[a-z]|[ivxlc]{1,6})[.)]\s+/iu;
const MARKER_ONLY = /^([•◦▪▫●○■□‣⁃∙·*–—-]|\d{1,3}[.)]|[a-z][.)])$/iu;
/** Text this much larger than the body text is a heading. */
const HEADING_RATIO = 1.15;

function inMarginBand(line: Line, height: number): boolean {
  return line.box[3] <= height * MARGIN_BAND || line.box[1] >= height * (1 - MARGIN_BAND);
}

/** Running headers and footers (the same text, digits aside, at the same height on half the pages or more) and page numbers, taken out. */
function removeRunningLines(pages: RawPage[], running?: Map<number, Box[]>): number {
  const key = (line: Line) => `${line.text.replace(/\d+/gu, '#').trim()}|${Math.round((line.box[1] + line.box[3]) / 8)}`;
  const seen = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const item of page.items) {
      if (item.kind !== 'lines') continue;
      for (const line of item.lines) if (inMarginBand(line, page.height)) (seen.get(key(line)) ?? seen.set(key(line), new Set()).get(key(line))!).add(page.pageIndex);
    }
  }
  const repeated = (line: Line) => pages.length >= 2 && (seen.get(key(line))?.size ?? 0) >= Math.max(2, Math.ceil(pages.length / 2));
  let removed = 0;
  for (const page of pages) {
    for (const item of page.items) {
      if (item.kind !== 'lines') continue;
      const kept = item.lines.filter((line) => !(inMarginBand(line, page.height) && (repeated(line) || PAGE_NUMBER.test(line.text.trim()))));
      removed += item.lines.length - kept.length;
      if (running && kept.length < item.lines.length) running.set(page.pageIndex, [...(running.get(page.pageIndex) ?? []), ...item.lines.filter((l) => !kept.includes(l)).map((l) => l.box)]);
      item.lines = kept;
    }
  }
  return removed;
}

/** The body text's size: the size most characters have. */
function bodySize(pages: RawPage[]): number {
  const chars = new Map<number, number>();
  for (const page of pages) for (const item of page.items) if (item.kind === 'lines') for (const l of item.lines) chars.set(l.font.size, (chars.get(l.font.size) ?? 0) + l.text.length);
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

/** Lines joined into running text: a hyphen at a line's end before a lower-case letter is taken out, other lines joined by a space. */
export function joinLines(texts: string[]): string {
  let out = '';
  for (const raw of texts) {
    const t = raw.trim();
    if (out === '') out = t;
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(t)) out = out.slice(0, -1) + t;
    else out += ` ${t}`;
  }
  return out;
}

function union(rects: Rectangle[]): Rectangle {
  const x0 = Math.min(...rects.map((r) => r.x));
  const y0 = Math.min(...rects.map((r) => r.y));
  const x1 = Math.max(...rects.map((r) => r.x + r.width));
  const y1 = Math.max(...rects.map((r) => r.y + r.height));
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { x: round(x0), y: round(y0), width: round(x1 - x0), height: round(y1 - y0) };
}

/** A marker drawn apart from its text (MuPDF makes it a line of its own) joined to the text on its row. */
function joinMarkers(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const mid = (line.box[1] + line.box[3]) / 2;
    if (next && MARKER_ONLY.test(line.text.trim()) && next.box[1] <= mid && mid <= next.box[3] && next.box[0] >= line.box[2]) {
      out.push({ ...next, text: `${line.text.trim()} ${next.text}`, box: [line.box[0], next.box[1], next.box[2], next.box[3]] });
      i++;
    } else out.push(line);
  }
  return out;
}

/** Runs of lines set alike: a change of size (by more than a tenth) or of weight starts a new run. */
function runs(lines: Line[]): Line[][] {
  const out: Line[][] = [];
  for (const line of lines) {
    const last = out[out.length - 1]?.[out[out.length - 1]!.length - 1];
    if (last && Math.abs(last.font.size - line.font.size) <= last.font.size * 0.1 && last.font.bold === line.font.bold) out[out.length - 1]!.push(line);
    else out.push([line]);
  }
  return out;
}

/**
 * The links of a block's lines, in order: the pieces of one link broken across lines (the same URI, one line's last
 * and the next one's first) joined as the lines are. Absent when there are none, so the JSON shows them only where they are.
 */
function blockLinks(lines: Line[]): { links?: TextLink[] } {
  const out: TextLink[] = [];
  lines.forEach((line, n) => {
    line.links.forEach((link, i) => {
      const last = out[out.length - 1];
      if (i === 0 && n > 0 && last && lines[n - 1]!.links.length > 0 && last.uri === link.uri) last.text = joinLines([last.text, link.text]);
      else out.push({ ...link });
    });
  });
  return out.length ? { links: out } : {};
}

const isItemStart = (l: Line) => l.bullet || BULLET.test(l.text.trim()) || ORDERED.test(l.text.trim());

/** A run of lines as blocks: list items when its lines start with markers (or bullets drawn beside them), else one heading or paragraph. */
function blocksOfRun(run: Line[], body: number): TextBlock[] {
  const font = run[0]!.font;
  if (run.some(isItemStart) && isItemStart(run[0]!)) {
    const items: Line[][] = [];
    for (const l of run) {
      if (isItemStart(l) || items.length === 0) items.push([l]);
      else items[items.length - 1]!.push(l);
    }
    return items.map((item) => {
      const first = item[0]!.text.trim();
      const ordered = !BULLET.test(first) && ORDERED.test(first) && !item[0]!.bullet;
      const text = joinLines([first.replace(ordered ? ORDERED : BULLET, ''), ...item.slice(1).map((l) => l.text)]);
      return { type: 'listItem', text, ordered, font: item[0]!.font, rectangle: union(item.map((l) => l.rect)), ...blockLinks(item) } satisfies TextBlock;
    });
  }
  const text = joinLines(run.map((l) => l.text));
  const larger = font.size >= body * HEADING_RATIO && text.length <= 200;
  const boldLine = font.bold && font.size >= body * 0.95 && run.length <= 2 && text.length <= 120 && !/[.,;:]$/u.test(text);
  return [{ type: larger || boldLine ? 'heading' : 'paragraph', text, font, rectangle: union(run.map((l) => l.rect)), ...blockLinks(run) }];
}

/**
 * A table that a page break cut in two, joined: a page that starts with a table of as many columns as the table that
 * ends the page before continues it, less its head rows when they repeat the head (as Chromium repeats a table's
 * head on every page). The joined table stays on the page where it starts. For the exports only: the tagger
 * (engine/pdfua/tag.ts) tags each page's table where it is drawn.
 */
export function joinContinuedTables(model: ExportModel): void {
  for (const [i, page] of model.pages.entries()) {
    const before = model.pages[i - 1]?.blocks.at(-1);
    const first = page.blocks[0];
    if (i === 0 || before?.type !== 'table' || first?.type !== 'table' || model.pages[i - 1]!.pageIndex !== page.pageIndex - 1) continue;
    const width = (t: TableBlock) => tableGrid(t.rows)[0]?.length ?? 0;
    if (width(before) !== width(first)) continue;
    // The head rows (headerRows: more than one when merged cells head the columns), as Chromium repeats the whole head.
    const head = (t: TableBlock) => JSON.stringify(t.rows.slice(0, headerRows(t.rows)));
    before.rows.push(...(head(before) === head(first) ? first.rows.slice(headerRows(first.rows)) : first.rows));
    page.blocks.shift();
  }
}

/**
 * The export model of the pages read (readPage), in their order. `running` receives the boxes (MuPDF page space) of the
 * running lines taken out, by page index, for the structure tree's reading of the same pages (tagged.ts).
 */
export function classify(pages: RawPage[], pageCount: number, running?: Map<number, Box[]>): ExportModel {
  const runningLines = removeRunningLines(pages, running);
  const body = bodySize(pages);
  const out: ExportModel = { pageCount, pages: [], removed: { runningLines }, warnings: [] };
  for (const page of pages) {
    const blocks: ExportBlock[] = [];
    for (const item of page.items) {
      if (item.kind === 'lines') for (const run of runs(joinMarkers(item.lines))) blocks.push(...blocksOfRun(run, body));
      else blocks.push(item.block);
    }
    out.pages.push({ pageIndex: page.pageIndex, width: page.width, height: page.height, source: 'layout', blocks });
  }
  // Heading levels by size across the document: the largest is 1; bold body-size headings come after every larger size.
  const headings = out.pages.flatMap((p) => p.blocks).filter((b): b is TextBlock => b.type === 'heading');
  const sizes = [...new Set(headings.map((h) => h.font.size))].sort((a, b) => b - a);
  for (const h of headings) h.level = Math.min(6, sizes.indexOf(h.font.size) + 1);
  const empty = out.pages.filter((p) => !p.blocks.some((b) => b.type !== 'image')).map((p) => p.pageIndex + 1);
  if (empty.length) out.warnings.push(`No text on page${empty.length > 1 ? 's' : ''} ${empty.join(', ')} (scanned? OCRAction adds a text layer)`);
  return out;
}
