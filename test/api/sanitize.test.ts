import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { corpusDir } from '../../corpus/manifest.js';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { differingShare, encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck, renderPage, serializePdf, withTempFile } from '../helpers/pdf.js';
import { qpdfAnnotations } from '../helpers/qpdf-json.js';
import { layersFixture, sanitizeFixture } from '../helpers/sanitize-fixtures.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const sanitize = (doc: string, params: object = {}, headers: Record<string, string> = {}) => call(server, 'POST', `/documents/${doc}`, { body: { SanitizeAction: params }, headers });
const ok = (reply: Reply) => assert.equal(reply.status, 200, reply.text);
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};

const OUTSIDE = new Set(['/URI', '/Launch', '/GoToR', '/GoToE', '/ImportData', '/SubmitForm']);

/**
 * What qpdf (not the engine under test) finds in a file of each kind SanitizeAction removes: every object and the
 * trailer walked in `qpdf --json`, each finding named by object and key.
 */
function remains(pdf: Buffer | Uint8Array, password?: string): Record<'javascript' | 'embeddedFiles' | 'outsideLinks' | 'formActions' | 'metadata', string[]> {
  const json = withTempFile(pdf, (file) => {
    const run = spawnSync('qpdf', ['--json=2', '--json-key=qpdf', ...(password ? [`--password=${password}`] : []), file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.ok(run.status === 0 || run.status === 3, run.stderr);
    return JSON.parse(run.stdout) as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: unknown } }>] };
  });
  const found = { javascript: [] as string[], embeddedFiles: [] as string[], outsideLinks: [] as string[], formActions: [] as string[], metadata: [] as string[] };
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${where}[${i}]`));
    if (!value || typeof value !== 'object') return;
    const dict = value as Record<string, unknown>;
    const s = dict['/S'];
    if (s === '/JavaScript' || '/JS' in dict || '/XFA' in dict) found.javascript.push(where);
    if (typeof s === 'string' && OUTSIDE.has(s)) found.outsideLinks.push(`${where} ${s}`);
    if (s === '/ResetForm') found.formActions.push(where);
    for (const key of ['/EF', '/RF', '/AF', '/EmbeddedFiles']) if (key in dict) found.embeddedFiles.push(`${where}${key}`);
    if (dict['/Type'] === '/EmbeddedFile' || dict['/Subtype'] === '/FileAttachment') found.embeddedFiles.push(where);
    for (const key of ['/Metadata', '/PieceInfo', '/Info']) if (key in dict) found.metadata.push(`${where}${key}`);
    if (dict['/Type'] === '/Metadata') found.metadata.push(where);
    for (const [k, v] of Object.entries(dict)) walk(v, `${where}${k}`);
  };
  for (const [key, entry] of Object.entries(json.qpdf[1])) walk(entry.stream ? entry.stream.dict : entry.value, key);
  return found;
}

/** The file with its cross-reference table rewritten by qpdf (after an edit that moved offsets). */
const repaired = (pdf: Buffer) => withTempFile(pdf, (file) => spawnSync('qpdf', [file, '-'], { maxBuffer: 1 << 26 }).stdout as Buffer);

const none = { javascript: [], embeddedFiles: [], outsideLinks: [], formActions: [], metadata: [] };

async function stored(doc: string): Promise<Buffer> {
  const bytes = await storedBytes(server, doc);
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  return bytes;
}

/** Every page renders as before (poppler, 72 dpi), annotations drawn: nothing visible was removed. */
function rendersAlike(before: Buffer, after: Buffer, pages: number) {
  for (let p = 1; p <= pages; p++) assert.equal(differingShare(renderPage(before, p), renderPage(after, p)), 0, `page ${p} renders as before`);
}

describe('SanitizeAction', () => {
  test('defaults: JavaScript, embedded files, outside links and form actions removed (qpdf --json finds none), counted; internal links, text, metadata and renders kept', async () => {
    const source = sanitizeFixture();
    // The fixture has what it claims, by qpdf.
    const before = remains(source);
    assert.ok(before.javascript.length >= 7 && before.embeddedFiles.length >= 5 && before.outsideLinks.length === 4 && before.formActions.length === 1 && before.metadata.length >= 3, JSON.stringify(before));
    await upload('san/all.pdf', source);
    const reply = await sanitize('san/all.pdf');
    ok(reply);
    const answer = reply.json();
    assert.deepEqual(answer.report, { removed: { javascript: 7, embeddedFiles: 5, outsideLinks: 4, formActions: 1, metadata: 0, annotations: 0, hiddenContent: 0 }, verified: true });
    const pdf = await stored('san/all.pdf');
    const after = remains(pdf);
    assert.deepEqual({ ...after, metadata: [] }, none, JSON.stringify(after));
    assert.ok(after.metadata.length >= 3, 'metadata is kept by default');
    assert.equal(pdfinfo(pdf)['Title'], 'Secret plans');
    assert.equal(pdftotext(pdf), pdftotext(source), 'the text is unchanged');
    rendersAlike(source, pdf, 2);
    // The internal links stay (page 1's /Dest, page 2's GoTo without its chained script), the outside ones are gone;
    // the form buttons stay without their actions; the sticky note and its popup stay.
    const annots = qpdfAnnotations(pdf).map((a) => `${a.pageIndex}:${a.subtype}`);
    assert.deepEqual(annots.sort(), ['0:Link', '0:Widget', '0:Widget', '1:Link', '1:Popup', '1:Text'], JSON.stringify(annots));
    assert.equal(pdfinfo(pdf)['Pages'], '2');
  });

  test('metadata: true also removes the Info dictionary, the XMP packet and per-object metadata; annotationSubtypes removes sticky notes with their popups', async () => {
    const source = sanitizeFixture();
    await upload('san/meta.pdf', source);
    const reply = await sanitize('san/meta.pdf', { metadata: true, annotationSubtypes: ['Text'] });
    ok(reply);
    assert.deepEqual(reply.json().report.removed, { javascript: 7, embeddedFiles: 5, outsideLinks: 4, formActions: 1, metadata: 3, annotations: 1, hiddenContent: 0 });
    const pdf = await stored('san/meta.pdf');
    assert.deepEqual(remains(pdf), none);
    const info = pdfinfo(pdf);
    assert.equal(info['Title'], undefined, JSON.stringify(info));
    assert.equal(info['Author'], undefined, JSON.stringify(info));
    const meta = withTempFile(pdf, (file) => spawnSync('pdfinfo', ['-meta', file], { encoding: 'utf8' }).stdout);
    assert.doesNotMatch(meta, /Jane Roe|xmpmeta/);
    assert.deepEqual(qpdfAnnotations(pdf).map((a) => a.subtype).filter((s) => s === 'Text' || s === 'Popup'), []);
    assert.equal(pdftotext(pdf), pdftotext(source));
  });

  test('switches off: each kind is kept when its switch is false; only links to outside removed', async () => {
    await upload('san/links.pdf', sanitizeFixture());
    const reply = await sanitize('san/links.pdf', { javascript: false, embeddedFiles: false, formActions: false });
    ok(reply);
    assert.deepEqual(reply.json().report.removed, { javascript: 0, embeddedFiles: 0, outsideLinks: 4, formActions: 0, metadata: 0, annotations: 0, hiddenContent: 0 });
    const after = remains(await stored('san/links.pdf'));
    assert.deepEqual(after.outsideLinks, []);
    assert.ok(after.javascript.length >= 7 && after.embeddedFiles.length >= 5 && after.formActions.length === 1, JSON.stringify(after));
  });

  test('fails closed: a script under a key no standard names stays, so 422 SANITIZE_INCOMPLETE with what remains, and nothing is written', async () => {
    const hidden = Buffer.from(sanitizeFixture().toString('latin1').replace('/Type /Catalog', '/Type /Catalog /Private << /S /JavaScript /JS (x) >>'), 'latin1');
    await upload('san/hidden.pdf', repaired(hidden));
    const reply = await expectUnchanged(server, 'san/hidden.pdf', () => sanitize('san/hidden.pdf'), 422, 'SANITIZE_INCOMPLETE');
    assert.ok(reply.json().remaining.javascript >= 1, reply.text);
  });

  test('an unreferenced script object alone: the full rewrite drops it; qpdf finds none', async () => {
    const orphan = serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>', '<< /S /JavaScript /JS (app.alert\\(1\\)) >>'], '/Root 1 0 R');
    assert.equal(remains(orphan).javascript.length, 1);
    await upload('san/orphan.pdf', orphan);
    ok(await sanitize('san/orphan.pdf'));
    assert.deepEqual(remains(await stored('san/orphan.pdf')).javascript, []);
  });

  test('made by the service\'s own writers (docs/sanitize.md\'s example): a bookmark linking outside becomes a heading, metadata of PATCH .../metadata goes', async () => {
    await upload('san/svc.pdf', makePdf({ text: () => 'Price list' }));
    ok(await call(server, 'PUT', '/documents/san/svc.pdf/outline', { body: { items: [{ title: 'Order online', uri: 'https://example.com/order' }, { title: 'Prices', destination: { pageIndex: 0 } }] } }));
    ok(await call(server, 'PATCH', '/documents/san/svc.pdf/metadata', { body: JSON.stringify({ author: 'Sales team' }), headers: { 'content-type': 'application/merge-patch+json' } }));
    const source = await storedBytes(server, 'san/svc.pdf');
    assert.equal(remains(source).outsideLinks.length, 1);
    const reply = await sanitize('san/svc.pdf', { metadata: true, savePath: 'san/public.pdf' });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(reply.json().report.removed, { javascript: 0, embeddedFiles: 0, outsideLinks: 1, formActions: 0, metadata: 2, annotations: 0, hiddenContent: 0 });
    const pdf = await stored('san/public.pdf');
    assert.deepEqual(remains(pdf), none);
    assert.equal(pdfinfo(pdf)['Author'], undefined);
    assert.equal(pdftotext(pdf), pdftotext(source));
    rendersAlike(source, pdf, 1);
    // Both bookmarks stay (pdfinfo's outline dump is not there: qpdf's JSON), the first leading nowhere.
    const outline = withTempFile(pdf, (file) => JSON.parse(spawnSync('qpdf', ['--json=2', '--json-key=outlines', file], { encoding: 'utf8' }).stdout) as { outlines: { title: string; dest: unknown }[] });
    assert.deepEqual(outline.outlines.map((o) => o.title), ['Order online', 'Prices']);
    // The source is left as it was (savePath).
    assert.equal(sha256(await storedBytes(server, 'san/svc.pdf')), sha256(source));
  });

  test('hiddenContent: the layers OFF by default lose their content (page, form XObject, membership dictionary, annotation); the visible text and the render stay', async () => {
    const source = layersFixture();
    await upload('san/layers.pdf', source);
    // Off by default: nothing to do.
    assert.equal((await sanitize('san/layers.pdf')).json().report.removed.hiddenContent, 0);
    const reply = await sanitize('san/layers.pdf', { hiddenContent: true });
    ok(reply);
    assert.deepEqual(reply.json().report.removed, { javascript: 0, embeddedFiles: 0, outsideLinks: 0, formActions: 0, metadata: 0, annotations: 0, hiddenContent: 4 });
    const pdf = await stored('san/layers.pdf');
    // Every stream decompressed by qpdf: no trace of the hidden layer's text, in content or annotation.
    const plain = withTempFile(pdf, (file) => spawnSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { maxBuffer: 1 << 26 }).stdout as Buffer).toString('latin1');
    assert.ok(plain.includes('Visible body text') && plain.includes('Shown layer text') && plain.includes('Form visible text'), 'the shown content stays');
    assert.doesNotMatch(plain, /Secret/);
    const text = pdftotext(pdf);
    for (const line of ['Visible body text', 'Shown layer text', 'Form visible text']) assert.match(text, new RegExp(line));
    rendersAlike(source, pdf, 1);
  });

  test('nothing to remove: 200, nothing written (same ETag, same bytes), zero counts', async () => {
    const original = makePdf({ pages: 2 });
    await upload('san/plain.pdf', original);
    const etag = (await call(server, 'GET', '/documents/san/plain.pdf', { headers: { accept: 'application/json' } })).json().etag;
    const reply = await sanitize('san/plain.pdf');
    ok(reply);
    assert.equal(reply.json().etag, etag);
    assert.deepEqual(reply.json().report.removed, { javascript: 0, embeddedFiles: 0, outsideLinks: 0, formActions: 0, metadata: 0, annotations: 0, hiddenContent: 0 });
    assert.equal(sha256(await storedBytes(server, 'san/plain.pdf')), sha256(original));
  });

  test('earlier versions are purged (they hold the scripts and files), unless keepVersions', async () => {
    await upload('san/v.pdf', makePdf());
    assert.equal((await putPdf(server, 'san/v.pdf', sanitizeFixture())).status, 200);
    const purged = await sanitize('san/v.pdf');
    ok(purged);
    assert.ok(purged.json().versionsPurged >= 1, purged.text);
    // The one version left is the sanitized write, and its bytes hold no script.
    const list = (await call(server, 'GET', '/documents/san/v.pdf/versions')).json() as { versions: { id: string; operation: string }[] };
    assert.deepEqual(list.versions.map((v) => v.operation), ['SanitizeAction']);
    const only = await call(server, 'GET', `/documents/san/v.pdf?versionId=${list.versions[0]!.id}`);
    assert.equal(only.status, 200);
    assert.deepEqual(remains(only.bytes).javascript, []);
    await upload('san/k.pdf', sanitizeFixture());
    const kept = await sanitize('san/k.pdf', { keepVersions: true });
    ok(kept);
    assert.equal(kept.json().versionsPurged, undefined);
    const keptList = (await call(server, 'GET', '/documents/san/k.pdf/versions')).json() as { versions: { operation: string }[] };
    assert.deepEqual(keptList.versions.map((v) => v.operation), ['SanitizeAction', 'upload']);
  });

  test('encrypted document: sanitized with its password, stays encrypted, qpdf finds nothing', async () => {
    await upload('san/enc.pdf', encryptPdf(sanitizeFixture(), 'user-pw', 'owner-pw'));
    const reply = await sanitize('san/enc.pdf', {}, { 'X-Service-DocumentPassword': 'owner-pw' });
    ok(reply);
    const pdf = await storedBytes(server, 'san/enc.pdf');
    const check = withTempFile(pdf, (file) => spawnSync('qpdf', ['--check', '--password=owner-pw', file], { encoding: 'utf8' }));
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.equal(pdfinfo(pdf, 'user-pw')['Encrypted']?.startsWith('yes'), true);
    assert.deepEqual({ ...remains(pdf, 'owner-pw'), metadata: [] }, none);
  });

  test('bad input: a signed document 409 DOCUMENT_SIGNED, an unknown subtype or Widget 400, unchanged', async () => {
    // A signed document with nothing to remove is answered unchanged; one with a script is refused, as a rewrite breaks the signature.
    await upload('san/signed-plain.pdf', signedFieldPdf());
    ok(await sanitize('san/signed-plain.pdf'));
    const signedWithScript = Buffer.from(signedFieldPdf().toString('latin1').replace('/Type /Catalog', '/Type /Catalog /OpenAction << /S /JavaScript /JS (1) >>'), 'latin1');
    await upload('san/signed.pdf', repaired(signedWithScript));
    await expectUnchanged(server, 'san/signed.pdf', () => sanitize('san/signed.pdf'), 409, 'DOCUMENT_SIGNED');
    await upload('san/bad.pdf', sanitizeFixture());
    await expectUnchanged(server, 'san/bad.pdf', () => sanitize('san/bad.pdf', { annotationSubtypes: ['Widget'] }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'san/bad.pdf', () => sanitize('san/bad.pdf', { javascript: 'yes' }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'san/bad.pdf', () => sanitize('san/bad.pdf', { colour: 'red' }), 400, 'VALIDATION_FAILED');
  });

  test('corpus forms and annotations (pdf.js, pdf-lib): every document written is clean by qpdf --json, passes qpdf --check where its source did, and keeps its text', { skip: corpusDir() ? false : 'no corpus at PDFSERVICE_CORPUS or ../shared/corpus' }, async (t) => {
    const folders = ['pdfjs/forms', 'pdfjs/annotations', 'pdf-lib/forms'].map((f) => path.join(corpusDir()!, f));
    const files = folders.flatMap((folder) => readdirSync(folder).filter((n) => n.endsWith('.pdf')).map((n) => path.join(folder, n))).filter((f) => statSync(f).size < 2_000_000);
    const outcomes: Record<string, number> = {};
    let removed = 0;
    for (const [i, file] of files.entries()) {
      const source = readFileSync(file);
      const doc = `san/corpus/${i}.pdf`;
      if ((await putPdf(server, doc, source)).status !== 201) continue;
      const reply = await sanitize(doc, { metadata: true });
      outcomes[reply.status] = (outcomes[reply.status] ?? 0) + 1;
      if (reply.status !== 200) {
        // Refusals are the signed-document rule only, and leave the document as it was.
        assert.equal(reply.json().code, 'DOCUMENT_SIGNED', `${file}: ${reply.text}`);
        assert.equal(sha256(await storedBytes(server, doc)), sha256(source));
        continue;
      }
      const pdf = await storedBytes(server, doc);
      const counts = reply.json().report.removed as Record<string, number>;
      removed += Object.values(counts).reduce((a, b) => a + b, 0);
      assert.deepEqual(remains(pdf), none, file);
      if (qpdfCheck(source).ok) assert.ok(qpdfCheck(pdf).ok, `${file}: ${qpdfCheck(pdf).output}`);
      assert.equal(pdftotext(pdf), pdftotext(source), `${file}: the text is unchanged`);
    }
    t.diagnostic(`${files.length} files: ${JSON.stringify(outcomes)} by status, ${removed} entries removed`);
    assert.ok((outcomes['200'] ?? 0) >= 20 && removed > 0, JSON.stringify({ outcomes, removed }));
  });
});
