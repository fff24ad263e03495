import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, expectUnchanged, putPdf, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { serverForSuite } from '../helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD } from '../helpers/signing.js';

const server = serverForSuite();

const getMetadata = (doc: string, query = '', headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}/metadata${query}`, { headers: { accept: 'application/json', ...headers } });
const patchMetadata = (doc: string, body: object | string, headers: Record<string, string> = {}) =>
  call(server, 'PATCH', `/documents/${doc}/metadata`, { body: typeof body === 'string' ? Buffer.from(body) : Buffer.from(JSON.stringify(body)), headers: { accept: 'application/json', 'content-type': 'application/merge-patch+json', ...headers } });
const putMetadata = (doc: string, body: object, headers: Record<string, string> = {}) => call(server, 'PUT', `/documents/${doc}/metadata`, { body, headers: { accept: 'application/json', ...headers } });
const putXmp = (doc: string, xmp: string | Buffer, headers: Record<string, string> = {}) =>
  call(server, 'PUT', `/documents/${doc}/metadata/xmp`, { body: Buffer.from(xmp), headers: { accept: 'application/json', 'content-type': 'application/rdf+xml', ...headers } });

/** The XMP packet as poppler reads it from the stored file (pdfinfo -meta). */
function pdfinfoMeta(bytes: Buffer, password?: string): string {
  return withTempFile(bytes, (file) => execFileSync('pdfinfo', ['-meta', ...(password ? ['-upw', password] : []), file], { encoding: 'utf8' }));
}

function assertChecks(bytes: Buffer): void {
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
}

const ok = (reply: Reply) => {
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
};

/** A one-page document with an XMP packet claiming PDF/A-2B, a schema the service does not know and an extension schema description. */
function pdfaLikePdf(): Buffer {
  const xmp = [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old title</rdf:li></rdf:Alt></dc:title>',
    '<dc:creator><rdf:Seq><rdf:li>First Author</rdf:li><rdf:li>Second Author</rdf:li></rdf:Seq></dc:creator></rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:acme="http://example.com/ns/acme/1.0/" acme:project="Apollo &amp; Co"><acme:reviewed>2024-01-02</acme:reviewed></rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="Old producer"/>',
    '</rdf:RDF></x:xmpmeta>',
    `${' '.repeat(500)}`,
    '<?xpacket end="w"?>',
  ].join('\n');
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const content = pdf.stream('', 'BT /F1 24 Tf 72 700 Td (PDF/A-like) Tj ET');
  const page = pdf.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`);
  const metadata = pdf.stream('/Type /Metadata /Subtype /XML', xmp);
  pdf.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R /Metadata ${metadata} 0 R >>`);
  pdf.set(pages, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  const info = pdf.add('<< /Title (Old title) /Author (First Author; Second Author) /Producer (Old producer) /Company (Acme Inc) >>');
  return pdf.finish(`/Root ${catalog} 0 R /Info ${info} 0 R`);
}

describe('reading metadata', () => {
  test('a document without XMP: the Info dictionary in JSON and XML, hasXmp false; GET .../metadata/xmp is 404 XMP_NOT_FOUND', async () => {
    await putPdf(server, 'meta/plain.pdf', makePdf({ title: 'Quarterly report' }));
    const model = ok(await getMetadata('meta/plain.pdf'));
    assert.equal(model.title, 'Quarterly report');
    assert.equal(model.producer, 'pdfservice tests');
    assert.equal(model.hasXmp, false);
    const xml = await getMetadata('meta/plain.pdf', '', { accept: 'application/xml' });
    assert.equal(xml.status, 200);
    assert.match(xml.text, /<Metadata>[^]*<title>Quarterly report<\/title>[^]*<hasXmp>false<\/hasXmp>/);
    const xmp = await call(server, 'GET', '/documents/meta/plain.pdf/metadata/xmp');
    assert.equal(xmp.status, 404, xmp.text);
    assert.equal(xmp.json().code, 'XMP_NOT_FOUND');
  });

  test('custom keys come as an object in JSON and as entries in XML', async () => {
    await putPdf(server, 'meta/custom.pdf', pdfaLikePdf());
    const model = ok(await getMetadata('meta/custom.pdf'));
    assert.deepEqual(model.custom, { Company: 'Acme Inc' });
    assert.equal(model.hasXmp, true);
    const xml = await getMetadata('meta/custom.pdf', '', { accept: 'application/xml' });
    assert.match(xml.text, /<custom>\s*<entry>\s*<key>Company<\/key>\s*<value>Acme Inc<\/value>\s*<\/entry>\s*<\/custom>/);
  });
});

describe('writing metadata', () => {
  test('PATCH with non-ASCII text: pdfinfo reads it from the Info dictionary, pdfinfo -meta from a new XMP packet; qpdf --check passes', async () => {
    const doc = 'meta/unicode.pdf';
    await putPdf(server, doc, makePdf({ title: 'Before' }));
    const title = 'Überprüfung – 東京 Ω';
    const reply = await patchMetadata(doc, { title, author: 'Zoë Brontë', subject: 'Prüfbericht', keywords: 'alpha, βeta', creator: 'Writer', language: 'de-CH', creationDate: '2024-02-29T10:20:30+01:00', custom: { Department: 'Recht & Compliance' } });
    const model = ok(reply);
    assert.ok(reply.headers.get('etag'));
    assert.equal(model.title, title);
    assert.equal(model.author, 'Zoë Brontë');
    assert.equal(model.language, 'de-CH');
    assert.equal(model.creationDate, '2024-02-29T10:20:30+01:00');
    assert.equal(model.hasXmp, true);
    assert.deepEqual(model.custom, { Department: 'Recht & Compliance' });
    // Set to the write's time, as the body did not name it.
    assert.ok(Math.abs(Date.parse(model.modificationDate) - Date.now()) < 10 * 60_000, model.modificationDate);

    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    const info = pdfinfo(bytes);
    assert.equal(info.Title, title);
    assert.equal(info.Author, 'Zoë Brontë');
    assert.equal(info.Subject, 'Prüfbericht');
    assert.equal(info.Keywords, 'alpha, βeta');
    assert.equal(info.Creator, 'Writer');
    assert.equal(info.Producer, 'pdfservice tests');
    const meta = pdfinfoMeta(bytes);
    assert.match(meta, /<x:xmpmeta/);
    assert.match(meta, new RegExp(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li>`));
    assert.match(meta, /<dc:creator><rdf:Seq><rdf:li>Zoë Brontë<\/rdf:li>/);
    assert.match(meta, /<dc:description><rdf:Alt><rdf:li xml:lang="x-default">Prüfbericht<\/rdf:li>/);
    assert.match(meta, /<pdf:Keywords>alpha, βeta<\/pdf:Keywords>/);
    assert.match(meta, /<xmp:CreatorTool>Writer<\/xmp:CreatorTool>/);
    assert.match(meta, /<xmp:CreateDate>2024-02-29T10:20:30\+01:00<\/xmp:CreateDate>/);
    assert.match(meta, /<dc:language><rdf:Bag><rdf:li>de-CH<\/rdf:li>/);
    assert.match(meta, /<pdfx:Department>Recht &amp; Compliance<\/pdfx:Department>/);
    assert.match(meta, /<xmp:ModifyDate>/);
    // The Info dictionary holds the date in PDF form, the same instant.
    assert.match(info.CreationDate!, /Thu Feb 29 (09|10):20:30 2024/);

    // The round trip through GET, and a field removed with null leaves both places.
    assert.equal(ok(await getMetadata(doc)).title, title);
    const removed = ok(await patchMetadata(doc, { title: null, custom: { Department: null } }));
    assert.equal(removed.title, undefined);
    assert.equal(removed.custom, undefined);
    assert.equal(removed.author, 'Zoë Brontë');
    const after = await storedBytes(server, doc);
    assertChecks(after);
    assert.equal(pdfinfo(after).Title, undefined);
    const metaAfter = pdfinfoMeta(after);
    assert.doesNotMatch(metaAfter, /dc:title|pdfx:Department/);
    assert.match(metaAfter, /Zoë Brontë/);
  });

  test('the XMP of a PDF/A document keeps its pdfaid, unknown schemas and other authors after a PATCH; GET .../metadata/xmp answers the packet', async () => {
    const doc = 'meta/pdfa.pdf';
    await putPdf(server, doc, pdfaLikePdf());
    ok(await patchMetadata(doc, { title: 'New title', keywords: 'archive' }));
    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    assert.equal(pdfinfo(bytes).Title, 'New title');
    const meta = pdfinfoMeta(bytes);
    assert.match(meta, /<pdfaid:part>2<\/pdfaid:part><pdfaid:conformance>B<\/pdfaid:conformance>/);
    assert.match(meta, /acme:project="Apollo &amp; Co"/);
    assert.match(meta, /<acme:reviewed>2024-01-02<\/acme:reviewed>/);
    // The authors' rdf:Seq is what the Info dictionary says (unchanged): kept as written.
    assert.match(meta, /<rdf:li>First Author<\/rdf:li><rdf:li>Second Author<\/rdf:li>/);
    assert.match(meta, /<rdf:li xml:lang="x-default">New title<\/rdf:li>/);
    assert.doesNotMatch(meta, /Old title/);
    assert.match(meta, /<pdf:Keywords>archive<\/pdf:Keywords>/);
    assert.match(meta, /<xmp:MetadataDate>/);
    assert.match(meta, /<\?xpacket end="w"\?>/);
    const xmp = await call(server, 'GET', `/documents/${doc}/metadata/xmp`);
    assert.equal(xmp.status, 200, xmp.text);
    assert.match(xmp.headers.get('content-type')!, /^application\/rdf\+xml/);
    assert.equal(xmp.text, meta.replace(/\n$/, xmp.text.endsWith('\n') ? '\n' : ''));
  });

  test('a PDF/A-2b document converted by the service is still PDF/A-2b after a PATCH (veraPDF, through GET .../preflight-results); custom keys stay in the Info dictionary', async () => {
    const doc = 'meta/converted.pdf';
    await putPdf(server, doc, makePdf({ title: 'To archive', text: () => 'Archive me' }));
    const converted = await call(server, 'POST', `/documents/${doc}`, { body: { PDFAConvertAction: { profile: 'pdfa2b' } }, headers: { prefer: 'wait=120' } });
    assert.equal(converted.status, 200, converted.text);
    const model = ok(await patchMetadata(doc, { title: 'Archiviert – Größe ß', author: 'Zoë', subject: 'Ablage', keywords: 'pdf/a, archive', language: 'de', custom: { Ticket: 'T-7' } }));
    assert.deepEqual(model.custom, { Ticket: 'T-7' });
    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    assert.equal(pdfinfo(bytes).Title, 'Archiviert – Größe ß');
    const meta = pdfinfoMeta(bytes);
    assert.match(meta, /<pdfaid:part>2<\/pdfaid:part>/);
    assert.doesNotMatch(meta, /pdfx/, 'no property outside PDF/A\'s schemas');
    const verdict = await call(server, 'GET', `/documents/${doc}/preflight-results?profile=pdfa2b`);
    assert.equal(verdict.status, 200, verdict.text);
    assert.equal(verdict.json().compliant, true, JSON.stringify(verdict.json().rules));
  });

  test('a PDF/A-3 document of the corpus keeps its pdfaid after a PATCH', { skip: corpusFile('pdfbox/pdfa-validation/PDFA3A.pdf') ? false : 'the corpus is absent (PDFSERVICE_CORPUS or ../shared/corpus)' }, async () => {
    const doc = 'meta/corpus-pdfa3.pdf';
    await putPdf(server, doc, readFileSync(corpusFile('pdfbox/pdfa-validation/PDFA3A.pdf')!));
    ok(await patchMetadata(doc, { title: 'Geprüft', author: 'Tilman Hausherr' }));
    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    const meta = pdfinfoMeta(bytes);
    assert.match(meta, /<pdfaid:part>3<\/pdfaid:part><pdfaid:conformance>A<\/pdfaid:conformance>/);
    assert.match(meta, /<xmpMM:DocumentID>uuid:5396204C-CD49-4AF8-9495-BE6ECF7C5F04<\/xmpMM:DocumentID>/);
    assert.match(meta, /<rdf:li xml:lang="x-default">Geprüft<\/rdf:li>/);
    assert.equal(pdfinfo(bytes).Title, 'Geprüft');
  });

  test('PUT replaces everything: what the body does not give is removed from the Info dictionary and the XMP', async () => {
    const doc = 'meta/put.pdf';
    await putPdf(server, doc, pdfaLikePdf());
    const model = ok(await putMetadata(doc, { title: 'Only title', modificationDate: '2025-06-01T12:00:00Z' }));
    // The Info dictionary's date, read back with its zone as a number.
    assert.deepEqual(model, { title: 'Only title', modificationDate: '2025-06-01T12:00:00+00:00', hasXmp: true });
    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    const info = pdfinfo(bytes);
    assert.equal(info.Title, 'Only title');
    assert.equal(info.Author, undefined);
    assert.equal(info.Producer, undefined);
    const meta = pdfinfoMeta(bytes);
    assert.doesNotMatch(meta, /First Author|Old producer|pdf:Producer/);
    assert.match(meta, /<xmp:ModifyDate>2025-06-01T12:00:00Z<\/xmp:ModifyDate>/);
    assert.match(meta, /<pdfaid:part>2<\/pdfaid:part>/);
  });

  test('PUT .../metadata/xmp stores the packet and updates the Info dictionary from it', async () => {
    const doc = 'meta/put-xmp.pdf';
    await putPdf(server, doc, makePdf({ title: 'Before' }));
    const packet = [
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
      '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x2="http://ns.adobe.com/xap/1.0/" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/">',
      '<dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Titre – ça</rdf:li></rdf:Alt></dc:title>',
      '<x2:CreateDate>2020-01-02T03:04:05Z</x2:CreateDate><x2:CreatorTool>Hand</x2:CreatorTool><pdfx:Ticket>T-42</pdfx:Ticket>',
      '</rdf:Description></rdf:RDF></x:xmpmeta>',
    ].join('');
    const model = ok(await putXmp(doc, packet));
    assert.equal(model.title, 'Titre – ça');
    assert.equal(model.creator, 'Hand');
    assert.equal(model.creationDate, '2020-01-02T03:04:05+00:00');
    assert.deepEqual(model.custom, { Ticket: 'T-42' });
    assert.equal(model.producer, undefined);
    const bytes = await storedBytes(server, doc);
    assertChecks(bytes);
    assert.equal(pdfinfo(bytes).Title, 'Titre – ça');
    assert.equal(pdfinfo(bytes).Creator, 'Hand');
    assert.equal(pdfinfoMeta(bytes).trim(), packet);
    const xmp = await call(server, 'GET', `/documents/${doc}/metadata/xmp`);
    assert.equal(xmp.text, packet);
  });

  test('a signed document gets the change appended: the signature still verifies (pdfsig)', async () => {
    const doc = 'meta/signed.pdf';
    await putPdf(server, doc, makeFormPdf());
    const field = `/documents/${doc}/fields/signature-fields/approval`;
    assert.equal((await call(server, 'PUT', field, { body: { widget: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }] } })).status, 201);
    const dir = mkdtempSync(path.join(tmpdir(), 'meta-sign-'));
    try {
      const p12 = path.join(dir, 'key.p12');
      writeFileSync(p12, makeKeyStores().aes);
      const form = new FormData();
      form.set('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD })], { type: 'application/json' }));
      form.set('file', new Blob([readFileSync(p12)], { type: 'application/x-pkcs12' }), 'key.p12');
      const signed = await call(server, 'POST', `${field}/signature`, { body: form });
      assert.equal(signed.status, 200, signed.text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const before = await storedBytes(server, doc);
    ok(await patchMetadata(doc, { title: 'Signed and titled' }));
    const after = await storedBytes(server, doc);
    assert.deepEqual(after.subarray(0, before.length), before, 'the signed revision is kept byte for byte');
    assert.equal(pdfinfo(after).Title, 'Signed and titled');
    const sigs = pdfsig(after).filter((s) => s.validation !== undefined);
    assert.equal(sigs.length, 1, JSON.stringify(sigs));
    assert.equal(sigs[0]!.validation, 'Signature is Valid.');
  });

  test('an encrypted document: without its password 403 and unchanged; with it, written and still encrypted', async () => {
    const doc = 'meta/encrypted.pdf';
    await putPdf(server, doc, encryptPdf(makePdf({ title: 'Secret' }), 'u-pw', 'o-pw', '256'));
    await expectUnchanged(server, doc, () => patchMetadata(doc, { title: 'x' }), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const reply = await getMetadata(doc);
    assert.equal(reply.status, 403, reply.text);
    const model = ok(await patchMetadata(doc, { title: 'Still secret – ü' }, { 'x-service-documentpassword': 'o-pw' }));
    assert.equal(model.title, 'Still secret – ü');
    const bytes = await storedBytes(server, doc);
    assert.equal(pdfinfo(bytes, 'u-pw').Title, 'Still secret – ü');
    assert.match(pdfinfo(bytes, 'u-pw').Encrypted!, /^yes/);
    assert.match(pdfinfoMeta(bytes, 'u-pw'), /Still secret – ü/);
  });

  test('with a user password that does not allow changes: reading works, a write is 403 DOCUMENT_PERMISSION_DENIED and unchanged', async () => {
    const doc = 'meta/locked.pdf';
    await putPdf(server, doc, encryptPdf(makePdf({ title: 'Locked' }), 'u-pw', 'o-pw', '256', ['--modify=none']));
    assert.equal(ok(await getMetadata(doc, '', { 'x-service-documentpassword': 'u-pw' })).title, 'Locked');
    await expectUnchanged(server, doc, () => patchMetadata(doc, { title: 'x' }, { 'x-service-documentpassword': 'u-pw' }), 403, 'DOCUMENT_PERMISSION_DENIED');
  });
});

describe('versions', () => {
  test('the earlier version still has the old metadata (?versionId=)', async () => {
    const doc = 'meta/versions.pdf';
    await putPdf(server, doc, makePdf({ title: 'First title' }));
    ok(await patchMetadata(doc, { title: 'Second title' }));
    const versions = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } });
    assert.equal(versions.status, 200, versions.text);
    const list = versions.json().versions as { id: string }[];
    assert.ok(list.length >= 2);
    const oldest = list[list.length - 1]!.id;
    assert.equal(ok(await getMetadata(doc, `?versionId=${oldest}`)).title, 'First title');
    assert.equal(ok(await getMetadata(doc)).title, 'Second title');
  });
});

describe('bad input: 4xx in the error shape, the stored document byte-for-byte unchanged', () => {
  const doc = 'meta/bad.pdf';
  const cases: [string, () => Promise<Reply>, number, string][] = [
    ['an unknown field', () => patchMetadata(doc, { titel: 'x' }), 400, 'VALIDATION_FAILED'],
    ['a number for a text field', () => patchMetadata(doc, { title: 5 }), 400, 'VALIDATION_FAILED'],
    ['a date without a zone', () => patchMetadata(doc, { creationDate: '2024-01-01T10:00:00' }), 400, 'VALIDATION_FAILED'],
    ['February 30', () => patchMetadata(doc, { creationDate: '2023-02-30T10:00:00Z' }), 400, 'VALIDATION_FAILED'],
    ['a title past 16,000 characters', () => patchMetadata(doc, { title: 'x'.repeat(16_001) }), 400, 'VALIDATION_FAILED'],
    ['a custom key named like a standard one', () => patchMetadata(doc, { custom: { Title: 'x' } }), 400, 'VALIDATION_FAILED'],
    ['a custom key with a space', () => patchMetadata(doc, { custom: { 'Big Key': 'x' } }), 400, 'VALIDATION_FAILED'],
    ['a language that is no tag', () => patchMetadata(doc, { language: 'en GB' }), 400, 'VALIDATION_FAILED'],
    ['null in PUT', () => putMetadata(doc, { title: null }), 400, 'VALIDATION_FAILED'],
    ['malformed JSON', () => patchMetadata(doc, '{"title": '), 400, 'MALFORMED_JSON'],
    ['a stale If-Match', () => patchMetadata(doc, { title: 'x' }, { 'if-match': '"stale"' }), 412, 'PRECONDITION_FAILED'],
    ['a write naming a version', () => call(server, 'PATCH', `/documents/${doc}/metadata?versionId=1`, { body: Buffer.from('{}'), headers: { 'content-type': 'application/merge-patch+json' } }), 400, 'VERSION_READ_ONLY'],
    ['an XMP packet that is not XML', () => putXmp(doc, '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>'), 400, 'MALFORMED_XMP'],
    ['an XMP packet with another root', () => putXmp(doc, '<html><body/></html>'), 400, 'MALFORMED_XMP'],
    ['an x:xmpmeta without rdf:RDF', () => putXmp(doc, '<x:xmpmeta xmlns:x="adobe:ns:meta/"><foo/></x:xmpmeta>'), 400, 'MALFORMED_XMP'],
    ['an XMP packet with a DOCTYPE', () => putXmp(doc, '<!DOCTYPE x [<!ENTITY e "e">]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>'), 400, 'MALFORMED_XMP'],
    ['an HTML entity in an XMP packet', () => putXmp(doc, '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>a&nbsp;b</pdf:Producer></rdf:Description></rdf:RDF>'), 400, 'MALFORMED_XMP'],
    ['an empty XMP packet', () => putXmp(doc, ''), 400, 'MALFORMED_XMP'],
    ['an XML body for PATCH', () => call(server, 'PATCH', `/documents/${doc}/metadata`, { body: Buffer.from('<Metadata><title>x</title></Metadata>'), headers: { 'content-type': 'application/xml' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an XMP packet sent as application/json', () => call(server, 'PUT', `/documents/${doc}/metadata/xmp`, { body: Buffer.from('{}'), headers: { 'content-type': 'application/json' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ];
  for (const [what, request, status, code] of cases) {
    test(what, async () => {
      if (!existsSync(path.join(server.documentsDir, 'meta', 'bad.pdf'))) await putPdf(server, doc, pdfaLikePdf());
      await expectUnchanged(server, doc, request, status, code);
    });
  }

  test('a missing document is 404 DOCUMENT_NOT_FOUND', async () => {
    const reply = await patchMetadata('meta/none.pdf', { title: 'x' });
    assert.equal(reply.status, 404, reply.text);
    assert.equal(reply.json().code, 'DOCUMENT_NOT_FOUND');
  });
});

function corpusFile(name: string): string | undefined {
  const root = process.env.PDFSERVICE_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));
  const file = path.join(root, name);
  return existsSync(file) ? file : undefined;
}
