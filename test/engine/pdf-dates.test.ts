/**
 * engine/syntax/dates.ts, the one home of PDF dates: every date the service writes (metadata, PDF/A, attachments,
 * annotations and redaction marks, signatures) comes from isoToPdfDate, so they share one form (UTC as +00'00', the
 * precision the ISO date had); reads go through pdfDateToIso.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoSeconds, isoToPdfDate, pdfDate, pdfDateToIso } from '../../src/engine/syntax/dates.js';

test('isoToPdfDate: the precision given, the zone as +hh\'mm\' (Z as +00\'00\'), a fraction dropped; not a real date or not ISO: undefined', () => {
  const cases: [string, string | undefined][] = [
    ['2024', 'D:2024'],
    ['2024-02', 'D:202402'],
    ['2024-02-29', 'D:20240229'],
    ['2024-02-29T10:20', 'D:202402291020' + '00'],
    ['2024-02-29T10:20:30Z', "D:20240229102030+00'00'"],
    ['2024-02-29T10:20:30.123Z', "D:20240229102030+00'00'"],
    ['2024-02-29T10:20:30.5+01:00', "D:20240229102030+01'00'"],
    ['2024-02-29T10:20:30-05:30', "D:20240229102030-05'30'"],
    ['2023-02-29T10:20:30Z', undefined],
    ['2024-13-01', undefined],
    ['2024-01-01T24:00:00Z', undefined],
    ['2024-01-01T10:00:00+24:00', undefined],
    ['yesterday', undefined],
    ['D:20240101', undefined],
  ];
  for (const [iso, pdf] of cases) assert.equal(isoToPdfDate(iso), pdf, iso);
});

test('pdfDate and isoSeconds: a moment in UTC to the second, in the one form', () => {
  const moment = new Date(Date.UTC(2026, 10, 30, 21, 38, 50, 987));
  assert.equal(isoSeconds(moment), '2026-11-30T21:38:50Z');
  assert.equal(pdfDate(moment), "D:20261130213850+00'00'");
  assert.equal(pdfDate(moment), isoToPdfDate(isoSeconds(moment)));
});

test('pdfDateToIso: every precision and zone form met in files; what is no date: undefined; a written date reads back', () => {
  const cases: [string | undefined, string | undefined][] = [
    ["D:20240229102030+01'00'", '2024-02-29T10:20:30+01:00'],
    ["D:20240229102030+01'00", '2024-02-29T10:20:30+01:00'],
    ['D:20240229102030Z', '2024-02-29T10:20:30Z'],
    ["D:20240229102030Z00'00'", '2024-02-29T10:20:30Z'],
    ['D:20240229102030', '2024-02-29T10:20:30Z'],
    ['20240229', '2024-02-29T00:00:00Z'],
    ['D:2024', '2024-01-01T00:00:00Z'],
    ['D:20241301', undefined],
    ['D:20240101250000', undefined],
    ['yesterday', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [pdf, iso] of cases) assert.equal(pdfDateToIso(pdf), iso, String(pdf));
  for (const iso of ['2024-02-29T10:20:30+01:00', '2024-02-29T10:20:30-05:30']) assert.equal(pdfDateToIso(isoToPdfDate(iso)), iso);
  assert.equal(Date.parse(pdfDateToIso(pdfDate(new Date(86_400_000)))!), 86_400_000);
});
