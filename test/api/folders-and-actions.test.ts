import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { encryptPdf, makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const put = (p: string, body: Buffer) => putPdf(server, p, body);
const stored = (p: string) => storedBytes(server, p);
function form(parts: Record<string, { bytes: Buffer | string; name?: string; type?: string }>): FormData {
  const data = new FormData();
  for (const [field, part] of Object.entries(parts)) {
    const blob = new Blob([part.bytes as BlobPart], { type: part.type ?? 'application/octet-stream' });
    if (part.name !== undefined) data.append(field, blob, part.name);
    else data.append(field, blob);
  }
  return data;
}

describe('folders', () => {
  test('PUT creates a folder and its parents (201), again 200; GET lists it as JSON and XML', async () => {
    const created = await call(server, 'PUT', '/documents/projects/2026/q1');
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), '/pdfservice/v1/documents/projects/2026/q1');
    assert.equal((await call(server, 'PUT', '/documents/projects/2026/q1')).status, 200);
    await put('projects/2026/plan.pdf', makePdf({ pages: 3 }));
    const listing = await call(server, 'GET', '/documents/projects/2026');
    assert.equal(listing.status, 200);
    const model = listing.json();
    assert.equal(model.path, '/projects/2026');
    assert.deepEqual(model.entries.map((e: { name: string; type: string }) => [e.name, e.type]), [['plan.pdf', 'document'], ['q1', 'folder']]);
    assert.equal(model.entries[0].size, (await stored('projects/2026/plan.pdf')).length);
    assert.equal(model.entries[0].pageCount, undefined);

    const detailed = (await call(server, 'GET', '/documents/projects/2026?details=true')).json();
    assert.equal(detailed.entries[0].pageCount, 3);
    assert.equal(detailed.entries[0].encrypted, false);

    const xml = await call(server, 'GET', '/documents/projects/2026', { headers: { accept: 'text/xml' } });
    assert.match(xml.text, /<Folder>[\s\S]*<entries>[\s\S]*<entry>[\s\S]*<name>plan\.pdf<\/name>/);

    const root = (await call(server, 'GET', '/documents')).json();
    assert.ok(root.entries.some((e: { name: string }) => e.name === 'projects'));
  });

  test('details=true reports encrypted documents without a page count', async () => {
    await put('locked/enc.pdf', encryptPdf(makePdf(), 'u', 'o'));
    const listing = (await call(server, 'GET', '/documents/locked?details=true')).json();
    assert.equal(listing.entries[0].encrypted, true);
    assert.equal(listing.entries[0].pageCount, undefined);
  });

  test('DELETE: empty folder 204; non-empty 409 FOLDER_NOT_EMPTY unless recursive=true; missing 404', async () => {
    await call(server, 'PUT', '/documents/trash/empty');
    assert.equal((await call(server, 'DELETE', '/documents/trash/empty')).status, 204);
    await put('trash/full/doc.pdf', makePdf());
    const refused = await call(server, 'DELETE', '/documents/trash/full');
    assert.equal(refused.status, 409);
    assert.equal(refused.json().code, 'FOLDER_NOT_EMPTY');
    assert.equal((await call(server, 'GET', '/documents/trash/full/doc.pdf')).status, 200);
    assert.equal((await call(server, 'DELETE', '/documents/trash/full?recursive=true')).status, 204);
    assert.equal((await call(server, 'GET', '/documents/trash/full')).status, 404);
    assert.equal((await call(server, 'GET', '/documents/trash/full')).json().code, 'FOLDER_NOT_FOUND');
    assert.equal((await call(server, 'DELETE', '/documents/trash/never')).status, 404);
  });
});

describe('upload by form', () => {
  test('namingMode 0 stores under the file name (201 + Location), then 409; 1 overwrites; 2 appends a number', async () => {
    await call(server, 'PUT', '/documents/inbox');
    const first = makePdf({ pages: 1 });
    const r0 = await call(server, 'POST', '/documents/inbox', { body: form({ file: { bytes: first, name: 'scan.pdf', type: 'application/pdf' } }) });
    assert.equal(r0.status, 201, r0.text);
    assert.equal(r0.headers.get('location'), '/pdfservice/v1/documents/inbox/scan.pdf');
    assert.equal(sha256(await stored('inbox/scan.pdf')), sha256(first));

    const second = makePdf({ pages: 2 });
    const conflict = await call(server, 'POST', '/documents/inbox?namingMode=0', { body: form({ file: { bytes: second, name: 'scan.pdf', type: 'application/pdf' } }) });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json().code, 'ALREADY_EXISTS');
    assert.equal(sha256(await stored('inbox/scan.pdf')), sha256(first));

    const overwrite = await call(server, 'POST', '/documents/inbox?namingMode=1', { body: form({ file: { bytes: second, name: 'scan.pdf', type: 'application/pdf' } }) });
    assert.equal(overwrite.status, 201);
    assert.equal(sha256(await stored('inbox/scan.pdf')), sha256(second));

    const unique = await call(server, 'POST', '/documents/inbox?namingMode=2', { body: form({ file: { bytes: first, name: 'scan.pdf', type: 'application/pdf' } }) });
    assert.equal(unique.status, 201);
    const location = unique.headers.get('location') ?? '';
    assert.match(location, /^\/pdfservice\/v1\/documents\/inbox\/scan-\d{6}\.pdf$/);
    assert.equal(sha256(await stored(location.replace('/pdfservice/v1/documents/', ''))), sha256(first));
    assert.equal(sha256(await stored('inbox/scan.pdf')), sha256(second));
  });

  test('bad forms: missing file part, malformed multipart, not multipart, missing folder, not a PDF', async () => {
    await call(server, 'PUT', '/documents/forms');
    const noFile = await call(server, 'POST', '/documents/forms', { body: form({ other: { bytes: makePdf(), name: 'x.pdf' } }) });
    assert.equal(noFile.status, 400);
    assert.equal(noFile.json().code, 'MALFORMED_MULTIPART');
    const broken = await call(server, 'POST', '/documents/forms', {
      body: Buffer.from('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 trunc'),
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    });
    assert.ok(broken.status === 400 || broken.status === 422, broken.text);
    const json = await call(server, 'POST', '/documents/forms', { body: { file: 'x' } });
    assert.equal(json.status, 415);
    const missing = await call(server, 'POST', '/documents/nowhere', { body: form({ file: { bytes: makePdf(), name: 'a.pdf' } }) });
    assert.equal(missing.status, 404);
    const notPdf = await call(server, 'POST', '/documents/forms', { body: form({ file: { bytes: 'plain text', name: 'a.pdf', type: 'application/pdf' } }) });
    assert.equal(notPdf.status, 422);
    assert.deepEqual(await readdir(path.join(server.documentsDir, 'forms')), []);
  });
});

describe('actions', () => {
  test('CopyAction copies (201 + Location); namingMode decides clashes; the source is unchanged', async () => {
    const source = makePdf({ pages: 2 });
    await put('act/source.pdf', source);
    const copy = await call(server, 'POST', '/documents/act/source.pdf', { body: { CopyAction: { savePath: 'act/copies/one.pdf' } } });
    assert.equal(copy.status, 201, copy.text);
    assert.equal(copy.headers.get('location'), '/pdfservice/v1/documents/act/copies/one.pdf');
    assert.equal(copy.json().pageCount, 2);
    assert.equal(sha256(await stored('act/copies/one.pdf')), sha256(source));

    const clash = await call(server, 'POST', '/documents/act/source.pdf', { body: { CopyAction: { savePath: 'act/copies/one.pdf' } } });
    assert.equal(clash.status, 409);
    const again = await call(server, 'POST', '/documents/act/source.pdf', { body: { CopyAction: { savePath: 'act/copies/one.pdf', namingMode: 2 } } });
    assert.equal(again.status, 201);
    assert.notEqual(again.headers.get('location'), copy.headers.get('location'));
    const over = await call(server, 'POST', '/documents/act/source.pdf', { body: { CopyAction: { savePath: 'act/copies/one.pdf', namingMode: 1 } } });
    assert.equal(over.status, 200);
    assert.equal(sha256(await stored('act/source.pdf')), sha256(source));
  });

  test('bodies with zero keys, two keys or an unknown action: 400 INVALID_ACTION naming the known actions', async () => {
    await put('act/b.pdf', makePdf());
    for (const body of [{}, { CopyAction: { savePath: 'x.pdf' }, Other: {} }, { NoSuchAction: {} }, [1, 2]]) {
      const reply = await call(server, 'POST', '/documents/act/b.pdf', { body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      const problem = reply.json();
      assert.equal(problem.code, 'INVALID_ACTION');
      assert.match(problem.detail, /CopyAction/);
      assert.deepEqual(problem.actions, ['CopyAction', 'MoveAction', 'ApplyRedactionsAction', 'FlattenFieldsAction', 'FlattenAnnotationsAction', 'PDFAConvertAction', 'PDFUAConvertAction', 'FacturXAction', 'LinearizeAction', 'OptimizeAction', 'PipelineAction', 'MergeDocumentsAction', 'SanitizeAction']);
    }
    const badParam = await call(server, 'POST', '/documents/act/b.pdf', { body: { CopyAction: { savePath: 5 } } });
    assert.equal(badParam.status, 400);
    const unknownField = await call(server, 'POST', '/documents/act/b.pdf', { body: { CopyAction: { savePath: 'y.pdf', colour: 'red' } } });
    assert.equal(unknownField.status, 400);
    assert.equal(unknownField.json().code, 'VALIDATION_FAILED');
    const hostile = await call(server, 'POST', '/documents/act/b.pdf', { body: { CopyAction: { savePath: '../../etc/passwd.pdf' } } });
    assert.equal(hostile.status, 400);
    assert.equal(hostile.json().code, 'INVALID_PATH');
    const pages = await call(server, 'POST', '/documents/act/b.pdf/pages', { body: { CopyAction: { savePath: 'z.pdf' } } });
    assert.equal(pages.status, 400, 'CopyAction is a document action, not a page action');
  });

  test('If-Match on an action: 412 when stale, and nothing is written', async () => {
    await put('act/c.pdf', makePdf());
    const stale = await call(server, 'POST', '/documents/act/c.pdf', { body: { CopyAction: { savePath: 'act/c2.pdf' } }, headers: { 'if-match': '"stale"' } });
    assert.equal(stale.status, 412);
    assert.equal((await call(server, 'GET', '/documents/act/c2.pdf')).status, 404);
  });

  test('XML action bodies and multipart action bodies (part "pageAction") work like JSON', async () => {
    await put('act/d.pdf', makePdf({ pages: 3 }));
    const xml = await call(server, 'POST', '/documents/act/d.pdf', {
      body: '<CopyAction><savePath>act/from-xml.pdf</savePath><namingMode>0</namingMode></CopyAction>',
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(xml.status, 201, xml.text);
    assert.match(xml.text, /<Document>[\s\S]*<pageCount>3<\/pageCount>/);
    const multipart = await call(server, 'POST', '/documents/act/d.pdf', {
      body: form({ pageAction: { bytes: JSON.stringify({ CopyAction: { savePath: 'act/from-form.pdf' } }), type: 'application/json', name: 'a.json' } }),
    });
    assert.equal(multipart.status, 201, multipart.text);
    const noAction = await call(server, 'POST', '/documents/act/d.pdf', { body: form({ file: { bytes: makePdf(), name: 'x.pdf' } }) });
    assert.equal(noAction.status, 400);
    assert.equal(noAction.json().code, 'MALFORMED_MULTIPART');
    // Both names at once: refused, not one run and the other ignored (Schemathesis found an invalid "action" part
    // accepted beside a valid "pageAction"); the document and its folder are as they were.
    const before = await call(server, 'GET', '/documents/act/d.pdf');
    const both = await call(server, 'POST', '/documents/act/d.pdf', {
      body: form({
        pageAction: { bytes: JSON.stringify({ CopyAction: { savePath: 'act/from-both.pdf' } }), type: 'application/json', name: 'a.json' },
        action: { bytes: JSON.stringify({ OptimizeAction: { profile: { discardUnusedResources: {} } } }), type: 'application/json', name: 'b.json' },
      }),
    });
    assert.equal(both.status, 400, both.text);
    assert.equal(both.json().code, 'MALFORMED_MULTIPART');
    assert.match(both.json().detail, /both a "pageAction" and an "action" part/);
    assert.equal((await call(server, 'GET', '/documents/act/from-both.pdf')).status, 404);
    assert.equal(sha256((await call(server, 'GET', '/documents/act/d.pdf')).bytes), sha256(before.bytes));
  });

  test('XML bodies with a DOCTYPE (XXE, billion laughs) are refused with 400 MALFORMED_XML', async () => {
    await put('act/e.pdf', makePdf());
    const xxe = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><CopyAction><savePath>&x;</savePath></CopyAction>';
    const laughs = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><CopyAction><savePath>&b;</savePath></CopyAction>';
    for (const body of [xxe, laughs, '<CopyAction><savePath>x.pdf</CopyAction>']) {
      const reply = await call(server, 'POST', '/documents/act/e.pdf', { body, headers: { 'content-type': 'application/xml' } });
      assert.equal(reply.status, 400);
      assert.equal(reply.json().code, 'MALFORMED_XML');
      assert.ok(!reply.text.includes('root:'), 'no file content leaks');
    }
  });
});

describe('XML request bodies', () => {
  test('elements nested more than 100 deep: 400 MALFORMED_XML, not 500 (found by the robustness suite)', async () => {
    await put('xml/deep.pdf', makePdf());
    for (const depth of [150, 5000]) {
      const body = `<?xml version="1.0"?><ExtractPagesAction>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}<pageRange>1</pageRange></ExtractPagesAction>`;
      const reply = await call(server, 'POST', '/documents/xml/deep.pdf/pages', { body, headers: { 'content-type': 'application/xml' } });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.json().code, 'MALFORMED_XML');
      assert.match(reply.json().detail, /nested deeper than/);
    }
  });

  test('predefined entities and character references are decoded, values keep their spaces, indentation is ignored', async () => {
    await put('xml/src.pdf', makePdf());
    const reply = await call(server, 'POST', '/documents/xml/src.pdf', {
      body: '<?xml version="1.0"?>\n<CopyAction>\n  <savePath>xml/a&amp;b &#x41;.pdf</savePath>\n  <namingMode>0</namingMode>\n</CopyAction>\n',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().path, '/xml/a&b A.pdf');
  });
});

describe('actions that change nothing', () => {
  test('write nothing in place (200, the same ETag and modified time, the same bytes); with savePath the document is written there as it is', async () => {
    const original = makePdf({ pages: 2 });
    await put('unchanged/plain.pdf', original);
    const before = (await call(server, 'GET', '/documents/unchanged/plain.pdf', { headers: { accept: 'application/json' } })).json();
    // No form, no annotations, no Redact annotation: each of these has nothing to do.
    for (const action of ['FlattenFieldsAction', 'FlattenAnnotationsAction', 'ApplyRedactionsAction']) {
      const reply = await call(server, 'POST', '/documents/unchanged/plain.pdf', { body: { [action]: {} } });
      assert.equal(reply.status, 200, `${action}: ${reply.text}`);
      const model = reply.json();
      assert.equal(model.etag, before.etag, action);
      assert.equal(model.modified, before.modified, `${action}: no new write`);
      assert.equal(model.pageCount, 2, action);
      assert.equal(sha256(await stored('unchanged/plain.pdf')), sha256(original), action);
    }
    const copied = await call(server, 'POST', '/documents/unchanged/plain.pdf', { body: { FlattenFieldsAction: { savePath: 'unchanged/flat.pdf' } } });
    assert.equal(copied.status, 201, copied.text);
    assert.equal(copied.json().pageCount, 2);
    assert.equal(sha256(await stored('unchanged/flat.pdf')), sha256(original));
  });
});
