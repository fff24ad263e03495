/**
 * engine/export/sheets.ts, the rules of the table exports (docs/export.md, "XLSX and CSV"): which cell texts are
 * numbers and with what format, the decimal mark of a column, CSV as RFC 4180 reads it (checked with Python's csv
 * module, not with the writer's own code), and the refusals (NO_TABLES, TABLE_OUT_OF_RANGE).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { columnDecimal, parseNumber, toCsv, writeSheets } from '../../src/engine/export/sheets.js';

test('parseNumber: whole numbers, thousands, decimals, negatives, percentages and currencies; the rest stays text', () => {
  const cases: [string, '.' | ',', number | undefined, string | undefined][] = [
    ['42', '.', 42, '0'],
    ['1,234.50', '.', 1234.5, '#,##0.00'],
    ['1.234,50', ',', 1234.5, '#,##0.00'],
    ['1 234 567', '.', 1234567, '#,##0'],
    ['1\u202f234,5', ',', 1234.5, '#,##0.0'],
    ["1'234.5", '.', 1234.5, '#,##0.0'],
    ['12,5', ',', 12.5, '0.0'],
    ['(300)', '.', -300, '0;(0)'],
    ['(1,234.50)', '.', -1234.5, '#,##0.00;(#,##0.00)'],
    ['-7', '.', -7, '0'],
    ['−7.25', '.', -7.25, '0.00'],
    ['+3', '.', 3, '0'],
    ['12%', '.', 0.12, '0%'],
    ['7.5%', '.', 0.075, '0.0%'],
    ['-3,5 %', ',', -0.035, '0.0%'],
    ['€5.00', '.', 5, '"€"0.00'],
    ['5,00 €', ',', 5, '0.00 "€"'],
    ['-$1,000', '.', -1000, '"$"#,##0'],
    ['$-1,000', '.', -1000, '"$"#,##0'],
    ['0', '.', 0, '0'],
    ['0.5', '.', 0.5, '0.0'],
    // Text: leading zeros, wrong grouping, two decimal marks, units, dates, codes, empty.
    ['01234', '.', undefined, undefined],
    ['1,23,456', '.', undefined, undefined],
    ['1.234.567', '.', undefined, undefined],
    ['1.2.3', ',', undefined, undefined],
    ['5 kg', '.', undefined, undefined],
    ['2026-12-01', '.', undefined, undefined],
    ['A-1', '.', undefined, undefined],
    ['(-3)', '.', undefined, undefined],
    ['$5%', '.', undefined, undefined],
    ['', '.', undefined, undefined],
    ['12.', '.', undefined, undefined],
  ];
  for (const [text, decimal, value, format] of cases) {
    const parsed = parseNumber(text, decimal);
    assert.deepEqual(parsed && [parsed.value, parsed.format], value === undefined ? undefined : [value, format], `${JSON.stringify(text)} with "${decimal}"`);
  }
});

test('columnDecimal: a comma only where some cell can only be read with one, and more cells say so', () => {
  assert.equal(columnDecimal(['1,234', '99']), '.');
  assert.equal(columnDecimal(['1.234,50', '99']), ',');
  assert.equal(columnDecimal(['12,5', '3,25', 'n/a']), ',');
  assert.equal(columnDecimal(['1.234.567', '1,234']), ',');
  assert.equal(columnDecimal(['1,234.50', '12,5', '3.25']), '.');
  assert.equal(columnDecimal(['Text', '']), '.');
});

test('toCsv: RFC 4180 as Python reads it: quotes doubled, commas and line breaks quoted, CRLF, ragged rows padded', () => {
  const rows = [['Name', 'Note', 'Extra'], ['a, b', 'say "hi"', 'x'], ['line\nbreak', ' spaced ', ''], ['short']];
  const csv = toCsv({ pageIndex: 0, rows });
  assert.ok(csv.endsWith('\r\n'));
  assert.equal(csv.split('\r\n').length, 5);
  const read = JSON.parse(execFileSync('python3', ['-c', 'import sys, csv, io, json; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))'], { input: csv }).toString('utf8')) as string[][];
  assert.deepEqual(read, [['Name', 'Note', 'Extra'], ['a, b', 'say "hi"', 'x'], ['line\nbreak', ' spaced ', ''], ['short', '', '']]);
});

test('writeSheets: no table is NO_TABLES, a table past the last TABLE_OUT_OF_RANGE; CSV is the table asked for', async () => {
  await assert.rejects(writeSheets([], 'xlsx', undefined), { code: 'NO_TABLES' });
  await assert.rejects(writeSheets([], 'csv', 1), { code: 'NO_TABLES' });
  const tables = [{ pageIndex: 0, rows: [['A'], ['1']] }, { pageIndex: 2, rows: [['B'], ['2']] }];
  await assert.rejects(writeSheets(tables, 'csv', 3), { code: 'TABLE_OUT_OF_RANGE', message: /2 tables \(1 to 2\)/ });
  assert.equal(await writeSheets(tables, 'csv', undefined), 'A\r\n1\r\n');
  assert.equal(await writeSheets(tables, 'csv', 2), 'B\r\n2\r\n');
  const book = await writeSheets(tables, 'xlsx', undefined);
  assert.ok(book instanceof Uint8Array && Buffer.from(book).subarray(0, 2).toString('latin1') === 'PK', 'a zip');
});
