import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FdfBuilder, parseFdf, resolveFdf, textString, writeFdf } from '../../src/engine/xfdf/fdf.js';
import { exactNumber as formatNumber } from '../../src/engine/syntax/numbers.js';
import { EngineError } from '../../src/engine/errors.js';
import { decodeTextString, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../../src/engine/syntax/parser.js';

const dict = (entries: [string, PdfValue][]): PdfDict => new Map(entries);
const bytes = (...b: number[]) => new PdfString(Uint8Array.from(b));
const malformed = (e: unknown) => e instanceof EngineError && e.code === 'MALFORMED_FDF';

describe('FDF files (src/engine/xfdf/fdf.ts)', () => {
  test('what writeFdf writes, parseFdf reads back unchanged: every kind of value, objects and binary streams', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff); // every byte value, "endstream" bytes included below
    const tricky = Buffer.concat([Buffer.from(data), Buffer.from('\nendstream\nendobj\n')]);
    const builder = new FdfBuilder();
    const shared = builder.add(dict([['Subtype', new PdfName('Text')], ['Rect', [0, 0.5, -12.25, 1e-7]]]));
    const stream = builder.addStream(dict([['Filter', new PdfName('FlateDecode')], ['Type', new PdfName('EmbeddedFile')]]), new Uint8Array(tricky));
    const root = dict([
      ['Fields', [dict([['T', textString('a (b) \\ c\r\n\t')], ['V', textString('Grüße ☺')]]), dict([['T', textString('x')], ['V', new PdfName('A B#/(é)')]])]],
      ['Annots', [shared]],
      ['EF', stream],
      ['Misc', [true, false, null, 0, -3, 2147483647, 1234567.125, 12e25, [[[]]], dict([])]],
      ['Raw', bytes(0, 255, 40, 41, 92, 10)],
    ]);
    const written = builder.write(root, { fileName: 'form.pdf', ids: [Uint8Array.from([1, 2, 3]), Uint8Array.from([0xab, 0xcd])] });
    const text = Buffer.from(written).toString('latin1');
    assert.match(text, /^%FDF-1\.2\n/);
    assert.match(text, /trailer\n<< \/Root 1 0 R >>\n%%EOF\n$/);
    assert.doesNotMatch(text, /\d[eE][+-]?\d/, 'no number with an exponent');
    assert.match(text, /\/A#20B#23#2F#28#C3#A9#29/, 'names escape delimiters and non-ASCII bytes');

    const parsed = parseFdf(written);
    assert.deepEqual(parsed.warnings, []);
    const expected = new Map(root);
    expected.set('F', textString('form.pdf'));
    expected.set('ID', [bytes(1, 2, 3), bytes(0xab, 0xcd)]);
    // 12e25 is written without an exponent and read back as the same double.
    assert.deepEqual(parsed.root, expected);
    assert.deepEqual(parsed.objects.get(shared.num), builder.objects.get(shared.num));
    assert.deepEqual(Buffer.from(parsed.streams.get(stream.num)!.data), tricky);
    assert.equal(decodeTextString(((parsed.root.get('Fields') as PdfDict[])[0]!.get('V') as PdfString).bytes), 'Grüße ☺');
    // And once more: writing what was read gives the same file.
    assert.deepEqual(Buffer.from(writeFdf({ root: parsed.root, objects: new Map([...parsed.objects].filter(([n]) => n !== 1 && !parsed.streams.has(n))), streams: parsed.streams })), Buffer.from(written));
  });

  test('numbers never get an exponent', () => {
    assert.equal(formatNumber(1e21), '1000000000000000000000');
    assert.equal(formatNumber(-2.5e-7), '-0.00000025');
    assert.equal(formatNumber(0.1 + 0.2), '0.30000000000000004');
    assert.equal(formatNumber(Number.NaN), '0');
  });

  test('reads what other tools write: CRLF, xref tables, /Type /Catalog or none, indirect /Length, missing endobj, comments', () => {
    const file = [
      '%FDF-1.4',
      '%\xe2\xe3\xcf\xd3',
      '1 0 obj',
      '<</FDF<</Fields[3 0 R]/F(doc.pdf)>>/Type/Catalog>>',
      'endobj',
      '3 0 obj <</T(f)/V(v)/AP<</N 4 0 R>>>>',
      '4 0 obj <</Length 5 0 R>>stream',
      'q Q',
      'endstream',
      'endobj',
      '5 0 obj 3 endobj % a comment',
      'xref',
      '0 2',
      '0000000000 65535 f',
      '0000000016 00000 n',
      'trailer',
      '<</Root 1 0 R>>',
      'startxref',
      '123',
      '%%EOF',
    ].join('\r\n');
    const parsed = parseFdf(Buffer.from(file, 'latin1'));
    const field = resolveFdf(parsed, (parsed.root.get('Fields') as PdfValue[])[0]) as PdfDict;
    assert.equal(decodeTextString((field.get('V') as PdfString).bytes), 'v');
    assert.equal(Buffer.from(parsed.streams.get(4)!.data).toString('latin1'), 'q Q');
    assert.ok(resolveFdf(parsed, new PdfRef(99, 0)) === null, 'a missing object reads as null');
    // No trailer at all: the object holding /FDF is the catalog.
    const noTrailer = parseFdf(Buffer.from('%FDF-1.2\n1 0 obj << /FDF << /Fields [] >> >> endobj\n'));
    assert.deepEqual(noTrailer.root.get('Fields'), []);
  });

  test('JavaScript is dropped while reading and reported', () => {
    const file = [
      '%FDF-1.2',
      '1 0 obj << /FDF << /JavaScript << /Doc 2 0 R >> /Fields [ << /T (a) /V (x) /A 2 0 R /AA << /K 3 0 R >> >> << /T (b) /A << /S /URI /URI (https://example.org) /Next [2 0 R << /S /Rendition /JS (x) >>] >> >> ] >> >> endobj',
      '2 0 obj << /S /JavaScript /JS (app.alert\\(1\\)) >> endobj',
      '3 0 obj << /S /JavaScript /JS 4 0 R >> endobj',
      '4 0 obj << /Length 4 >> stream\nx=1;\nendstream endobj',
      'trailer << /Root 1 0 R >> %%EOF',
    ].join('\n');
    const parsed = parseFdf(Buffer.from(file));
    const [a, b] = parsed.root.get('Fields') as PdfDict[];
    assert.deepEqual([...a!.keys()], ['T', 'V']);
    const action = b!.get('A') as PdfDict;
    assert.deepEqual(action.get('Next'), [dict([['S', new PdfName('Rendition')]])]);
    assert.equal(parsed.root.has('JavaScript'), false);
    assert.equal(parsed.objects.get(2), null);
    assert.equal(parsed.objects.get(3), null);
    assert.ok(parsed.warnings.length >= 3, parsed.warnings.join('\n'));
    for (const w of parsed.warnings) assert.match(w, /never run or imported/);
  });

  test('refuses what it cannot read with MALFORMED_FDF, within bounds', () => {
    const bad = [
      '',
      '%PDF-1.7\n1 0 obj << >> endobj',
      '%FDF-1.2\n1 0 obj << /FDF << /Fields [ (unclosed >> >> endobj',
      '%FDF-1.2\n1 0 obj << /NotFdf 1 >> endobj trailer << /Root 1 0 R >>',
      '%FDF-1.2\n1 0 obj << /FDF << >> >> endobj\nwhatever this is',
      `%FDF-1.2\n1 0 obj << /FDF << /X ${'['.repeat(70)}${']'.repeat(70)} >> >> endobj`,
      '%FDF-1.2\n1 0 obj << /FDF << >> >> endobj 2 0 obj << /Length 3 >> stream\nabc',
    ];
    for (const text of bad) assert.throws(() => parseFdf(Buffer.from(text, 'latin1')), malformed, JSON.stringify(text.slice(0, 60)));
    const many = `%FDF-1.2\n1 0 obj << /FDF << >> >> endobj\n${Array.from({ length: 100_001 }, (_, i) => `${i + 2} 0 obj 0 endobj`).join('\n')}`;
    assert.throws(() => parseFdf(Buffer.from(many)), (e: unknown) => malformed(e) && /100000 objects/.test((e as Error).message));
  });
});
