/**
 * Compare over HTTP (docs/compare.md): the server started here, documents made here, every expected change made by
 * the test and found exactly; the highlight PDF checked with qpdf and pdftotext; bad input answered 4xx with both
 * documents unchanged.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makeManyPagesPdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';
import { countBySubtype, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { comparePdf, FONT_SIZE, LINE_GAP, LINE_TOP, pageLines, type ComparePageSpec } from '../helpers/compare-fixtures.js';

const server = serverForSuite();

const compare = (doc: string, body: object, accept = 'application/json', headers: Record<string, string> = {}) =>
  call(server, 'POST', `/documents/${doc}/compare`, { body, headers: { accept, ...headers } });
const ok = (reply: Reply) => assert.equal(reply.status, 200, reply.text);
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.ok(reply.status === 201 || reply.status === 200, reply.text);
};
const pagesOf = (n: number): ComparePageSpec[] => Array.from({ length: n }, (_, i) => ({ lines: pageLines(i + 1) }));

describe('compare', () => {
  test('an added word is found exactly, and nothing else', async () => {
    const base = pagesOf(4);
    const changed = pagesOf(4);
    // At the end of line 3 of page 2: nothing else on the page moves.
    changed[1]!.lines[3] = `${changed[1]!.lines[3]} inserted`;
    await upload('compare/word-base.pdf', comparePdf(base));
    await upload('compare/word-new.pdf', comparePdf(changed));
    const reply = await compare('compare/word-new.pdf', { with: { filePath: 'compare/word-base.pdf' } });
    ok(reply);
    const report = reply.json();
    assert.deepEqual(report.summary, { unchangedPages: 3, changedPages: 1, movedPages: 0, insertedPages: 0, deletedPages: 0, insertedWords: 1, deletedWords: 0, visualChanges: report.summary.visualChanges });
    assert.equal(report.identical, false);
    const page = report.pages[1];
    assert.equal(page.status, 'changed');
    assert.equal(page.pageIndex, 1);
    assert.equal(page.basePageIndex, 1);
    assert.equal(page.moved, false);
    assert.deepEqual(page.insertedWords.map((w: any) => w.text), ['inserted']);
    assert.deepEqual(page.deletedWords, []);
    // The word's box is on line 3's baseline, right of the line's other words.
    const box = page.insertedWords[0].rectangle;
    const baseline = LINE_TOP - 3 * LINE_GAP;
    assert.ok(box.y <= baseline + FONT_SIZE && box.y + box.height >= baseline, JSON.stringify(box));
    assert.ok(box.x > 300 && box.width > 20 && box.width < 80, JSON.stringify(box));
    // The pixels that differ are the word's, and only there.
    assert.ok(page.visualChanges.length >= 1);
    for (const change of page.visualChanges) {
      const r = change.rectangle;
      assert.ok(r.x >= box.x - 8 && r.x + r.width <= box.x + box.width + 8 && r.y >= box.y - 8 && r.y + r.height <= box.y + box.height + 8, `${JSON.stringify(r)} outside the word ${JSON.stringify(box)}`);
    }
    for (const other of [0, 2, 3]) {
      assert.equal(report.pages[other].status, 'unchanged');
      assert.equal(report.pages[other].similarity, 1);
    }
    assert.equal(report.document.path, 'compare/word-new.pdf');
    assert.equal(report.base.path, 'compare/word-base.pdf');
    assert.equal(report.document.pageCount, 4);
    assert.equal(reply.headers.get('etag')?.startsWith('W/"compare-'), true);
  });

  test('identical documents are identical', async () => {
    await upload('compare/same-a.pdf', comparePdf(pagesOf(3)));
    await upload('compare/same-b.pdf', comparePdf(pagesOf(3)));
    const reply = await compare('compare/same-a.pdf', { with: { filePath: 'compare/same-b.pdf' } });
    ok(reply);
    const report = reply.json();
    assert.equal(report.identical, true);
    assert.equal(report.summary.unchangedPages, 3);
    assert.ok(report.pages.every((p: any) => p.status === 'unchanged' && !p.moved));
  });

  test('a moved page is reported as moved, not deleted and inserted', async () => {
    const base = pagesOf(5);
    // Page 2 (index 1) moved to the end.
    const moved = [base[0]!, base[2]!, base[3]!, base[4]!, base[1]!];
    await upload('compare/move-base.pdf', comparePdf(base));
    await upload('compare/move-new.pdf', comparePdf(moved));
    const reply = await compare('compare/move-new.pdf', { with: { filePath: 'compare/move-base.pdf' } });
    ok(reply);
    const report = reply.json();
    assert.equal(report.summary.movedPages, 1);
    assert.equal(report.summary.insertedPages, 0);
    assert.equal(report.summary.deletedPages, 0);
    assert.equal(report.summary.changedPages, 0);
    assert.equal(report.summary.insertedWords + report.summary.deletedWords + report.summary.visualChanges, 0);
    const movedPages = report.pages.filter((p: any) => p.moved);
    assert.deepEqual(movedPages.map((p: any) => [p.basePageIndex, p.pageIndex]), [[1, 4]]);
    assert.deepEqual(report.pages.map((p: any) => p.basePageIndex), [0, 2, 3, 4, 1]);
  });

  test('inserted and deleted pages are reported as such', async () => {
    const base = pagesOf(4);
    const edited = [base[0]!, { lines: pageLines(90) }, base[1]!, base[3]!];
    await upload('compare/pages-base.pdf', comparePdf(base));
    await upload('compare/pages-new.pdf', comparePdf(edited));
    const report = (await compare('compare/pages-new.pdf', { with: { filePath: 'compare/pages-base.pdf' } })).json();
    assert.equal(report.summary.insertedPages, 1);
    assert.equal(report.summary.deletedPages, 1);
    assert.equal(report.summary.movedPages, 0);
    assert.deepEqual(report.pages.map((p: any) => p.status), ['unchanged', 'inserted', 'unchanged', 'unchanged', 'deleted']);
    assert.equal(report.pages[1].pageIndex, 1);
    assert.equal(report.pages[4].basePageIndex, 2);
  });

  test('a changed image is found by the visual diff, with a box covering it', async () => {
    const box: [number, number, number, number] = [300, 300, 120, 90];
    const base = pagesOf(3);
    base[1] = { lines: pageLines(2), image: { color: [200, 30, 30], box } };
    const changed = pagesOf(3);
    changed[1] = { lines: pageLines(2), image: { color: [30, 30, 200], box } };
    await upload('compare/image-base.pdf', comparePdf(base));
    await upload('compare/image-new.pdf', comparePdf(changed));
    const report = (await compare('compare/image-new.pdf', { with: { filePath: 'compare/image-base.pdf' } })).json();
    assert.equal(report.summary.changedPages, 1);
    assert.equal(report.summary.insertedWords + report.summary.deletedWords, 0);
    const page = report.pages[1];
    assert.equal(page.status, 'changed');
    assert.equal(page.visualChanges.length, 1, JSON.stringify(page.visualChanges));
    const r = page.visualChanges[0].rectangle;
    // Covers the image, and not much more (a grid cell of 4 pixels at 50 dpi is 5.76 points).
    assert.ok(r.x <= box[0] && r.y <= box[1] && r.x + r.width >= box[0] + box[2] && r.y + r.height >= box[1] + box[3], JSON.stringify(r));
    assert.ok(r.width <= box[2] + 12 && r.height <= box[3] + 12, JSON.stringify(r));
    // Without the visual diff the change is not seen: the text is the same.
    const textOnly = (await compare('compare/image-new.pdf', { with: { filePath: 'compare/image-base.pdf' }, visual: false })).json();
    assert.equal(textOnly.pages[1].visualChanges.length, 0);
    assert.equal(textOnly.pages[1].status, 'unchanged');
  });

  test('comparing with an earlier version', async () => {
    const doc = 'compare/versioned.pdf';
    const v1 = pagesOf(3);
    await upload(doc, comparePdf(v1));
    const v2 = pagesOf(3);
    v2[2]!.lines[7] = `${v2[2]!.lines[7]} appended`;
    await upload(doc, comparePdf(v2));
    const versions = (await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } })).json();
    const earlier = versions.versions.find((v: any) => v.id !== versions.current) ?? versions.versions[versions.versions.length - 1];
    assert.ok(earlier, JSON.stringify(versions));
    const reply = await compare(doc, { with: { versionId: earlier.id } });
    ok(reply);
    const report = reply.json();
    assert.equal(report.base.versionId, earlier.id);
    assert.equal(report.summary.insertedWords, 1);
    assert.deepEqual(report.pages[2].insertedWords.map((w: any) => w.text), ['appended']);
    // The other way round (the earlier version compared, the current one as base): the word is deleted.
    const back = (await compare(doc, { versionId: earlier.id, with: { filePath: doc } })).json();
    assert.equal(back.document.versionId, earlier.id);
    assert.equal(back.summary.deletedWords, 1);
    assert.equal(back.summary.insertedWords, 0);
    assert.deepEqual(back.pages[2].deletedWords.map((w: any) => w.text), ['appended']);
  });

  test('the highlight PDF: qpdf --check passes, pdftotext shows the summary, the stored documents are unchanged', async () => {
    const base = pagesOf(3);
    const changed = pagesOf(3);
    changed[0]!.lines[2] = `${changed[0]!.lines[2]} highlighted`;
    changed[2]!.lines[5] = changed[2]!.lines[5]!.replace(' delta', '');
    await upload('compare/pdf-base.pdf', comparePdf(base));
    await upload('compare/pdf-new.pdf', comparePdf(changed));
    const before = [sha256(await storedBytes(server, 'compare/pdf-base.pdf')), sha256(await storedBytes(server, 'compare/pdf-new.pdf'))];
    const reply = await compare('compare/pdf-new.pdf', { with: { filePath: 'compare/pdf-base.pdf' } }, 'application/pdf');
    ok(reply);
    assert.equal(reply.headers.get('content-type'), 'application/pdf');
    const check = qpdfCheck(reply.bytes);
    assert.ok(check.ok, check.output);
    assert.equal(pdfinfo(reply.bytes)['Pages'], '4');
    const text = pdftotext(reply.bytes);
    assert.match(text, /Comparison summary/);
    assert.match(text, /Page 1: inserted words: highlighted/);
    assert.match(text, /Page 3: deleted words: delta/);
    assert.match(text, /Words inserted: 1, deleted: 1/);
    // The document's own pages follow the summary.
    assert.match(text, /Page 1 line 0/);
    const after = [sha256(await storedBytes(server, 'compare/pdf-base.pdf')), sha256(await storedBytes(server, 'compare/pdf-new.pdf'))];
    assert.deepEqual(after, before);
    // As qpdf sees the annotations: a highlight on the first document page (after the summary page), framed regions
    // on the first and third, nothing on the unchanged second.
    const annotations = qpdfAnnotations(reply.bytes);
    assert.deepEqual(countBySubtype(annotations.filter((a) => a.pageIndex === 1)), { Highlight: 1, Square: 1 });
    assert.equal(annotations.filter((a) => a.pageIndex === 2).length, 0);
    assert.deepEqual(countBySubtype(annotations.filter((a) => a.pageIndex === 3)), { Square: 1 });
  });

  test('If-None-Match with the ETag answers 304; another version answers anew', async () => {
    await upload('compare/etag-a.pdf', comparePdf(pagesOf(2)));
    await upload('compare/etag-b.pdf', comparePdf(pagesOf(2)));
    const first = await compare('compare/etag-a.pdf', { with: { filePath: 'compare/etag-b.pdf' } });
    ok(first);
    const etag = first.headers.get('etag')!;
    const again = await compare('compare/etag-a.pdf', { with: { filePath: 'compare/etag-b.pdf' } }, 'application/json', { 'if-none-match': etag });
    assert.equal(again.status, 304);
    const other = await compare('compare/etag-a.pdf', { with: { filePath: 'compare/etag-b.pdf' }, dpi: 40 }, 'application/json', { 'if-none-match': etag });
    assert.equal(other.status, 200);
    const xml = await compare('compare/etag-a.pdf', { with: { filePath: 'compare/etag-b.pdf' } }, 'application/xml');
    ok(xml);
    assert.match(xml.text, /<CompareReport>[\s\S]*<identical>true<\/identical>/);
  });

  test('text: true on an encrypted document that forbids copying text, opened with its user password: 403; text: false compares', async () => {
    await upload('compare/nocopy-base.pdf', comparePdf(pagesOf(2)));
    const changed = pagesOf(2);
    changed[1]!.lines[4] = `${changed[1]!.lines[4]} hidden`;
    const noCopy = encryptPdf(comparePdf(changed), 'user-pw', 'owner-pw', '256', ['--extract=n']);
    await upload('compare/nocopy.pdf', noCopy);
    const before = sha256(await storedBytes(server, 'compare/nocopy.pdf'));
    const asUser = { 'x-service-documentpassword': 'user-pw' };
    // text: false first, so that the refusal after it is made with the version's digests already cached for `view`.
    const visual = await compare('compare/nocopy.pdf', { with: { filePath: 'compare/nocopy-base.pdf' }, text: false }, 'application/json', asUser);
    ok(visual);
    const report = visual.json();
    assert.equal(report.options.text, false);
    assert.equal(report.summary.changedPages, 1);
    assert.equal(report.summary.insertedWords + report.summary.deletedWords, 0);
    assert.equal(report.pages[1].status, 'changed');
    assert.ok(report.pages[1].visualChanges.length >= 1, JSON.stringify(report.pages[1]));
    assert.equal(report.pages[0].status, 'unchanged');
    for (const body of [{ with: { filePath: 'compare/nocopy-base.pdf' } }, { with: { filePath: 'compare/nocopy-base.pdf' }, text: true }]) {
      const refused = await compare('compare/nocopy.pdf', body, 'application/json', asUser);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.json().code, 'DOCUMENT_PERMISSION_DENIED');
    }
    // As the base (its password in `with`): refused the same way.
    const asBase = await compare('compare/nocopy-base.pdf', { with: { filePath: 'compare/nocopy.pdf', password: 'user-pw' } });
    assert.equal(asBase.status, 403, asBase.text);
    assert.equal(asBase.json().code, 'DOCUMENT_PERMISSION_DENIED');
    // The owner password allows everything: the word is found.
    const asOwner = await compare('compare/nocopy.pdf', { with: { filePath: 'compare/nocopy-base.pdf' } }, 'application/json', { 'x-service-documentpassword': 'owner-pw' });
    ok(asOwner);
    assert.deepEqual(asOwner.json().pages[1].insertedWords.map((w: any) => w.text), ['hidden']);
    assert.equal(sha256(await storedBytes(server, 'compare/nocopy.pdf')), before);
  });

  test('bad input: 4xx in the error shape, nothing changed', async () => {
    await upload('compare/bad.pdf', comparePdf(pagesOf(2)));
    const locked = encryptPdf(comparePdf(pagesOf(2)), 'user-pw', 'owner-pw');
    await upload('compare/locked.pdf', locked);
    const before = [sha256(await storedBytes(server, 'compare/bad.pdf')), sha256(await storedBytes(server, 'compare/locked.pdf'))];
    const cases: [object, number, string, string?][] = [
      [{ with: { filePath: 'compare/missing.pdf' } }, 404, 'DOCUMENT_NOT_FOUND'],
      [{ with: { versionId: 'no-such-version' } }, 404, 'VERSION_NOT_FOUND'],
      [{ with: { filePath: 'compare/locked.pdf' } }, 403, 'DOCUMENT_PASSWORD_REQUIRED'],
      [{ with: { filePath: 'compare/locked.pdf', password: 'wrong' } }, 403, 'DOCUMENT_PASSWORD_INVALID'],
      [{ with: { filePath: 'compare/notes.txt' } }, 400, 'INVALID_PATH'],
      [{ with: {} }, 400, 'VALIDATION_FAILED'],
      [{}, 400, 'VALIDATION_FAILED'],
      [{ with: { filePath: 'compare/bad.pdf' }, dpi: 1000 }, 400, 'VALIDATION_FAILED'],
      [{ with: { filePath: 'compare/bad.pdf' }, extra: true }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await compare('compare/bad.pdf', body);
      assert.equal(reply.status, status, `${JSON.stringify(body)}: ${reply.text}`);
      assert.equal(reply.json().code, code, JSON.stringify(body));
    }
    // More pages than compare takes (5,000): refused before any rendering, either side.
    await upload('compare/huge.pdf', makeManyPagesPdf(5001));
    for (const [doc, base] of [['compare/huge.pdf', 'compare/bad.pdf'], ['compare/bad.pdf', 'compare/huge.pdf']] as const) {
      const huge = await compare(doc, { with: { filePath: base } });
      assert.equal(huge.status, 400, huge.text);
      assert.equal(huge.json().code, 'COMPARE_TOO_LARGE');
    }
    const unknownDoc = await compare('compare/nothing-here.pdf', { with: { filePath: 'compare/bad.pdf' } });
    assert.equal(unknownDoc.status, 404);
    assert.equal(unknownDoc.json().code, 'DOCUMENT_NOT_FOUND');
    const xmlBody = await call(server, 'POST', '/documents/compare/bad.pdf/compare', { body: Buffer.from('<Compare/>'), headers: { 'content-type': 'application/xml', accept: 'application/json' } });
    // JSON only: an XML body (which the app's parser reads for other routes) has no `with`.
    assert.equal(xmlBody.status, 400, xmlBody.text);
    assert.equal(xmlBody.json().code, 'VALIDATION_FAILED');
    // The encrypted document as the document posted to, with its password in the header, and as base with its own.
    const withPassword = await compare('compare/locked.pdf', { with: { filePath: 'compare/bad.pdf' } }, 'application/json', { 'x-service-documentpassword': 'user-pw' });
    ok(withPassword);
    assert.equal(withPassword.json().identical, true);
    // Its highlight PDF stays encrypted, with the same password.
    const lockedPdf = await compare('compare/locked.pdf', { with: { filePath: 'compare/bad.pdf' } }, 'application/pdf', { 'x-service-documentpassword': 'user-pw' });
    ok(lockedPdf);
    assert.match(pdfinfo(lockedPdf.bytes, 'user-pw')['Encrypted'] ?? '', /^yes/);
    assert.match(pdftotext(lockedPdf.bytes, 'user-pw'), /No differences\./);
    const asBase = await compare('compare/bad.pdf', { with: { filePath: 'compare/locked.pdf', password: 'user-pw' } });
    ok(asBase);
    assert.equal(asBase.json().identical, true);
    const after = [sha256(await storedBytes(server, 'compare/bad.pdf')), sha256(await storedBytes(server, 'compare/locked.pdf'))];
    assert.deepEqual(after, before);
  });
});
