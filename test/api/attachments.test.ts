import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { everySubtypeFixture, makeAnnotatedPdf } from '../helpers/annotated-pdf.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { makePdf, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { qpdfAnnotations } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const put = (p: string, body: Buffer) => putPdf(server, p, body);
const stored = (p: string) => storedBytes(server, p);

function form(parts: { annotation?: string | object; file?: { bytes: Buffer; name?: string; type?: string }; fileDisposition?: string | object }): FormData {
  const data = new FormData();
  if (parts.annotation !== undefined) data.append('annotation', typeof parts.annotation === 'string' ? parts.annotation : JSON.stringify(parts.annotation));
  if (parts.file) data.append('file', new Blob([parts.file.bytes as BlobPart], { type: parts.file.type ?? 'application/octet-stream' }), parts.file.name ?? 'upload.bin');
  if (parts.fileDisposition !== undefined) data.append('fileDisposition', typeof parts.fileDisposition === 'string' ? parts.fileDisposition : JSON.stringify(parts.fileDisposition));
  return data;
}
const attach = (doc: string, parts: Parameters<typeof form>[0], headers: Record<string, string> = {}) => call(server, 'POST', `/documents/${doc}/annotations`, { body: form(parts), headers });

function pdfdetachList(bytes: Buffer): string[] {
  return withTempFile(bytes, (f) => execFileSync('pdfdetach', ['-list', f], { encoding: 'utf8' })).split('\n').slice(1).filter(Boolean).map((l) => l.replace(/^\d+: /, ''));
}

describe('adding file attachments (A4) and reading them (A10, A11)', () => {
  const files = [
    { label: '0 bytes', bytes: Buffer.alloc(0), name: 'empty.txt', type: 'text/plain' },
    { label: '1 byte', bytes: Buffer.from('x'), name: 'one.txt', type: 'text/plain' },
    { label: '5 MB binary', bytes: randomBytes(5 * 1024 * 1024), name: 'blob.bin', type: 'application/octet-stream' },
    { label: 'UTF-8 name', bytes: Buffer.from('a;b\n1;2\n'), name: 'Übersicht 2026 – données.csv', type: 'text/csv' },
  ];
  before(async () => {
    await put('att/doc.pdf', makePdf({ pages: 2 }));
  });

  for (const f of files) {
    test(`${f.label}: stored, described, downloaded byte-identical, listed by pdfdetach`, async () => {
      const added = await attach('att/doc.pdf', {
        annotation: { subtype: 'fileattachment', pageIndex: 1, contents: `About ${f.name}`, author: 'Tester', icon: 'Paperclip', color: '#00AA00' },
        file: { bytes: f.bytes, name: 'ignored-part-name.bin', type: f.type },
        fileDisposition: { fileName: f.name, description: `The ${f.label} file`, mediaType: f.type, creationDate: '2026-03-01T10:00:00Z', modificationDate: '2026-03-02T11:30:00Z' },
      });
      assert.equal(added.status, 201, added.text);
      const model = added.json();
      assert.equal(model.subtype, 'FileAttachment');
      assert.equal(model.pageIndex, 1);
      assert.equal(model.fileName, f.name);
      assert.equal(model.icon, 'Paperclip');
      assert.equal(model.color, '#00AA00');
      assert.equal(added.headers.get('location'), `/pdfservice/v1/documents/att/doc.pdf/annotations/${encodeURIComponent(model.name)}`);

      const info = await call(server, 'GET', `/documents/att/doc.pdf/annotations/${encodeURIComponent(model.name)}/attachment`);
      assert.equal(info.status, 200);
      assert.deepEqual(info.json(), {
        annotation: model.name, fileName: f.name, description: `The ${f.label} file`, mediaType: f.type, size: f.bytes.length,
        creationDate: '2026-03-01T10:00:00Z', modificationDate: '2026-03-02T11:30:00Z',
        checksum: createHash('md5').update(f.bytes).digest('hex'),
      });
      const content = await call(server, 'GET', `/documents/att/doc.pdf/annotations/${encodeURIComponent(model.name)}/attachment/content`);
      assert.equal(content.status, 200);
      assert.equal(content.headers.get('content-type')?.split(';')[0], f.type);
      assert.equal(sha256(content.bytes), sha256(f.bytes));
      assert.match(content.headers.get('content-security-policy') ?? '', /sandbox/);

      const bytes = await stored('att/doc.pdf');
      assert.ok(qpdfCheck(bytes).ok);
      assert.ok(pdfdetachList(bytes).includes(f.name), `pdfdetach lists ${f.name}`);
      assert.ok(qpdfAnnotations(bytes).some((a) => a.name === model.name && a.subtype === 'FileAttachment'));
    });
  }

  test('a Content-Disposition-style fileDisposition, ?attachment=true, Accept, and XML', async () => {
    const added = await attach('att/doc.pdf', {
      annotation: { subtype: 'FileAttachment', name: 'cd-style' },
      file: { bytes: Buffer.from('hello'), name: 'part.txt', type: 'text/plain' },
      fileDisposition: `attachment; filename="fallback.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe.txt`,
    });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.json().name, 'cd-style');
    assert.equal(added.json().fileName, 'Grüße.txt');
    const download = await call(server, 'GET', '/documents/att/doc.pdf/annotations/cd-style/attachment/content?attachment=true', { headers: { accept: 'text/plain' } });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="Gr__e.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe.txt`);
    const wrongAccept = await call(server, 'GET', '/documents/att/doc.pdf/annotations/cd-style/attachment/content', { headers: { accept: 'image/png' } });
    assert.equal(wrongAccept.status, 406);
    const xml = await call(server, 'GET', '/documents/att/doc.pdf/annotations/cd-style/attachment', { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<Attachment>[\s\S]*<fileName>Grüße\.txt<\/fileName>[\s\S]*<size>5<\/size>/);
    const duplicate = await attach('att/doc.pdf', { annotation: { subtype: 'FileAttachment', name: 'cd-style' }, file: { bytes: Buffer.from('x') } });
    assert.equal(duplicate.status, 409);
  });

  test('A10 on an annotation of another subtype is 409 NOT_A_FILE_ATTACHMENT; an unknown name 404', async () => {
    await put('att/fixture.pdf', everySubtypeFixture().pdf);
    const notFile = await call(server, 'GET', '/documents/att/fixture.pdf/annotations/ink-1/attachment');
    assert.equal(notFile.status, 409);
    assert.equal(notFile.json().code, 'NOT_A_FILE_ATTACHMENT');
    assert.equal((await call(server, 'GET', '/documents/att/fixture.pdf/annotations/nope/attachment/content')).status, 404);
    // An attachment the document came with (written by hand, not by us) reads too.
    const existing = await call(server, 'GET', '/documents/att/fixture.pdf/annotations/attachment-1/attachment/content');
    assert.equal(existing.status, 200);
    assert.ok(existing.bytes.length > 0);
  });
});

describe('attachments the service did not write', () => {
  const fileless = [
    { name: 'no-fs', extra: '/FS null', why: 'no /FS' },
    { name: 'external', extra: '/FS << /Type /Filespec /F (report.txt) >>', why: 'a file specification without /EF (an external file)' },
    { name: 'string-fs', extra: '/FS (report.txt)', why: 'a file name string' },
  ];
  before(async () => {
    await put('att/odd.pdf', makeAnnotatedPdf({
      pages: 1,
      annotations: [
        { subtype: 'FileAttachment', page: 0, name: 'snowman', rect: [10, 10, 30, 30], file: { name: 'odd.txt', data: 'odd media type\n', mimeType: 'text/plain\u2603' } },
        { subtype: 'FileAttachment', page: 0, name: 'latin', rect: [40, 10, 60, 30], file: { name: 'latin.txt', data: 'latin media type\n', mimeType: 'text/pl\u00e4in' } },
        ...fileless.map((f, i) => ({ subtype: 'FileAttachment', page: 0, name: f.name, rect: [70 + 30 * i, 10, 90 + 30 * i, 30] as [number, number, number, number], extra: f.extra })),
      ],
    }));
  });

  for (const name of ['snowman', 'latin']) {
    test(`a media type that is not a valid token (${name}) is served as application/octet-stream, the bytes as stored`, async () => {
      const download = await call(server, 'GET', `/documents/att/odd.pdf/annotations/${name}/attachment/content`);
      assert.equal(download.status, 200, download.text);
      assert.equal(download.headers.get('content-type'), 'application/octet-stream');
      assert.equal(download.text, `${name === 'latin' ? 'latin' : 'odd'} media type\n`);
      const info = await call(server, 'GET', `/documents/att/odd.pdf/annotations/${name}/attachment`);
      assert.equal(info.json().mediaType, 'application/octet-stream');
    });
  }

  for (const f of fileless) {
    test(`a FileAttachment with ${f.why}: 404 ATTACHMENT_NOT_FOUND for the attachment and its content, the annotation still listed`, async () => {
      for (const suffix of ['attachment', 'attachment/content']) {
        const reply = await call(server, 'GET', `/documents/att/odd.pdf/annotations/${f.name}/${suffix}`);
        assert.equal(reply.status, 404, reply.text);
        assert.equal(reply.json().code, 'ATTACHMENT_NOT_FOUND');
        assert.match(reply.json().detail, new RegExp(f.name));
      }
      const annotation = await call(server, 'GET', `/documents/att/odd.pdf/annotations/${f.name}`);
      assert.equal(annotation.status, 200);
      assert.equal(annotation.json().subtype, 'FileAttachment');
    });
  }

  test('the XFDF export of such attachments is well-formed and names a valid media type only', async () => {
    const xfdf = await call(server, 'GET', '/documents/att/odd.pdf/annotations/content');
    assert.equal(xfdf.status, 200, xfdf.text);
    assert.doesNotMatch(xfdf.text, /mimetype="text\/pl/);
    assert.match(xfdf.text, /name="no-fs"/);
  });
});

describe('default placement: the upper left corner of the page as shown', () => {
  // Crop box [50 60 550 760]; as shown, the upper left corner is a different PDF corner for each rotation.
  const crop: [number, number, number, number] = [50, 60, 550, 760];
  const cases: [number, [number, number]][] = [
    [0, [50, 760]],
    [90, [50, 60]],
    [180, [550, 60]],
    [270, [550, 760]],
  ];
  for (const [rotation, corner] of cases) {
    test(`page rotated ${rotation}: near PDF corner (${corner.join(', ')}), inside the crop box, upright (NoRotate)`, async () => {
      const doc = `att/rot-${rotation}.pdf`;
      await put(doc, makeAnnotatedPdf({ pages: 1, annotations: [], rotate: () => rotation, cropBox: () => crop }));
      const added = await attach(doc, { annotation: { subtype: 'FileAttachment' }, file: { bytes: Buffer.from('x'), name: 'x.txt' } });
      assert.equal(added.status, 201, added.text);
      const { rectangle, flags } = added.json();
      const cx = rectangle.x + rectangle.width / 2;
      const cy = rectangle.y + rectangle.height / 2;
      assert.ok(Math.hypot(cx - corner[0], cy - corner[1]) < 40, `icon centre (${cx}, ${cy}) is near (${corner.join(', ')})`);
      assert.ok(rectangle.x >= crop[0] && rectangle.y >= crop[1] && rectangle.x + rectangle.width <= crop[2] && rectangle.y + rectangle.height <= crop[3]);
      assert.ok(flags.includes('noRotate'));
    });
  }
});

describe('bad input changes nothing', () => {
  const cases: [string, () => RequestInit & { headers?: Record<string, string> }, number, string][] = [
    ['not multipart', () => ({ body: JSON.stringify({ subtype: 'FileAttachment' }), headers: { 'content-type': 'application/json' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['malformed multipart', () => ({ body: '--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc', headers: { 'content-type': 'multipart/form-data; boundary=B' } }), 400, 'MALFORMED_MULTIPART'],
    ['missing file part', () => ({ body: form({ annotation: { subtype: 'FileAttachment' } }) }), 400, 'MALFORMED_MULTIPART'],
    ['missing annotation part', () => ({ body: form({ file: { bytes: Buffer.from('x') } }) }), 400, 'MALFORMED_MULTIPART'],
    ['annotation part not JSON', () => ({ body: form({ annotation: 'subtype=FileAttachment', file: { bytes: Buffer.from('x') } }) }), 400, 'MALFORMED_JSON'],
    ['another subtype', () => ({ body: form({ annotation: { subtype: 'Text' }, file: { bytes: Buffer.from('x') } }) }), 400, 'UNSUPPORTED_SUBTYPE'],
    ['no subtype', () => ({ body: form({ annotation: { pageIndex: 0 }, file: { bytes: Buffer.from('x') } }) }), 400, 'VALIDATION_FAILED'],
    ['negative size', () => ({ body: form({ annotation: { subtype: 'FileAttachment', rectangle: { x: 10, y: 10, width: -5, height: 10 } }, file: { bytes: Buffer.from('x') } }) }), 400, 'VALIDATION_FAILED'],
    ['NaN coordinate', () => ({ body: form({ annotation: '{"subtype":"FileAttachment","rectangle":{"x":"NaN","y":1,"width":2,"height":3}}', file: { bytes: Buffer.from('x') } }) }), 400, 'VALIDATION_FAILED'],
    ['page out of range', () => ({ body: form({ annotation: { subtype: 'FileAttachment', pageIndex: 7 }, file: { bytes: Buffer.from('x') } }) }), 400, 'PAGE_OUT_OF_RANGE'],
    ['unknown icon', () => ({ body: form({ annotation: { subtype: 'FileAttachment', icon: 'Skull' }, file: { bytes: Buffer.from('x') } }) }), 400, 'VALIDATION_FAILED'],
    ['fileDisposition JSON broken', () => ({ body: form({ annotation: { subtype: 'FileAttachment' }, file: { bytes: Buffer.from('x') }, fileDisposition: '{"fileName":' }) }), 400, 'MALFORMED_JSON'],
    ['bad date', () => ({ body: form({ annotation: { subtype: 'FileAttachment' }, file: { bytes: Buffer.from('x') }, fileDisposition: { creationDate: 'yesterday' } }) }), 400, 'VALIDATION_FAILED'],
  ];
  for (const [label, request, status, code] of cases) {
    test(`${label}: ${status} ${code}`, async () => {
      await put('att/unchanged.pdf', makePdf({ pages: 2 }));
      const before = sha256(await stored('att/unchanged.pdf'));
      const init = request();
      const reply = await call(server, 'POST', '/documents/att/unchanged.pdf/annotations', { body: init.body as BodyInit, headers: init.headers ?? {} });
      assert.equal(reply.status, status, reply.text);
      assert.equal(reply.json().code, code);
      assert.equal(sha256(await stored('att/unchanged.pdf')), before);
    });
  }
});
