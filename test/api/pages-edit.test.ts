import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { call, putPdf, sha256, storedBytes, type Reply, expectUnchanged } from '../helpers/http.js';
import { encryptPdf, makePdf, pdftotext, qpdfCheck, serializePdf, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument, pdfTextFromJson, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const pageAction = (doc: string, body: object, headers: Record<string, string> = {}) => call(server, 'POST', `/documents/${doc}/pages`, { body, headers: { accept: 'application/json', ...headers } });

/** Each page's text as poppler extracts it, trimmed (poppler also draws the values of form fields without appearance streams). */
function pageTexts(bytes: Buffer, password?: string): string[] {
  const count = Number(/Pages:\s+(\d+)/.exec(withTempFile(bytes, (f) => execFileSync('pdfinfo', [...(password ? ['-upw', password] : []), f], { encoding: 'utf8' })))![1]);
  return Array.from({ length: count }, (_, i) =>
    withTempFile(bytes, (f) => execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-f', String(i + 1), '-l', String(i + 1), f, '-'], { encoding: 'utf8' })).trim(),
  );
}

const firstLine = (text: string) => text.split('\n')[0]!;

/** Each page's /Rotate and /MediaBox as qpdf reads them. */
function pageGeometry(bytes: Buffer): { rotate: number; width: number; height: number }[] {
  const doc = new QpdfDocument(bytes);
  return doc.pages.map((ref) => {
    const page = doc.resolve(ref) as Record<string, unknown>;
    const box = (doc.get(page, '/MediaBox') as unknown[]).map((n) => Number(doc.resolve(n)));
    return { rotate: Number(doc.get(page, '/Rotate') ?? 0), width: box[2]! - box[0]!, height: box[3]! - box[1]! };
  });
}

const unchanged = (doc: string, request: () => Promise<Reply>, status: number, code: string) => expectUnchanged(server, doc, request, status, code);

const five = () => makePdf({ pages: 5, text: (i) => `Marker ${i + 1}` });

/**
 * Three pages with an outline (one item per page, the third by name), named
 * destinations, a link on page 1 to page 2, and a text field "name" on page 2
 * (a field with a kid widget) and "city" on page 3 (merged field and widget).
 */
function structured(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R /Names << /Dests 10 0 R >> /AcroForm << /Fields [11 0 R 14 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 15 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 15 0 R >> >> /Contents 16 0 R /Annots [13 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 15 0 R >> >> /Contents 17 0 R /Annots [12 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 500] /Resources << /Font << /F1 15 0 R >> >> /Contents 18 0 R /Annots [14 0 R] >>',
    '<< /Type /Outlines /First 7 0 R /Last 9 0 R /Count 3 >>',
    '<< /Title (One) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /Fit] >>',
    '<< /Title (Two) /Parent 6 0 R /Prev 7 0 R /Next 9 0 R /Dest [4 0 R /Fit] >>',
    '<< /Title (Three) /Parent 6 0 R /Prev 8 0 R /Dest (third) >>',
    '<< /Names [(second) [4 0 R /Fit] (third) [5 0 R /Fit]] >>',
    '<< /FT /Tx /T (name) /V (Ada) /Kids [12 0 R] >>',
    '<< /Type /Annot /Subtype /Widget /Parent 11 0 R /Rect [20 20 200 40] /P 4 0 R >>',
    '<< /Type /Annot /Subtype /Link /Rect [20 200 120 220] /Dest [4 0 R /Fit] /P 3 0 R /Border [0 0 0] >>',
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /V (Paris) /Rect [20 20 200 40] /P 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  for (const words of ['Alpha page', 'Beta page', 'Gamma page']) {
    const content = `BT /F1 18 Tf 20 250 Td (${words}) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  return serializePdf(objects, '/Root 1 0 R');
}

/** Titles of the outline's top-level items and the names in the /Dests name tree, per qpdf. */
function navigation(bytes: Buffer): { outline: string[]; dests: string[]; fields: string[] } {
  const doc = new QpdfDocument(bytes);
  const root = doc.catalog();
  const outline: string[] = [];
  const outlines = doc.get(root, '/Outlines') as Record<string, unknown> | null;
  for (let item = outlines ? (doc.get(outlines, '/First') as Record<string, unknown> | null) : null; item; item = doc.get(item, '/Next') as Record<string, unknown> | null) {
    outline.push(pdfTextFromJson(doc.get(item, '/Title') as string));
  }
  const names = doc.get(root, '/Names') as Record<string, unknown> | null;
  const tree = names ? (doc.get(names, '/Dests') as Record<string, unknown> | null) : null;
  const list = tree ? ((doc.get(tree, '/Names') as unknown[] | null) ?? []) : [];
  const dests = list.filter((_, i) => i % 2 === 0).map((n) => pdfTextFromJson(doc.resolve(n) as string));
  const form = doc.get(root, '/AcroForm') as Record<string, unknown> | null;
  const fields = form ? ((doc.get(form, '/Fields') as unknown[] | null) ?? []).map((f) => pdfTextFromJson(doc.get(doc.resolve(f) as Record<string, unknown>, '/T') as string)) : [];
  return { outline, dests, fields };
}

describe('deleting, rotating, moving and extracting pages', () => {
  test('DeletePagesAction removes the pages of the range; what pointed at them goes with them', async () => {
    await putPdf(server, 'pages/delete.pdf', five());
    const reply = await pageAction('pages/delete.pdf', { DeletePagesAction: { pageRange: '2,4-' } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().pageCount, 2);
    const bytes = await storedBytes(server, 'pages/delete.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(pageTexts(bytes), ['Marker 1', 'Marker 3']);

    await putPdf(server, 'pages/delete-nav.pdf', structured());
    assert.equal((await pageAction('pages/delete-nav.pdf', { DeletePagesAction: { pageRange: '2' } })).status, 200);
    const nav = await storedBytes(server, 'pages/delete-nav.pdf');
    assert.ok(qpdfCheck(nav).ok, qpdfCheck(nav).output);
    assert.deepEqual(pageTexts(nav).map(firstLine), ['Alpha page', 'Gamma page']);
    const after = navigation(nav);
    assert.deepEqual(after.outline, ['One', 'Three'], 'the outline item of the deleted page is gone');
    assert.deepEqual(after.dests, ['third'], 'its named destination too');
    assert.deepEqual(after.fields, ['city'], 'and its form field, while the other field stays');
    assert.deepEqual(qpdfAnnotations(nav).map((a) => a.subtype), ['Widget'], 'the link to the deleted page is removed, not left dangling');
  });

  test('what MuPDF\'s page rearrangement drops from the catalog comes back: embedded files, metadata, page labels, viewer preferences', async () => {
    const xmp = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/><?xpacket end="w"?>';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R /PageLabels << /Nums [0 << /S /r >>] >> /ViewerPreferences << /DisplayDocTitle true >> /Lang (en-GB) /Names << /EmbeddedFiles << /Names [(notes.txt) 7 0 R] >> >> >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
      `<< /Type /Metadata /Subtype /XML /Length ${xmp.length} >>\nstream\n${xmp}\nendstream`,
      '<< /Type /Filespec /F (notes.txt) /UF (notes.txt) /EF << /F 8 0 R >> >>',
      '<< /Type /EmbeddedFile /Length 11 >>\nstream\nhello notes\nendstream',
    ];
    await putPdf(server, 'pages/catalog.pdf', serializePdf(objects, '/Root 1 0 R'));
    assert.equal((await pageAction('pages/catalog.pdf', { DeletePagesAction: { pageRange: '2' } })).status, 200);
    assert.equal((await pageAction('pages/catalog.pdf', { MovePagesAction: { pageRange: '2', toIndex: 0 } })).status, 200);
    const bytes = await storedBytes(server, 'pages/catalog.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    const attachment = withTempFile(bytes, (f) => execFileSync('qpdf', ['--show-attachment=notes.txt', f], { encoding: 'utf8' }));
    assert.equal(attachment, 'hello notes');
    const root = new QpdfDocument(bytes).catalog();
    for (const key of ['/Metadata', '/PageLabels', '/ViewerPreferences', '/Lang']) assert.ok(root[key] !== undefined, `${key} is kept`);
  });

  test('RotatePagesAction adds to /Rotate (clockwise, multiples of 90, negative allowed); default: every page', async () => {
    await putPdf(server, 'pages/rotate.pdf', five());
    assert.equal((await pageAction('pages/rotate.pdf', { RotatePagesAction: { pageRange: '1-2', rotation: 90 } })).status, 200);
    assert.equal((await pageAction('pages/rotate.pdf', { RotatePagesAction: { pageRange: '2,5', rotation: -180 } })).status, 200);
    assert.equal((await pageAction('pages/rotate.pdf', { RotatePagesAction: { rotation: 450 } })).status, 200);
    const bytes = await storedBytes(server, 'pages/rotate.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(pageGeometry(bytes).map((p) => p.rotate), [180, 0, 90, 90, 270]);
    assert.deepEqual(pageTexts(bytes), ['Marker 1', 'Marker 2', 'Marker 3', 'Marker 4', 'Marker 5'], 'the content is untouched');
  });

  test('MovePagesAction puts the pages of the range, in range order, at toIndex of the result', async () => {
    await putPdf(server, 'pages/move.pdf', five());
    assert.equal((await pageAction('pages/move.pdf', { MovePagesAction: { pageRange: '5,1', toIndex: 1 } })).status, 200);
    assert.deepEqual(pageTexts(await storedBytes(server, 'pages/move.pdf')), ['Marker 2', 'Marker 5', 'Marker 1', 'Marker 3', 'Marker 4']);
    assert.equal((await pageAction('pages/move.pdf', { MovePagesAction: { pageRange: '1', toIndex: 4 } })).status, 200);
    const bytes = await storedBytes(server, 'pages/move.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(pageTexts(bytes), ['Marker 5', 'Marker 1', 'Marker 3', 'Marker 4', 'Marker 2']);

    // Annotations and fields move with their pages.
    await putPdf(server, 'pages/move-form.pdf', structured());
    assert.equal((await pageAction('pages/move-form.pdf', { MovePagesAction: { pageRange: '3', toIndex: 0 } })).status, 200);
    const moved = await storedBytes(server, 'pages/move-form.pdf');
    assert.deepEqual(pageTexts(moved).map(firstLine), ['Gamma page', 'Alpha page', 'Beta page']);
    const annots = qpdfAnnotations(moved);
    assert.deepEqual(annots.map((a) => [a.pageIndex, a.subtype]), [[0, 'Widget'], [1, 'Link'], [2, 'Widget']]);
    assert.equal(pdfTextFromJson(annots[0]!.dict['/T'] as string), 'city');
    assert.deepEqual(navigation(moved), { outline: ['One', 'Two', 'Three'], dests: ['second', 'third'], fields: ['name', 'city'] }, 'nothing is lost by moving');
  });

  test('ExtractPagesAction writes a new document with the pages in range order, their fields and annotations; the source is unchanged', async () => {
    await putPdf(server, 'pages/source.pdf', structured());
    const before = sha256(await storedBytes(server, 'pages/source.pdf'));
    const reply = await pageAction('pages/source.pdf', { ExtractPagesAction: { pageRange: '3,2', savePath: 'pages/extracted.pdf' } });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.headers.get('location'), '/pdfservice/v1/documents/pages/extracted.pdf');
    assert.equal(sha256(await storedBytes(server, 'pages/source.pdf')), before);
    const bytes = await storedBytes(server, 'pages/extracted.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(pageTexts(bytes).map(firstLine), ['Gamma page', 'Beta page']);
    assert.deepEqual(navigation(bytes).fields.sort(), ['city', 'name']);
    assert.deepEqual(qpdfAnnotations(bytes).map((a) => [a.pageIndex, a.subtype]), [[0, 'Widget'], [1, 'Widget']]);
    // savePath is required.
    await unchanged('pages/source.pdf', () => pageAction('pages/source.pdf', { ExtractPagesAction: { pageRange: '1' } }), 400, 'VALIDATION_FAILED');
  });
});

describe('new pages and inserted pages', () => {
  test('NewPageAction: a blank page the size of the page before it, or of the given size, at pageIndex (default: the end)', async () => {
    await putPdf(server, 'pages/new.pdf', structured());
    assert.equal((await pageAction('pages/new.pdf', { NewPageAction: {} })).status, 200);
    assert.equal((await pageAction('pages/new.pdf', { NewPageAction: { pageIndex: 0, width: 595, height: 842 } })).status, 200);
    assert.equal((await pageAction('pages/new.pdf', { NewPageAction: { pageIndex: 2 } })).status, 200);
    const bytes = await storedBytes(server, 'pages/new.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(pageGeometry(bytes).map((p) => [p.width, p.height]), [[595, 842], [300, 300], [300, 300], [300, 300], [400, 500], [400, 500]]);
    assert.deepEqual(pageTexts(bytes).map(firstLine), ['', 'Alpha page', '', 'Beta page', 'Gamma page', '']);
  });

  test('InsertUploadedPagesAction inserts pages of a stored document with annotations, links between them and fields (a clashing name gets "_2")', async () => {
    await putPdf(server, 'pages/target.pdf', structured());
    await putPdf(server, 'pages/other.pdf', structured());
    const reply = await pageAction('pages/target.pdf', { InsertUploadedPagesAction: { appendFilePath: 'pages/other.pdf', pageRange: '1-2', pageIndex: 1 } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().pageCount, 5);
    const bytes = await storedBytes(server, 'pages/target.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(pageTexts(bytes).map(firstLine), ['Alpha page', 'Alpha page', 'Beta page', 'Beta page', 'Gamma page']);
    // Annotations of the inserted pages, per qpdf: the link on inserted page 1 and the widget on inserted page 2.
    const annots = qpdfAnnotations(bytes);
    assert.deepEqual(annots.map((a) => [a.pageIndex, a.subtype]), [[0, 'Link'], [1, 'Link'], [2, 'Widget'], [3, 'Widget'], [4, 'Widget']]);
    const doc = new QpdfDocument(bytes);
    const insertedLink = annots.find((a) => a.pageIndex === 1)!;
    assert.equal((insertedLink.dict['/Dest'] as string[])[0], doc.pages[2], 'the inserted link points at the inserted copy of its target page');
    for (const a of annots) assert.equal(a.dict['/P'], doc.pages[a.pageIndex], `/P of the annotation on page ${a.pageIndex}`);
    assert.deepEqual(navigation(bytes).fields, ['name', 'city', 'name_2'], 'the inserted "name" field is renamed; "city" of the unused page 3 is not inserted');
    // The merged form still answers field data: both fields with their values.
    const exported = await call(server, 'GET', '/documents/pages/target.pdf/fields/content');
    assert.match(exported.text, /<field name="name_2">\s*<value>Ada<\/value>/);
    assert.match(exported.text, /<field name="name">\s*<value>Ada<\/value>/);
  });

  test('InsertAttachedPagesAction inserts pages of a PDF sent in the multipart request, with its password when it is encrypted', async () => {
    await putPdf(server, 'pages/attached.pdf', five());
    const attached = encryptPdf(makePdf({ pages: 2, text: (i) => `Attached ${i + 1}` }), 'att-user', 'att-owner');
    const send = (action: object, file?: Buffer, type = 'application/pdf', name = 'extra.pdf') => {
      const form = new FormData();
      form.append('pageAction', new Blob([JSON.stringify(action)], { type: 'application/json' }));
      if (file) form.append('file', new Blob([new Uint8Array(file)], { type }), name);
      return call(server, 'POST', '/documents/pages/attached.pdf/pages', { body: form, headers: { accept: 'application/json' } });
    };
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: { pageIndex: 0 } }, attached), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: { appendPassword: 'wrong' } }, attached), 403, 'DOCUMENT_PASSWORD_INVALID');
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: {} }), 400, 'MALFORMED_MULTIPART');
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: {} }, Buffer.from('not a pdf at all'), 'text/plain', 'extra.txt'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    // A part declared text/plain (what a part without a Content-Type is) named .pdf goes by its name (docs/api.md).
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: {} }, Buffer.from('not a pdf at all'), 'text/plain'), 422, 'MALFORMED_PDF');
    await unchanged('pages/attached.pdf', () => send({ InsertAttachedPagesAction: {} }, Buffer.from('%PDF-1.7 garbage')), 422, 'MALFORMED_PDF');
    const reply = await send({ InsertAttachedPagesAction: { appendPassword: 'att-user', pageRange: '2', pageIndex: 5 } }, attached);
    assert.equal(reply.status, 200, reply.text);
    const bytes = await storedBytes(server, 'pages/attached.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(pageTexts(bytes), ['Marker 1', 'Marker 2', 'Marker 3', 'Marker 4', 'Marker 5', 'Attached 2'], 'decrypted: the target is not encrypted');
  });
});

describe('bad input leaves the document unchanged', () => {
  test('page ranges, indexes, rotations, paths and passwords', async () => {
    const doc = 'pages/bad.pdf';
    await putPdf(server, doc, five());
    await putPdf(server, 'pages/locked-source.pdf', encryptPdf(five(), 'src-user', 'src-owner'));
    const cases: [object, number, string][] = [
      [{ DeletePagesAction: { pageRange: '0' } }, 400, 'INVALID_PAGE_RANGE'],
      [{ DeletePagesAction: { pageRange: '3-1' } }, 400, 'INVALID_PAGE_RANGE'],
      [{ DeletePagesAction: { pageRange: 'a' } }, 400, 'INVALID_PAGE_RANGE'],
      [{ DeletePagesAction: { pageRange: '1,,2' } }, 400, 'INVALID_PAGE_RANGE'],
      [{ DeletePagesAction: { pageRange: '2 3' } }, 400, 'INVALID_PAGE_RANGE'],
      [{ DeletePagesAction: { pageRange: '9' } }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ DeletePagesAction: { pageRange: '1-' } }, 400, 'VALIDATION_FAILED'],
      [{ DeletePagesAction: {} }, 400, 'VALIDATION_FAILED'],
      [{ RotatePagesAction: { rotation: 45 } }, 400, 'VALIDATION_FAILED'],
      [{ RotatePagesAction: { rotation: 'left' } }, 400, 'VALIDATION_FAILED'],
      [{ MovePagesAction: { pageRange: '1', toIndex: 5 } }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ MovePagesAction: { pageRange: '1', toIndex: -1 } }, 400, 'VALIDATION_FAILED'],
      [{ NewPageAction: { pageIndex: 6 } }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ NewPageAction: { width: 1 } }, 400, 'VALIDATION_FAILED'],
      [{ NewPageAction: { height: 100000 } }, 400, 'VALIDATION_FAILED'],
      [{ InsertUploadedPagesAction: { appendFilePath: 'pages/none.pdf' } }, 404, 'DOCUMENT_NOT_FOUND'],
      [{ InsertUploadedPagesAction: { appendFilePath: '../../etc/passwd.pdf' } }, 400, 'INVALID_PATH'],
      [{ InsertUploadedPagesAction: { appendFilePath: 'pages/locked-source.pdf' } }, 403, 'DOCUMENT_PASSWORD_REQUIRED'],
      [{ InsertUploadedPagesAction: { appendFilePath: 'pages/locked-source.pdf', appendPassword: 'nope' } }, 403, 'DOCUMENT_PASSWORD_INVALID'],
      [{ InsertUploadedPagesAction: { appendFilePath: 'pages/bad.pdf', pageIndex: 99 } }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ InsertUploadedPagesAction: { appendFilePath: 'pages/bad.pdf', pageRange: '7' } }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ UnknownPageAction: {} }, 400, 'INVALID_ACTION'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await unchanged(doc, () => pageAction(doc, body), status, code);
      assert.ok(reply.json().detail, JSON.stringify(body));
    }
    // The owner password of the source document works.
    const ok = await pageAction(doc, { InsertUploadedPagesAction: { appendFilePath: 'pages/locked-source.pdf', appendPassword: 'src-owner', pageRange: '5' } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(pageTexts(await storedBytes(server, doc)).slice(-2), ['Marker 5', 'Marker 5']);
  });

  test('an empty or blank pageRange is 400, not every page', async () => {
    const doc = 'pages/empty-range.pdf';
    await putPdf(server, doc, five());
    // RotatePagesAction with pageRange "" turned every page before; absent, it still does (its documented default).
    for (const body of [
      { RotatePagesAction: { pageRange: '', rotation: 90 } },
      { RotatePagesAction: { pageRange: '  ', rotation: 90 } },
      { ExtractPagesAction: { pageRange: '', savePath: 'pages/empty-extract.pdf' } },
      { InsertUploadedPagesAction: { appendFilePath: doc, pageRange: '' } },
    ]) {
      const reply = await unchanged(doc, () => pageAction(doc, body), 400, 'VALIDATION_FAILED');
      assert.match(reply.json().detail, /pageRange: must not be empty or blank/, JSON.stringify(body));
    }
    assert.equal((await call(server, 'GET', '/documents/pages/empty-extract.pdf')).status, 404);
  });

  test('with the user password, page operations need assembleDocumentAllowed', async () => {
    const doc = 'pages/locked.pdf';
    const locked = withTempFile(five(), (file) => {
      execFileSync('qpdf', ['--encrypt', 'reader', 'author', '256', '--assemble=n', '--', file, `${file}.out`]);
      return execFileSync('cat', [`${file}.out`]);
    });
    await putPdf(server, doc, locked);
    const refused = await unchanged(doc, () => pageAction(doc, { RotatePagesAction: { rotation: 90 } }, { 'x-service-documentpassword': 'reader' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(refused.json().permission, 'assembleDocumentAllowed');
    const ok = await pageAction(doc, { DeletePagesAction: { pageRange: '1' } }, { 'x-service-documentpassword': 'author' });
    assert.equal(ok.status, 200, ok.text);
    const bytes = await storedBytes(server, doc);
    assert.deepEqual(pageTexts(bytes, 'reader'), ['Marker 2', 'Marker 3', 'Marker 4', 'Marker 5']);
    assert.match(withTempFile(bytes, (f) => execFileSync('qpdf', ['--show-encryption', '--password=author', f], { encoding: 'utf8' })), /R = 6/, 'the document stays encrypted');
    assert.match(pdftotext(bytes, 'reader'), /Marker 2/);
  });
});
