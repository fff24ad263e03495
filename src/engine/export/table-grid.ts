import type { TableCell } from './model.js';

/**
 * Tables with merged cells (docs/export.md, "Merged cells"): the model lists each row's cells as HTML does, only the
 * cells that start in the row, each covering `rowSpan` rows and `colSpan` columns. Every writer that needs the
 * positions (Markdown, CSV and XLSX write one value per position, DOCX and the tagger count columns) lays them out here.
 */

/** One position of a table's grid: the cell that covers it, and whether the cell starts there (its top left). */
export interface GridSlot {
  cell: TableCell;
  origin: boolean;
}

/**
 * The table's rows laid out on its grid as HTML lays out a table: each cell at the first position of its row that no
 * cell above reaches down into, a rowSpan past the last row cut at it. Every row as long as the widest; a position no
 * cell covers (a short row) is null.
 */
export function tableGrid(rows: TableCell[][]): (GridSlot | null)[][] {
  const grid: (GridSlot | undefined)[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (grid[r]![c]) c++;
      const down = Math.max(1, Math.min(cell.rowSpan, rows.length - r));
      for (let i = 0; i < down; i++) for (let j = 0; j < Math.max(1, cell.colSpan); j++) grid[r + i]![c + j] = { cell, origin: i === 0 && j === 0 };
      c += Math.max(1, cell.colSpan);
    }
  });
  const columns = Math.max(0, ...grid.map((g) => g.length));
  return grid.map((g) => Array.from({ length: columns }, (_, c) => g[c] ?? null));
}

/** The grid's positions as text: a merged cell's text at its top left, the positions it covers besides empty. */
export const gridTexts = (rows: TableCell[][]): string[][] => tableGrid(rows).map((row) => row.map((slot) => (slot?.origin ? slot.cell.text : '')));

/**
 * How many rows head the table: the first, and the rows a cell of the head reaches down into (a "Region" cell two rows
 * high beside a "2025" cell over "Q1" and "Q2"). A head that would take every row of a table of several is the first
 * row alone (a cell down the whole first column is no heading of the rest).
 */
export function headerRows(rows: TableCell[][]): number {
  let head = Math.min(1, rows.length);
  for (let r = 0; r < head; r++) for (const cell of rows[r]!) head = Math.max(head, Math.min(rows.length, r + cell.rowSpan));
  return head === rows.length && rows.length > 1 ? 1 : head;
}
