/**
 * Checks the annotation fixtures and the qpdf-based reader with tools we did
 * not write (qpdf, poppler), so the annotation tests can rely on both.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { everySubtypeFixture, makeAnnotatedPdf, SUBTYPES, type FixtureAnnotation } from '../helpers/annotated-pdf.js';
import { encryptPdf, pdfinfo, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { countBySubtype, qpdfAnnotations } from '../helpers/qpdf-json.js';

test('SUBTYPES are the 28 of interface.md §2.3', () => {
  assert.equal(SUBTYPES.length, 28);
  assert.equal(new Set(SUBTYPES).size, 28);
  // Compare with the interface text itself where the shared folder is present.
  const spec = path.resolve('../shared/interface.md');
  if (existsSync(spec)) {
    const line = readFileSync(spec, 'utf8').split('\n').find((l) => l.startsWith('`Text`, `Link`'));
    assert.deepEqual(line?.match(/`([^`]+)`/g)?.map((s) => s.slice(1, -1)), [...SUBTYPES]);
  }
});

test('qpdfAnnotations reads encrypted files with the password', () => {
  const { pdf, annotations } = everySubtypeFixture();
  const encrypted = encryptPdf(pdf, 'user', 'owner');
  assert.deepEqual(qpdfAnnotations(encrypted, 'user').map((a) => a.name), annotations.map((a) => a.name));
});

test('everySubtypeFixture passes qpdf --check without warnings and has 3 Letter pages', () => {
  const { pdf } = everySubtypeFixture();
  const check = qpdfCheck(pdf);
  assert.ok(check.ok, check.output);
  const info = pdfinfo(pdf);
  assert.equal(info['Pages'], '3');
  assert.match(info['Page size'] ?? '', /612 x 792 pts \(letter\)/);
});

test('qpdf --json sees exactly the annotations written, in order, with their names', () => {
  const { pdf, annotations } = everySubtypeFixture();
  const seen = qpdfAnnotations(pdf);
  assert.deepEqual(countBySubtype(seen), countBySubtype(annotations));
  for (const subtype of SUBTYPES) assert.ok(countBySubtype(seen)[subtype]! >= 1, `no ${subtype}`);
  // Fixture order is page order, so the lists line up one to one.
  assert.deepEqual(
    seen.map((a) => [a.pageIndex, a.subtype, a.name, a.rect]),
    annotations.map((a) => [a.page, a.subtype, a.name, a.rect]),
  );
});

test('everySubtypeFixture carries the awkward cases the issue asks for', () => {
  const { pdf, annotations } = everySubtypeFixture();
  const seen = qpdfAnnotations(pdf);
  assert.equal(seen.filter((a) => a.name === undefined).length, 2, 'two without /NM');
  const shared = seen.filter((a) => a.name === 'shared-name');
  assert.equal(shared.length, 2);
  assert.notEqual(shared[0]!.pageIndex, shared[1]!.pageIndex);
  assert.ok(seen.some((a) => a.name === 'notes/first draft'));
  const umlaut = seen.find((a) => a.name === 'Anmerkung-Ä');
  assert.ok(umlaut, 'non-ASCII /NM decoded');
  assert.equal(umlaut.dict['/T'], 'u:Jürgen');
  // The direct dictionary is listed but has no object number.
  const direct = seen.filter((a) => a.objectNumber === undefined);
  assert.deepEqual(direct.map((a) => a.name), annotations.filter((a) => a.direct).map((a) => a.name));
  assert.equal(direct.length, 1);
});

test('@ref and @page placeholders become the right references', () => {
  const { pdf } = everySubtypeFixture();
  const seen = qpdfAnnotations(pdf);
  const byName = (name: string) => seen.find((a) => a.name === name)!;
  const ref = (a: { objectNumber?: number }) => `${a.objectNumber} 0 R`;
  const note = byName('note-1');
  const popup = byName('note-1-popup');
  assert.equal(note.dict['/Popup'], ref(popup));
  assert.equal(popup.dict['/Parent'], ref(note));
  assert.equal(byName('reply-1').dict['/IRT'], ref(note));
  assert.equal(byName('reply-1').dict['/RT'], '/R');
  assert.deepEqual((byName('link-uri').dict['/A'] as Record<string, unknown>)['/URI'], 'u:https://example.com/a b');
  const destLink = seen.find((a) => a.subtype === 'Link' && a.name === undefined)!;
  const pages = withTempFile(pdf, (file) => JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=pages', file], { encoding: 'utf8' })) as { pages: { object: string }[] });
  assert.deepEqual(destLink.dict['/Dest'], [pages.pages[2]!.object, '/Fit']);
});

test('FileAttachment and Widget get their embedded file and form field', () => {
  const { pdf } = everySubtypeFixture();
  // poppler lists file-attachment annotations among the embedded files.
  const listing = withTempFile(pdf, (file) => execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' }));
  assert.match(listing, /^1: report\.txt$/m);
  const saved = withTempFile(pdf, (file) => {
    const out = path.join(path.dirname(file), 'saved');
    execFileSync('pdfdetach', ['-save', '1', '-o', out, file]);
    return readFileSync(out);
  });
  assert.equal(saved.toString('utf8'), 'quarterly numbers\n');
  const form = withTempFile(pdf, (file) => JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=acroform', file], { encoding: 'utf8' })));
  assert.deepEqual(
    form.acroform.fields.map((f: { fullname: string; fieldtype: string; pageposfrom1: number }) => [f.fullname, f.fieldtype, f.pageposfrom1]),
    [['customer_name', '/Tx', 1]],
  );
});

test('strings are escaped: parentheses, backslashes, control characters and non-ASCII survive', () => {
  const tricky = 'a (b) \\c\nd\te ) ( é € 😀';
  const pdf = makeAnnotatedPdf({ pages: 1, annotations: [{ subtype: 'Text', page: 0, name: tricky, rect: [0, 0, 10, 10], contents: tricky, author: 'Zoë (QA)' }] });
  assert.ok(qpdfCheck(pdf).ok);
  const [annotation] = qpdfAnnotations(pdf);
  assert.equal(annotation!.name, tricky);
  assert.equal(annotation!.dict['/Contents'], `u:${tricky}`);
  assert.equal(annotation!.dict['/T'], 'u:Zoë (QA)');
});

test('a rotated, cropped 2-page variant is valid and keeps its boxes', () => {
  const annotations: FixtureAnnotation[] = [
    { subtype: 'FileAttachment', page: 0, name: 'clip', rect: [100.5, 600.25, 120.5, 620.25], file: { name: 'données.bin', data: Buffer.from([0, 1, 2, 255]), mimeType: 'application/octet-stream' } },
    { subtype: 'Widget', page: 1, rect: [72, 72, 200, 96] },
    { subtype: 'Sound', page: 1, rect: [10, 10, 30, 30] },
    { subtype: '3D', page: 1, rect: [100, 100, 300, 300] },
    { subtype: 'Movie', page: 0, rect: [100, 100, 300, 300], direct: true },
    { subtype: 'RichMedia', page: 1, rect: [300, 300, 400, 400] },
  ];
  const pdf = makeAnnotatedPdf({
    pages: 2,
    annotations,
    rotate: () => 90,
    cropBox: () => [36, 36, 576, 756],
    mediaBox: (p) => (p === 1 ? [0, 0, 842, 595] : undefined),
  });
  const check = qpdfCheck(pdf);
  assert.ok(check.ok, check.output);
  const info = withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-f', '1', '-l', '2', '-box', file], { encoding: 'utf8' }));
  assert.match(info, /^Pages:\s+2$/m);
  assert.match(info, /^Page\s+1 rot:\s+90$/m);
  assert.match(info, /^Page\s+2 MediaBox:\s+0\.00\s+0\.00\s+842\.00\s+595\.00$/m);
  assert.match(info, /^Page\s+1 CropBox:\s+36\.00\s+36\.00\s+576\.00\s+756\.00$/m);
  const seen = qpdfAnnotations(pdf);
  assert.deepEqual(countBySubtype(seen), countBySubtype(annotations));
  assert.deepEqual(seen.find((a) => a.name === 'clip')!.rect, [100.5, 600.25, 120.5, 620.25]);
  assert.equal(seen.find((a) => a.subtype === 'Movie')!.objectNumber, undefined);
  assert.match(withTempFile(pdf, (file) => execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })), /1: données\.bin/);
});

test('the writer refuses references it cannot make', () => {
  const rect: [number, number, number, number] = [0, 0, 10, 10];
  assert.throws(() => makeAnnotatedPdf({ pages: 1, annotations: [{ subtype: 'Text', page: 0, rect, direct: true }, { subtype: 'Popup', page: 0, rect, extra: '/Parent @ref(0)' }] }), /@ref\(0\)/);
  assert.throws(() => makeAnnotatedPdf({ pages: 1, annotations: [{ subtype: 'Link', page: 0, rect, extra: '/Dest [@page(1) /Fit]' }] }), /@page\(1\)/);
  assert.throws(() => makeAnnotatedPdf({ pages: 1, annotations: [{ subtype: 'Text', page: 1, rect }] }), /out of range/);
});
