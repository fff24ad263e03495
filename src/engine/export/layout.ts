import * as mupdf from 'mupdf';
import { PageSpace } from '../pages/geometry.js';
import { walkText } from '../text/page-text.js';
import type { Rectangle } from '../syntax/geometry.js';
import { joinLines } from './classify.js';
import type { ExportBlock, ExportFont, TableCell, TextLink } from './model.js';

/**
 * Layout analysis for export (docs/export.md): a page's MuPDF structured text turned into lines with their words'
 * positions, tables (ruled ones from the rules the page draws, others from rows of lines aligned in columns), and the
 * small filled shapes that browsers and word processors draw as list bullets. Classification into headings, paragraphs and list items is document-wide (classify, below), since
 * "larger than the body text" needs the body text of every page.
 */

/** A box in MuPDF's page space (origin top left, y down): x0, y0, x1, y1. */
export type Box = [number, number, number, number];

interface Word {
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  text: string;
  box: Box;
  font: ExportFont;
  words: Word[];
  /** The box in PDF user space. */
  rect: Rectangle;
  /** A shape left of the line's start that looks like a bullet. */
  bullet: boolean;
  /** The runs of its words under an external link, in order. */
  links: TextLink[];
}

/** What a page holds before classification, in MuPDF's order: runs of lines (one MuPDF block each), tables, images. */
/**
 * A table item's `cells` are its grid's cells in PDF user space (rows top to bottom, cells left to right), kept out of
 * the export model: the tagger (engine/pdfua/tag.ts) places each piece of a table's text in its cell by them.
 */
export type RawItem = { kind: 'lines'; lines: Line[] } | { kind: 'table'; block: ExportBlock; cells: Rectangle[][] } | { kind: 'image'; block: ExportBlock };

export interface RawPage {
  pageIndex: number;
  width: number;
  height: number;
  items: RawItem[];
}

/** A line's font as the model gives it; a subset's tag (ABCDEF+) is no part of the font's name. */
export const lineFont = (l: StextJsonLine): ExportFont => ({
  name: l.font.name.replace(/^[A-Z]{6}\+/u, ''),
  size: Math.round(l.font.size * 100) / 100,
  bold: l.font.weight === 'bold',
  italic: l.font.style === 'italic',
});

export interface StextJsonLine {
  text: string;
  bbox: { x: number; y: number; w: number; h: number };
  font: { name: string; weight?: string; style?: string; size: number };
}
interface StextJsonBlock {
  type: string;
  bbox?: { x: number; y: number; w: number; h: number };
  lines?: StextJsonLine[];
}

const box = (b: { x: number; y: number; w: number; h: number }): Box => [b.x, b.y, b.x + b.w, b.y + b.h];

/**
 * Plain structured text: MuPDF's blocks and lines in content order, images kept as blocks. Whitespace is MuPDF's
 * default (runs of spaces collapsed), so a wide gap between table cells splits a line in two.
 */
const PLAIN_OPTIONS = 'preserve-images';

/** Words of each text line, from the characters' positions, in the order of the JSON's lines. */
function lineWords(stext: mupdf.StructuredText): Word[][] {
  const lines: Word[][] = [];
  let words: Word[] = [];
  let word: Word | undefined;
  walkText(stext, {
    beginLine() {
      words = [];
      word = undefined;
    },
    onChar(c, _origin, _size, quad) {
      const x0 = Math.min(quad[0], quad[4]);
      const x1 = Math.max(quad[2], quad[6]);
      if (/^\s$/u.test(c)) {
        word = undefined;
        return;
      }
      if (!word) {
        word = { text: '', x0, x1 };
        words.push(word);
      }
      word.text += c;
      word.x1 = Math.max(word.x1, x1);
    },
    endLine() {
      lines.push(words);
    },
  });
  return lines;
}

/** A ruling line: horizontal (at y = `at`, from `from` to `to` in x) or vertical (at x = `at`, from y to y). */
interface Ruling {
  at: number;
  from: number;
  to: number;
}

/**
 * A table's grid: the column and row boundaries, left to right and top to bottom; `ruled` when drawn lines made it, and
 * then `rules`, the drawn lines themselves (where one is missing between two positions, they are one merged cell).
 */
interface Grid {
  xpos: number[];
  ypos: number[];
  ruled: boolean;
  rules?: { horizontal: Ruling[]; vertical: Ruling[] };
}

/** Thicker than this, a filled box is a shape (a cell's shading), not a rule. */
const RULE_WIDTH = 3;
/** At most this many rules on a page are joined into grids (2 million pairs compared at most). */
const MAX_RULES = 2000;
/** Ends and crossings of rules this close (points) are taken to touch, and positions this close to be one. */
const RULE_SNAP = 2;

/**
 * What the page draws that layout needs, in one run of its contents: small filled shapes (at most 24 pt, not long and
 * thin), list bullets drawn as paths (Chromium draws its discs so, in boxes of 1.56 em); and the horizontal and
 * vertical rules that table borders are drawn with, as thin filled boxes (Chromium) or stroked lines (LibreOffice).
 */
function pageVectors(page: mupdf.PDFPage): { shapes: Box[]; horizontal: Ruling[]; vertical: Ruling[] } {
  const shapes: Box[] = [];
  const horizontal: Ruling[] = [];
  const vertical: Ruling[] = [];
  const segment = (x0: number, y0: number, x1: number, y1: number) => {
    if (Math.abs(y1 - y0) <= 1 && Math.abs(x1 - x0) >= 4) horizontal.push({ at: (y0 + y1) / 2, from: Math.min(x0, x1), to: Math.max(x0, x1) });
    else if (Math.abs(x1 - x0) <= 1 && Math.abs(y1 - y0) >= 4) vertical.push({ at: (x0 + x1) / 2, from: Math.min(y0, y1), to: Math.max(y0, y1) });
  };
  // A fill's bounds need no stroke; the API takes one all the same.
  const noStroke = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: 0, miterLimit: 10 });
  const device = new mupdf.Device({
    fillPath(path, _evenOdd, ctm) {
      const [x0, y0, x1, y1] = path.getBounds(noStroke, ctm);
      const w = x1 - x0;
      const h = y1 - y0;
      if (w > 0.5 && h > 0.5 && w <= 24 && h <= 24 && w / h < 2.5 && h / w < 2.5) shapes.push([x0, y0, x1, y1]);
      // A thin box is a rule along its middle.
      if (h <= RULE_WIDTH && w > h) segment(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
      else if (w <= RULE_WIDTH && h > w) segment((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    },
    strokePath(path, _stroke, ctm) {
      // Each straight piece of the path, in page space: a rectangle's four sides, a polyline's pieces.
      const [a, b, c, d, e, f] = ctm;
      const at = (x: number, y: number): [number, number] => [a * x + c * y + e, b * x + d * y + f];
      let start: [number, number] = [0, 0];
      let here: [number, number] = [0, 0];
      path.walk({
        moveTo(x, y) {
          start = here = at(x, y);
        },
        lineTo(x, y) {
          const next = at(x, y);
          segment(here[0], here[1], next[0], next[1]);
          here = next;
        },
        curveTo(_x1, _y1, _x2, _y2, x3, y3) {
          here = at(x3, y3);
        },
        closePath() {
          segment(here[0], here[1], start[0], start[1]);
          here = start;
        },
      });
    },
  });
  try {
    page.runPageContents(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
    noStroke.destroy();
  }
  return { shapes, horizontal, vertical };
}

/** Positions that lie within RULE_SNAP of each other, as one (their mean), sorted. */
function snap(values: number[]): number[] {
  const out: number[][] = [];
  for (const v of [...values].sort((p, q) => p - q)) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= RULE_SNAP) last.push(v);
    else out.push([v]);
  }
  return out.map((group) => group.reduce((p, q) => p + q, 0) / group.length);
}

/**
 * Ruled tables: the page's rules joined where they touch or cross, each set of at least two horizontal and two
 * vertical rules a grid, its columns at the vertical rules and its rows at the horizontal ones. A row is as tall as its
 * drawn lines make it, so cells whose text wraps stay one cell. Boxes drawn around a single column (a framed
 * paragraph) are no table.
 */
function ruledGrids(horizontal: Ruling[], vertical: Ruling[]): Grid[] {
  // Joining compares every pair of rules: a page of more (a map, a chart, graph paper) is drawing, not tables, and is
  // not searched, so that its time stays bounded.
  if (horizontal.length + vertical.length > MAX_RULES) return [];
  const rules = [...horizontal.map((r) => ({ ...r, h: true })), ...vertical.map((r) => ({ ...r, h: false }))];
  const parent = rules.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const touch = (p: (typeof rules)[number], q: (typeof rules)[number]) =>
    p.h === q.h
      ? Math.abs(p.at - q.at) <= RULE_SNAP && p.from <= q.to + RULE_SNAP && q.from <= p.to + RULE_SNAP
      : q.at >= p.from - RULE_SNAP && q.at <= p.to + RULE_SNAP && p.at >= q.from - RULE_SNAP && p.at <= q.to + RULE_SNAP;
  for (let i = 0; i < rules.length; i++) for (let j = i + 1; j < rules.length; j++) if (touch(rules[i]!, rules[j]!)) parent[root(i)] = root(j);
  const groups = new Map<number, typeof rules>();
  for (const [i, r] of rules.entries()) (groups.get(root(i)) ?? groups.set(root(i), []).get(root(i))!).push(r);
  const grids: Grid[] = [];
  for (const group of groups.values()) {
    const xpos = snap(group.filter((r) => !r.h).map((r) => r.at));
    const ypos = snap(group.filter((r) => r.h).map((r) => r.at));
    if (xpos.length >= 3 && ypos.length >= 2) grids.push({ xpos, ypos, ruled: true, rules: { horizontal: group.filter((r) => r.h), vertical: group.filter((r) => !r.h) } });
  }
  return grids;
}

function hasBullet(line: Line, shapes: Box[]): boolean {
  const size = line.font.size;
  return shapes.some((s) => {
    const cy = (s[1] + s[3]) / 2;
    return s[2] - s[0] <= 1.6 * size && s[2] <= line.box[0] + 1 && line.box[0] - s[2] <= 3 * size && line.box[1] <= cy && cy <= line.box[3];
  });
}

const centre = (b: Box): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

/** Rows of lines sharing a baseline band: a line whose vertical centre lies within another's box joins its row. */
function rowsOf(lines: Line[]): Line[][] {
  const rows: Line[][] = [];
  for (const line of [...lines].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0])) {
    const cy = centre(line.box)[1];
    const row = rows.find((r) => r[0]!.box[1] <= cy && cy <= r[0]!.box[3]);
    if (row) row.push(line);
    else rows.push([line]);
  }
  return rows;
}

/** A list's marker: a bullet glyph (any one character that is no letter or digit) or a number or letter with its dot. */
const LIST_MARKER = /^([^\p{L}\p{N}]|\d{1,3}[.)]|[a-z][.)]|[ivxlc]{1,6}[.)])$/iu;
/** Words this many ems apart are in different cells; within a cell (and in running text) they are a space apart. */
const CELL_GAP = 1;
/** A row whose every cell holds at least this many words is running text (a two-column page), not a table's row. */
const PROSE_WORDS = 5;
/** Nor is a run of rows whose cells hold more words than this on average. */
const PROSE_MEAN = 3.5;

/** A row's words in cells: runs of words no more than CELL_GAP ems apart, left to right. */
function cellsOf(row: Line[]): Word[][] {
  const size = Math.max(...row.map((l) => l.font.size));
  const cells: Word[][] = [];
  for (const w of row.flatMap((l) => l.words).sort((a, b) => a.x0 - b.x0)) {
    const last = cells[cells.length - 1];
    if (last && w.x0 - last[last.length - 1]!.x1 < CELL_GAP * size) last.push(w);
    else cells.push([w]);
  }
  return cells;
}

/**
 * Whether a row of lines can be a row of a table without rules: at least two cells, and neither a list item (a marker,
 * then its text) nor a row of running text (a paragraph's line runs across the columns as one cell; the lines of a
 * two-column page are cells of many words each).
 */
function isTableRow(row: Line[]): boolean {
  const cells = cellsOf(row);
  if (cells.length < 2) return false;
  if (LIST_MARKER.test(cells[0]!.map((w) => w.text).join(' '))) return false;
  return !cells.every((c) => c.length >= PROSE_WORDS);
}

/** Lines closer than this (ems between one's bottom and the next one's top) may be one cell's wrapped lines. */
const WRAP_GAP = 0.5;
/** A space is at least this many ems wide (the fit test of wrapped lines, continuesRow). */
const MIN_SPACE = 0.15;

/** A row of lines' words in the columns of `xpos`: per column, its words' extent, its first word's width and its top. */
interface ColumnPiece {
  x0: number;
  x1: number;
  first: number;
  top: number;
}
function piecesOf(row: Line[], xpos: number[]): Map<number, ColumnPiece> {
  const pieces = new Map<number, ColumnPiece>();
  // Each word with the top of its own line: a row's lines need not share a top (a cell centred beside a taller one).
  for (const { w, top } of row.flatMap((l) => l.words.map((w) => ({ w, top: l.box[1] }))).sort((a, b) => a.w.x0 - b.w.x0)) {
    const c = columnOf(xpos, (w.x0 + w.x1) / 2);
    const piece = pieces.get(c);
    if (piece) {
      piece.x1 = Math.max(piece.x1, w.x1);
      piece.top = Math.min(piece.top, top);
    } else pieces.set(c, { x0: w.x0, x1: w.x1, first: w.x1 - w.x0, top });
  }
  return pieces;
}

/** Whether a row's words all fall into the columns of `xpos`, none across a boundary. */
const inColumnsOf = (row: Line[], xpos: number[]) =>
  row.every((l) => l.words.every((w) => columnOf(xpos, (w.x0 + w.x1) / 2) >= 0 && !xpos.slice(1, -1).some((x) => w.x0 < x - 1 && w.x1 > x + 1)));

/**
 * The table rows of a run of rows of lines (a table without rules whose cells may wrap): each row of lines either
 * starts a table row or continues the one above, whose cells' text wrapped onto it. A row of lines continues the
 * table row above when
 * - in every column where both have text, the text could not have fitted on the line above: that line, a space and
 *   the row's first word there are wider than the column's widest line in the whole run (a line breaks only where the
 *   next word does not fit, and no line of the column is wider than the room it has);
 * - and there its top is at most one line pitch (the closest lines of a column, top to top) below the line above,
 *   so that rows set apart by cell padding are not joined;
 * - and it does not have text in exactly the (two or more) columns of the table row so far: a row of lines as full as
 *   the row above is the next row (a table of single numbers, each as wide as its column, passes the fit test);
 * - or, with no column in common, it overlaps the table row so far (a cell centred beside a taller one);
 * - and, under the run's last row of several cells, it has no text in the first column.
 * The answer is the table rows top to bottom: their extents (top, bottom), the rows of lines they take (`from`, `to`
 * in the run), and whether each holds a row of lines of several cells (one that does not is a line of text between
 * or under tables).
 */
function tableRowsOf(run: Line[][], xpos: number[], size: number, maybe: Set<Line[]>): { extent: [number, number]; cells: boolean; from: number; to: number }[] {
  const pieces = run.map((row) => piecesOf(row, xpos));
  const widest = new Map<number, number>();
  for (const p of pieces) for (const [c, piece] of p) widest.set(c, Math.max(widest.get(c) ?? 0, piece.x1 - piece.x0));
  const tops = run.map((row) => Math.min(...row.map((l) => l.box[1])));
  // The line pitch: the closest lines one under the other in a column (not rows of lines, which a short cell centred
  // beside a tall one sets half a line apart).
  const pitches: number[] = [];
  for (const c of widest.keys()) {
    const columnTops = pieces.flatMap((p) => (p.has(c) ? [p.get(c)!.top] : []));
    pitches.push(...columnTops.slice(1).map((t, i) => t - columnTops[i]!));
  }
  const pitch = Math.min(Infinity, ...pitches.filter((d) => d >= 0.8 * size)) + 0.2 * size;
  const out: { extent: [number, number]; cells: boolean; from: number; to: number }[] = [];
  let last: Map<number, ColumnPiece> = new Map();
  const lastCells = run.findLastIndex((row) => !maybe.has(row));
  run.forEach((row, i) => {
    const top = tops[i]!;
    const bottom = Math.max(...row.map((l) => l.box[3]));
    const here = pieces[i]!;
    const current = out[out.length - 1];
    const shared = [...here.keys()].filter((c) => last.has(c));
    const sameColumns = shared.length === here.size && here.size === last.size && here.size >= 2;
    const wraps = shared.every((c) => {
      const above = last.get(c)!;
      const below = here.get(c)!;
      return above.x1 - above.x0 + MIN_SPACE * size + below.first > widest.get(c)! && below.top - above.top <= pitch;
    });
    // Under the last row of several cells, a line in the first column is the text below the table (it starts where
    // the table does, and the line above may be the column's widest: the fit test cannot tell).
    const below = i > lastCells && here.has(0);
    const continues = current !== undefined && !below && (shared.length > 0 ? wraps && !sameColumns : top < current.extent[1] - 0.1 * size);
    if (continues) {
      current.extent[1] = Math.max(current.extent[1], bottom);
      current.cells ||= !maybe.has(row);
      current.to = i + 1;
      for (const [c, piece] of here) last.set(c, piece);
    } else {
      out.push({ extent: [top, bottom], cells: !maybe.has(row), from: i, to: i + 1 });
      last = new Map(here);
    }
  });
  return out;
}

/**
 * Tables without rules, from the rows of `lines`: rows that are table rows (isTableRow), in runs of at least two (a
 * gap of more than two lines' height ends a run), and not running text; each run's columns are where its words leave
 * a gap down the whole run. A row of one cell close below a table row (WRAP_GAP) may be a cell's wrapped text: it
 * stays in the run when its words fall into the run's columns, and tableRowsOf joins the rows that continue a row.
 * MuPDF's own table detection (`table-hunt`) was measured on the bench corpus and left out: its grids took the
 * paragraphs, lists and the other text column around a table in with it, and missed tables that these runs find.
 */
function alignedGrids(lines: Line[]): Grid[] {
  const runs: Line[][][] = [[]];
  // Rows of one cell taken into a run as perhaps a wrapped cell's lines.
  const maybe = new Set<Line[]>();
  const size = (row: Line[]) => Math.max(...row.map((l) => l.font.size));
  for (const row of rowsOf(lines)) {
    const run = runs[runs.length - 1]!;
    const last = run[run.length - 1];
    const gap = last ? Math.min(...row.map((l) => l.box[1])) - Math.max(...last.map((l) => l.box[3])) : Infinity;
    // A gap of more than two lines' height between rows ends a table too.
    if (isTableRow(row) && gap <= 2 * size(row)) run.push(row);
    else if (isTableRow(row)) runs.push([row]);
    else if (run.length && gap <= WRAP_GAP * size(row)) {
      run.push(row);
      maybe.add(row);
    } else if (run.length) runs.push([]);
  }
  const grids: Grid[] = [];
  while (runs.length) {
    const run = runs.shift()!;
    const rows = run.filter((r) => !maybe.has(r));
    if (rows.length < 2) continue;
    // A second table's head right under a line of one cell (a short paragraph between two tables set with no space):
    // the run ends before the line, and the line, under the first table's last row, is text (tableRowsOf).
    const head = secondHead(run, maybe);
    if (head > 0) {
      runs.unshift(run.slice(0, head), run.slice(head));
      continue;
    }
    // Running text set in columns: its cells hold many words on average; a table's hold a name or a figure.
    const cells = rows.map(cellsOf);
    if (cells.flat().flat().length / cells.flat().length > PROSE_MEAN) continue;
    const em = Math.max(...run.flat().map((l) => l.font.size));
    // The words of the run's table rows as spans across the page, joined where they overlap or lie closer than a cell
    // gap: the columns.
    const spans: [number, number][] = [];
    for (const w of rows.flat().flatMap((l) => l.words).sort((a, b) => a.x0 - b.x0)) {
      const last = spans[spans.length - 1];
      if (last && w.x0 - last[1] < CELL_GAP * em) last[1] = Math.max(last[1], w.x1);
      else spans.push([w.x0, w.x1]);
    }
    if (spans.length < 2) continue;
    const xpos = [spans[0]![0], ...spans.slice(1).map((s, i) => (spans[i]![1] + s[0]) / 2), spans[spans.length - 1]![1]];
    // A row of one cell outside the columns is no wrapped text: the run ends before it, and starts again after it.
    const outside = run.findIndex((r) => maybe.has(r) && !inColumnsOf(r, xpos));
    if (outside >= 0) {
      runs.unshift(run.slice(0, outside), run.slice(outside + 1));
      continue;
    }
    // A row of one cell that continues no table row is a line of text between tables, or under one: the run ends
    // before it and starts again after it (the rows left are looked at again, their columns their own).
    const tableRows = tableRowsOf(run, xpos, em, maybe);
    const text = tableRows.find((r) => !r.cells);
    if (text) {
      runs.unshift(run.slice(0, text.from), run.slice(text.to));
      continue;
    }
    const extents = tableRows.map((r) => r.extent);
    const ypos = [extents[0]![0], ...extents.slice(1).map((e, i) => (extents[i]![1] + e[0]) / 2), extents[extents.length - 1]![1]];
    grids.push({ xpos, ypos, ruled: false });
  }
  return grids;
}

/**
 * Where a second table's head starts in a run of rows: a row of several cells all bold, right under a row of one cell
 * (a wrapped cell's line, or a line of text), with rows not bold above that and below it (a body on both sides). A
 * bold row of totals at a table's end has no body below it, so it stays. -1 when there is none. Head rows that are
 * not bold are not told apart (docs/export.md).
 */
function secondHead(run: Line[][], maybe: Set<Line[]>): number {
  const bold = (row: Line[]) => row.every((l) => l.font.bold);
  const body = (row: Line[]) => !maybe.has(row) && !bold(row);
  return run.findIndex(
    (row, i) => i >= 2 && !maybe.has(row) && bold(row) && maybe.has(run[i - 1]!) && body(run[i - 2]!) && run.slice(i + 1).some(body),
  );
}

/**
 * The gutter of a page set in two columns: an x in the middle half of the page, at least half an em of it crossed
 * by (almost) no line, with at least a quarter of the text on each side. Null on a page in one column.
 */
function gutter(lines: Line[], x0: number, x1: number): number | null {
  if (lines.length < 4) return null;
  const width = Math.ceil(x1 - x0);
  // For every point across the page, the height of the lines that cross it.
  const cover = new Float64Array(width + 1);
  for (const l of lines) for (let x = Math.max(0, Math.floor(l.box[0] - x0)); x <= Math.min(width, Math.ceil(l.box[2] - x0)); x++) cover[x]! += l.box[3] - l.box[1];
  const total = lines.reduce((sum, l) => sum + (l.box[3] - l.box[1]), 0);
  const side = (g: number) => lines.filter((l) => (g < 0 ? l.box[2] <= -g : l.box[0] >= g)).reduce((sum, l) => sum + (l.box[3] - l.box[1]), 0);
  let best: number | null = null;
  let run = 0;
  for (let x = Math.floor(width / 4); x <= Math.ceil((3 * width) / 4); x++) {
    // Lines that cross the gutter (a heading over both columns, a wide table) may: a tenth of the text at most.
    if (cover[x]! <= 0.1 * total) run++;
    else run = 0;
    if (run >= 6) {
      const g = x0 + x - run / 2;
      if (side(-g) >= total / 4 && side(g) >= total / 4) best = g;
    }
  }
  // Two columns of running text: each side's lines hold more than PROSE_MEAN words on average. A table without rules whose gap
  // between two columns happens to be in the middle (names and figures on one side) has no gutter.
  const prose = (inSide: (l: Line) => boolean) => {
    const side = lines.filter(inSide);
    return side.reduce((sum, l) => sum + l.words.length, 0) >= PROSE_MEAN * side.length;
  };
  const at = best;
  return at !== null && prose((l) => l.box[2] <= at) && prose((l) => l.box[0] >= at) ? at : null;
}

/** The column of x in the grid's boundaries, or -1. */
const columnOf = (xpos: number[], x: number) => xpos.findIndex((left, i) => i < xpos.length - 1 && left - 1 <= x && x <= xpos[i + 1]! + 1);

/** A cell of a grid: its top left position and how many rows and columns it covers. */
interface GridCell {
  r: number;
  c: number;
  rowSpan: number;
  colSpan: number;
}

/**
 * The cells of a grid (docs/export.md, "Merged cells"): in a ruled grid, the positions no drawn rule parts are one
 * cell (a rule drawn through the middle of the edge between them counts), taken as rectangles from the top left
 * (as far right as the edges are open, then as far down as the whole width is open, with no rule inside); in a grid
 * without rules every position is a cell. Answers the cells in row-major order of their top left, and each position's
 * cell (an index into them).
 */
function gridCells(grid: Grid, ypos: number[]): { cells: GridCell[]; owner: number[][] } {
  const { xpos, rules } = grid;
  const rows = ypos.length - 1;
  const columns = xpos.length - 1;
  const drawn = (lines: Ruling[], at: number, from: number, to: number) => {
    const mid = (from + to) / 2;
    return lines.some((l) => Math.abs(l.at - at) <= 2 * RULE_SNAP && l.from - RULE_SNAP <= mid && mid <= l.to + RULE_SNAP);
  };
  // Open: no rule between position (r, c) and the one right of it, or the one below it.
  const openRight = (r: number, c: number) => rules !== undefined && !drawn(rules.vertical, xpos[c + 1]!, ypos[r]!, ypos[r + 1]!);
  const openBelow = (r: number, c: number) => rules !== undefined && !drawn(rules.horizontal, ypos[r + 1]!, xpos[c]!, xpos[c + 1]!);
  const owner = Array.from({ length: rows }, () => new Array<number>(columns).fill(-1));
  const cells: GridCell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (owner[r]![c]! >= 0) continue;
      let colSpan = 1;
      while (c + colSpan < columns && owner[r]![c + colSpan]! < 0 && openRight(r, c + colSpan - 1)) colSpan++;
      let rowSpan = 1;
      const across = () => Array.from({ length: colSpan }, (_, j) => c + j);
      while (
        r + rowSpan < rows &&
        across().every((col) => owner[r + rowSpan]![col]! < 0 && openBelow(r + rowSpan - 1, col) && (col === c + colSpan - 1 || openRight(r + rowSpan, col)))
      ) rowSpan++;
      for (let i = 0; i < rowSpan; i++) for (let j = 0; j < colSpan; j++) owner[r + i]![c + j] = cells.length;
      cells.push({ r, c, rowSpan, colSpan });
    }
  }
  return { cells, owner };
}

/**
 * A grid as a table: its rows, and for a grid without rules the table rows (isTableRow) just above and below it whose
 * words fall into its columns (at least two of them), which its runs leave out when they are set apart (a bold or
 * centred header row).
 * Answers the table and the lines it took, or null when it holds too little to be a table.
 */
function tableFromGrid(grid: Grid, lines: Line[], space: PageSpace): { block: ExportBlock; cells: Rectangle[][]; taken: Set<Line>; top: number } | null {
  const { xpos } = grid;
  const ypos = [...grid.ypos];
  const left = xpos[0]!;
  const right = xpos[xpos.length - 1]!;
  const inColumns = (l: Line) => l.box[0] >= left - 2 && l.box[2] <= right + 2;
  const outside = lines.filter((l) => inColumns(l) && (centre(l.box)[1] < ypos[0]! || centre(l.box)[1] > ypos[ypos.length - 1]!));
  const rowHeight = (ypos[ypos.length - 1]! - ypos[0]!) / (ypos.length - 1);
  const spread = (row: Line[]) => new Set(row.flatMap((l) => l.words.map((w) => columnOf(xpos, (w.x0 + w.x1) / 2)))).size;
  // The table's own text size: a row set larger than its cells (a heading whose words happen to fall into the columns,
  // as "# Quarterly report" above a two-column table did) is no header row of it.
  const inside = lines.filter((l) => inColumns(l) && centre(l.box)[1] >= ypos[0]! && centre(l.box)[1] <= ypos[ypos.length - 1]!);
  const cellSize = Math.max(0, ...inside.map((l) => l.font.size));
  const fits = (row: Line[]) =>
    row.every((l) => l.words.every((w) => columnOf(xpos, (w.x0 + w.x1) / 2) >= 0)) && spread(row) >= 2 && isTableRow(row) && (cellSize === 0 || row.every((l) => l.font.size <= cellSize * 1.15));
  // A ruled grid's lines are its extent.
  const rows = grid.ruled ? [] : rowsOf(outside);
  // Upwards from the top, then downwards from the bottom, one adjacent row at a time.
  for (const row of rows.filter((r) => centre(r[0]!.box)[1] < ypos[0]!).reverse()) {
    const top = Math.min(...row.map((l) => l.box[1]));
    const bottom = Math.max(...row.map((l) => l.box[3]));
    if (ypos[0]! - bottom > rowHeight || !fits(row)) break;
    ypos.unshift(Math.min(top, ypos[0]! - 0.1));
  }
  for (const row of rows.filter((r) => centre(r[0]!.box)[1] > ypos[ypos.length - 1]!)) {
    const top = Math.min(...row.map((l) => l.box[1]));
    const bottom = Math.max(...row.map((l) => l.box[3]));
    if (top - ypos[ypos.length - 1]! > rowHeight || !fits(row)) break;
    ypos.push(Math.max(bottom, ypos[ypos.length - 1]! + 0.1));
  }
  const { cells: gridded, owner } = gridCells(grid, ypos);
  // Each cell's text as pieces of lines (the words of one line in it), put in reading order below: a wrapped cell's
  // lines may come in any order in the content (a row's first lines, then its second lines).
  const pieces: { top: number; x: number; words: string[] }[][] = gridded.map(() => []);
  const taken = new Set<Line>();
  // No column boundary runs through a word, except inside a merged cell. MuPDF's detection also answers a page of
  // running text beside a column of list bullets as a grid (a LibreOffice page with a bulleted list: the bullets one
  // column, everything else the other), whose boundary then cuts the words of every line wider than the bullets' column.
  let cut = false;
  for (const line of lines) {
    const [cx, cy] = centre(line.box);
    if (cx < left || cx > right || cy < ypos[0]! || cy > ypos[ypos.length - 1]!) continue;
    const r = ypos.findIndex((top, i) => i < ypos.length - 1 && top <= cy && cy <= ypos[i + 1]!);
    if (r < 0) continue;
    taken.add(line);
    // Words by cell: a line that crosses a boundary (MuPDF joined two cells) is split at it.
    const linePieces = new Map<number, string[]>();
    for (const w of line.words) {
      const c = columnOf(xpos, (w.x0 + w.x1) / 2);
      if (c >= 0) {
        const cell = owner[r]![c]!;
        if (!linePieces.has(cell)) pieces[cell]!.push({ top: line.box[1], x: w.x0, words: linePieces.set(cell, []).get(cell)! });
        linePieces.get(cell)!.push(w.text);
      }
      for (let k = 1; k < xpos.length - 1; k++) if (w.x0 < xpos[k]! - 1 && w.x1 > xpos[k]! + 1 && owner[r]![k - 1] !== owner[r]![k]) cut = true;
    }
  }
  if (cut) return null;
  // A cell's lines top to bottom (within half a line, one line: left to right), joined as running text (hyphens).
  const words = pieces.map((cell) =>
    cell
      .sort((p, q) => (Math.abs(p.top - q.top) < 0.5 * (cellSize || 10) ? p.x - q.x : p.top - q.top))
      .map((p) => p.words.join(' ')),
  );
  const rows2: TableCell[][] = ypos.slice(1).map(() => []);
  const cellRects: Rectangle[][] = ypos.slice(1).map(() => []);
  for (const [i, { r, c, rowSpan, colSpan }] of gridded.entries()) {
    rows2[r]!.push({ text: joinLines(words[i]!), rowSpan, colSpan });
    cellRects[r]!.push(space.rectangle([xpos[c]!, ypos[r]!, xpos[c + colSpan]!, ypos[r + rowSpan]!]));
  }
  const filled = words.filter((w) => w.length > 0).length;
  if (rows2.length < 2 || filled < 2) return null;
  return { block: { type: 'table', rectangle: space.rectangle([left, ypos[0]!, right, ypos[ypos.length - 1]!]), rows: rows2 }, cells: cellRects, taken, top: ypos[0]! };
}

/** External links of a page: their areas in MuPDF's page space and their URIs. */
function uriLinks(page: mupdf.PDFPage): { box: Box; uri: string }[] {
  const out: { box: Box; uri: string }[] = [];
  for (const link of page.getLinks()) {
    try {
      if (link.isExternal()) out.push({ box: link.getBounds() as Box, uri: link.getURI() });
    } finally {
      link.destroy();
    }
  }
  return out;
}

/** The runs of a line's words whose centres lie in a link's area, each with the link's URI. */
function lineLinks(line: { box: Box; words: Word[] }, links: { box: Box; uri: string }[]): TextLink[] {
  if (!links.length) return [];
  const cy = centre(line.box)[1];
  const out: TextLink[] = [];
  let last: (TextLink & { index: number }) | undefined;
  line.words.forEach((w, index) => {
    const cx = (w.x0 + w.x1) / 2;
    const link = links.find((l) => l.box[0] <= cx && cx <= l.box[2] && l.box[1] <= cy && cy <= l.box[3]);
    if (!link) {
      last = undefined;
      return;
    }
    if (last && last.uri === link.uri && last.index === index - 1) {
      last.text += ` ${w.text}`;
      last.index = index;
    } else {
      last = { text: w.text, uri: link.uri, index };
      out.push(last);
    }
  });
  return out.map(({ text, uri }) => ({ text, uri }));
}

/**
 * What image data an export may still take (DOCX only): images are decoded and written as PNG while the bytes last,
 * and only those of at most MAX_IMAGE_PIXELS; the others stay placeholders, counted in `skipped`.
 */
export interface ImageBudget {
  bytes: number;
  skipped: number;
}
/** 16 megapixels: a full A4 page scanned at 400 dpi; decoding one takes at most 64 MB (RGBA). */
export const MAX_IMAGE_PIXELS = 16_000_000;
/** What the images of one DOCX export may add up to, as PNG. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** An image as PNG (grey or RGB, alpha kept), or undefined past the budget. */
function imagePng(image: mupdf.Image, budget: ImageBudget): Uint8Array | undefined {
  if (budget.bytes <= 0 || image.getWidth() * image.getHeight() > MAX_IMAGE_PIXELS) return undefined;
  let pixmap = image.toPixmap();
  try {
    const colours = pixmap.getNumberOfComponents() - pixmap.getAlpha();
    // PNG holds grey and RGB only: CMYK, Lab and others are converted.
    if (colours !== 1 && colours !== 3) {
      const converted = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
      pixmap.destroy();
      pixmap = converted;
    }
    const png = pixmap.asPNG();
    if (png.byteLength > budget.bytes) return undefined;
    budget.bytes -= png.byteLength;
    return png;
  } finally {
    pixmap.destroy();
  }
}

/** The images of the page's image blocks, in the order of the structured text's blocks (undefined: not taken). */
function blockImages(stext: mupdf.StructuredText, budget: ImageBudget): (Uint8Array | undefined)[] {
  const out: (Uint8Array | undefined)[] = [];
  stext.walk({
    onImageBlock(_bbox, _transform, image) {
      try {
        const png = imagePng(image, budget);
        if (!png) budget.skipped++;
        out.push(png);
      } finally {
        image.destroy();
      }
    },
  });
  return out;
}

/**
 * One page's lines, tables and images, in reading order (MuPDF's order; a table where its first line was). With an
 * image budget (DOCX), image blocks carry their images as PNG.
 */
export function readPage(page: mupdf.PDFPage, pageIndex: number, images?: ImageBudget): RawPage {
  const space = new PageSpace(page);
  const [px0, py0, px1, py1] = page.getBounds();
  const stext = page.toStructuredText(PLAIN_OPTIONS);
  let blocks: StextJsonBlock[];
  let words: Word[][];
  let pngs: (Uint8Array | undefined)[] = [];
  try {
    blocks = (JSON.parse(stext.asJSON()) as { blocks: StextJsonBlock[] }).blocks;
    words = lineWords(stext);
    if (images) pngs = blockImages(stext, images);
  } finally {
    stext.destroy();
  }
  const { shapes, horizontal, vertical } = pageVectors(page);
  const links = uriLinks(page);
  const items: RawItem[] = [];
  const all: Line[] = [];
  let k = 0;
  let imageIndex = 0;
  for (const b of blocks) {
    if (b.type === 'image') {
      const png = pngs[imageIndex++];
      if (b.bbox) items.push({ kind: 'image', block: { type: 'image', rectangle: space.rectangle(box(b.bbox)), ...(png ? { png } : {}) } });
      continue;
    }
    if (b.type !== 'text' || !b.lines) continue;
    const lines: Line[] = [];
    for (const l of b.lines) {
      const font = lineFont(l);
      const line: Line = { text: l.text, box: box(l.bbox), rect: space.rectangle(box(l.bbox)), font, words: words[k++] ?? [], bullet: false, links: [] };
      line.bullet = hasBullet(line, shapes);
      line.links = lineLinks(line, links);
      if (line.text.trim() !== '') lines.push(line);
    }
    if (lines.length) {
      items.push({ kind: 'lines', lines });
      all.push(...lines);
    }
  }
  // Each grid becomes a table in place of the lines it took: the ruled ones first.
  const ruled = ruledGrids(horizontal, vertical);
  const place = (grid: Grid) => {
    const table = tableFromGrid(grid, all.filter((l) => items.some((i) => i.kind === 'lines' && i.lines.includes(l))), space);
    if (!table) return;
    let placed = false;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.kind !== 'lines' || !item.lines.some((l) => table.taken.has(l))) continue;
      const before = item.lines.filter((l) => !table.taken.has(l) && l.box[3] <= table.top);
      const rest = item.lines.filter((l) => !table.taken.has(l) && !before.includes(l));
      const replaced: RawItem[] = [];
      if (before.length) replaced.push({ kind: 'lines', lines: before });
      if (!placed) replaced.push({ kind: 'table', block: table.block, cells: table.cells });
      placed = true;
      if (rest.length) replaced.push({ kind: 'lines', lines: rest });
      items.splice(i, 1, ...replaced);
      i += replaced.length - 1;
    }
  };
  for (const grid of ruled) place(grid);
  // Then tables without rules, from the rows of the lines left: in each text column apart on a page set in two, so that
  // the lines side by side in the two columns are never taken for a table's rows.
  const rest = all.filter((l) => items.some((i) => i.kind === 'lines' && i.lines.includes(l)));
  const at = gutter(rest, px0, px1);
  const parts = at === null ? [rest] : [rest.filter((l) => l.box[2] <= at), rest.filter((l) => l.box[0] >= at), rest.filter((l) => l.box[0] < at && l.box[2] > at)];
  for (const part of parts) for (const grid of alignedGrids(part)) place(grid);
  return { pageIndex, width: Math.round((px1 - px0) * 100) / 100, height: Math.round((py1 - py0) * 100) / 100, items };
}
