/**
 * The table exports (docs/export.md, "XLSX and CSV"): the tables of the export model as an XLSX workbook (one sheet a
 * table, numbers as numbers) or one table as CSV (RFC 4180). Pure: no MuPDF. Written in the engine worker, after the
 * document is closed: a workbook of 26,000 cells held the thread 0.5 to 1.8 s (measured on 2 loaded cores), too long
 * for the event loop. write-excel-file answers a promise (it streams the zip), so the task is async (worker.ts).
 */
import writeXlsxFile, { type Cell, type Row } from 'write-excel-file/node';
import { EngineError } from '../errors.js';
import type { ExportModel, SheetFormat } from './model.js';
import { gridTexts, headerRows, tableGrid } from './table-grid.js';


/**
 * One table of the model: the page it is on (zero-based), its grid's text rows top to bottom (a merged cell's text at
 * its top left, the positions it covers empty: gridTexts), its merged cells by their top left, and its head rows.
 */
export interface SheetTable {
  pageIndex: number;
  rows: string[][];
  /** Absent: none. */
  merged?: { row: number; column: number; rowSpan: number; colSpan: number }[];
  /** Absent: 1. */
  headerRows?: number;
}

/** The tables of the model in reading order (page by page, then block order), as text. */
export function tablesOf(model: ExportModel): SheetTable[] {
  return model.pages.flatMap((page) =>
    page.blocks.flatMap((b) => {
      if (b.type !== 'table') return [];
      const merged = tableGrid(b.rows).flatMap((row, r) =>
        row.flatMap((slot, column) => (slot?.origin && (slot.cell.rowSpan > 1 || slot.cell.colSpan > 1) ? [{ row: r, column, rowSpan: slot.cell.rowSpan, colSpan: slot.cell.colSpan }] : [])),
      );
      return [{ pageIndex: page.pageIndex, rows: gridTexts(b.rows), merged, headerRows: headerRows(b.rows) }];
    }),
  );
}

/** A number read from a cell's text, and the Excel number format that shows it as it was written. */
export interface ParsedNumber {
  value: number;
  format: string;
}

type Decimal = '.' | ',';

const CURRENCY = '$€£¥';
/** Thousands separators besides the other mark: spaces (also no-break and narrow no-break) and the Swiss apostrophe. */
const SPACE_GROUPS = /[ \u00a0\u202f']/gu;

/**
 * The decimal mark a column's numbers use: "," when any cell can only be read with a decimal comma ("12,5", "1.234,50",
 * "1.234.567"), else "." (so "1,234" is one thousand two hundred and thirty-four unless the column says otherwise).
 */
export function columnDecimal(texts: string[]): Decimal {
  let comma = 0;
  let dot = 0;
  for (const text of texts) {
    const body = numberBody(text)?.replace(SPACE_GROUPS, '');
    if (!body) continue;
    if (/^\d{1,3}(\.\d{3})+,\d+$|^\d+,(\d{1,2}|\d{4,})$|^\d{1,3}(\.\d{3}){2,}$/u.test(body)) comma++;
    else if (/^\d{1,3}(,\d{3})+\.\d+$|^\d+\.(\d{1,2}|\d{4,})$|^\d{1,3}(,\d{3}){2,}$/u.test(body)) dot++;
  }
  return comma > dot ? ',' : '.';
}

/** The digits and marks of a text that may be a number: signs, parentheses, a currency symbol and "%" taken off. */
function numberBody(text: string): string | undefined {
  return splitNumber(text)?.body;
}

function splitNumber(text: string): { body: string; negative: boolean; percent: boolean; currency: string; currencyAfter: boolean; parens: boolean } | undefined {
  let t = text.trim();
  let parens = false;
  const p = /^\((.*)\)$/u.exec(t);
  if (p) {
    parens = true;
    t = p[1]!.trim();
  }
  let negative = parens;
  const sign = /^([-−+])\s*/u.exec(t);
  if (sign) {
    if (parens) return undefined;
    negative = sign[1] !== '+';
    t = t.slice(sign[0].length);
  }
  let currency = '';
  let currencyAfter = false;
  if (t && CURRENCY.includes(t[0]!)) {
    currency = t[0]!;
    t = t.slice(1).trimStart();
    // "$-5" as well as "-$5"
    const inner = /^([-−])\s*/u.exec(t);
    if (inner && !sign && !parens) {
      negative = true;
      t = t.slice(inner[0].length);
    }
  } else if (t && CURRENCY.includes(t[t.length - 1]!)) {
    currency = t[t.length - 1]!;
    currencyAfter = true;
    t = t.slice(0, -1).trimEnd();
  }
  let percent = false;
  if (t.endsWith('%')) {
    if (currency) return undefined;
    percent = true;
    t = t.slice(0, -1).trimEnd();
  }
  if (!/^\d[\d.,\u00a0\u202f' ]*$/u.test(t) || !/\d$/u.test(t)) return undefined;
  return { body: t, negative, percent, currency, currencyAfter, parens };
}

/**
 * A cell's text as a number, when the whole text is one (docs/export.md): digits with thousands separators (the mark
 * that is not the column's decimal mark, spaces, an apostrophe) and decimals, a leading "-", "−" or "+" or parentheses
 * for a negative, a trailing "%" (divided by 100), a leading or trailing "$", "€", "£" or "¥". Leading zeros ("007",
 * a postcode) and anything else stay text.
 */
export function parseNumber(text: string, decimal: Decimal = '.'): ParsedNumber | undefined {
  const parts = splitNumber(text);
  if (!parts) return undefined;
  const group = decimal === '.' ? ',' : '.';
  let body = parts.body;
  const grouped = body.includes(group) || /[ \u00a0\u202f']/u.test(body);
  body = body.replace(SPACE_GROUPS, group);
  const [whole = '', fraction, extra] = body.split(decimal);
  if (extra !== undefined) return undefined;
  // Groups of three after the first (of one to three digits), or no grouping at all.
  if (whole.includes(group) && !(group === ',' ? /^\d{1,3}(,\d{3})+$/u : /^\d{1,3}(\.\d{3})+$/u).test(whole)) return undefined;
  const digits = whole.split(group).join('');
  if (!/^\d+$/u.test(digits) || (fraction !== undefined && !/^\d+$/u.test(fraction))) return undefined;
  if (digits.length > 1 && digits.startsWith('0')) return undefined;
  let value = Number(`${digits}${fraction !== undefined ? `.${fraction}` : ''}`);
  if (!Number.isFinite(value)) return undefined;
  if (parts.percent) value = Number((value / 100).toPrecision(15));
  if (parts.negative) value = -value;
  const decimals = fraction?.length ?? 0;
  let format = `${grouped ? '#,##0' : '0'}${decimals ? `.${'0'.repeat(decimals)}` : ''}${parts.percent ? '%' : ''}`;
  if (parts.currency) format = parts.currencyAfter ? `${format} "${parts.currency}"` : `"${parts.currency}"${format}`;
  if (parts.parens) format = `${format};(${format})`;
  return { value: value === 0 ? 0 : value, format };
}

/** Sheet names: at most 31 characters, none of []:*?/\ (all the names here are made of digits and words). */
const sheetName = (n: number, table: SheetTable) => `Table ${n} (page ${table.pageIndex + 1})`;

/**
 * The tables as one workbook: a sheet per table ("Table 1 (page 2)"), its first row bold and frozen (the header row,
 * as in the Markdown and HTML exports), cells that are numbers (parseNumber, each column's decimal mark found by
 * columnDecimal) written as numbers with a format that shows them as the PDF did, every other cell as text (never a
 * formula).
 */
export async function toXlsx(tables: { table: SheetTable; n: number }[]): Promise<Buffer> {
  const sheets = tables.map(({ table, n }) => {
    const head = table.headerRows ?? 1;
    const columns = Math.max(1, ...table.rows.map((r) => r.length));
    const decimals = Array.from({ length: columns }, (_, c) => columnDecimal(table.rows.slice(head).map((r) => r[c] ?? '')));
    const data: Row[] = table.rows.map((row, r) =>
      Array.from({ length: columns }, (_, c): Cell => {
        const text = row[c] ?? '';
        if (r < head) return { value: text, type: String, fontWeight: 'bold' };
        const number = parseNumber(text, decimals[c]);
        return number ? { value: number.value, type: Number, format: number.format } : { value: text, type: String };
      }),
    );
    // A merged cell is one range (mergeCells): its top left holds the value, the positions it covers are left out.
    for (const m of table.merged ?? []) {
      const cell = data[m.row]![m.column] as Exclude<Cell, null | undefined | string | number | boolean | Date>;
      data[m.row]![m.column] = { ...cell, ...(m.colSpan > 1 ? { columnSpan: m.colSpan } : {}), ...(m.rowSpan > 1 ? { rowSpan: m.rowSpan } : {}) };
      for (let r = m.row; r < m.row + m.rowSpan; r++) for (let c = m.column; c < m.column + m.colSpan; c++) if (r !== m.row || c !== m.column) data[r]![c] = null;
    }
    const widths = Array.from({ length: columns }, (_, c) => Math.max(...table.rows.map((r) => (r[c] ?? '').length)));
    return { data, sheet: sheetName(n, table), stickyRowsCount: head, columns: widths.map((w) => ({ width: Math.min(60, Math.max(8, w + 2)) })) };
  });
  return writeXlsxFile(sheets).toBuffer();
}

/** One field of RFC 4180: quoted when it holds a quote, a comma or a line break; quotes doubled. */
const csvField = (text: string) => (/[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text);

/**
 * One table as CSV (RFC 4180): CRLF after every record, every record as many fields as the widest row, the text of
 * each cell as the PDF has it (numbers are not reformatted). UTF-8 without a byte order mark.
 */
export function toCsv(table: SheetTable): string {
  const columns = Math.max(1, ...table.rows.map((r) => r.length));
  return table.rows.map((row) => `${Array.from({ length: columns }, (_, c) => csvField(row[c] ?? '')).join(',')}\r\n`).join('');
}

/**
 * The tables of an export written as XLSX (every table, or table `n`, 1-based) or CSV (table `n`, by default the
 * first): 422 NO_TABLES without a table, 400 TABLE_OUT_OF_RANGE for a table past the last.
 */
export async function writeSheets(tables: SheetTable[], format: SheetFormat, n: number | undefined): Promise<string | Uint8Array> {
  if (!tables.length) {
    throw new EngineError('NO_TABLES', `The pages exported have no table to write as ${format.toUpperCase()} (tables are found by their ruling lines): export as json, markdown or html for the text`);
  }
  if (n !== undefined && n > tables.length) throw new EngineError('TABLE_OUT_OF_RANGE', `table=${n}: the pages exported have ${tables.length} table${tables.length === 1 ? '' : 's'} (1 to ${tables.length})`);
  if (format === 'csv') return toCsv(tables[(n ?? 1) - 1]!);
  return toXlsx(n === undefined ? tables.map((table, i) => ({ table, n: i + 1 })) : [{ table: tables[n - 1]!, n }]);
}
