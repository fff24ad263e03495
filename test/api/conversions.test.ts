import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { ServiceError } from '../../src/errors.js';
import { chooseConverter, CONVERTERS, mediaTypeOfExtension, UPLOAD_TYPES } from '../../src/operations/conversions/registry.js';
import type { Converter } from '../../src/operations/conversions/types.js';
import { FileJobStore } from '../../src/operations/jobs/file-store.js';
import { keepConversionOutput, MemoryResultFiles } from '../../src/operations/jobs/result-files.js';
import { MemoryStore } from '../../src/storage/memory-store.js';
import { etagOf } from '../../src/storage/store.js';
import { call } from '../helpers/http.js';
import { jobRecord } from '../helpers/job-store-contract.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const store = new MemoryStore();
const staged = (bytes: Uint8Array) => store.stage(Readable.from([Buffer.from(bytes)]), 1 << 24);

/** A one-pixel PNG's signature and IHDR: enough for sniffing, which reads the first bytes only. */
const PNG_HEAD = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(17)]);
const JPEG_HEAD = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const OLE2_HEAD = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);

/** A ZIP with one stored entry (an OpenDocument's first entry is its `mimetype`). */
function zipWith(name: string, text: string): Buffer {
  const data = Buffer.from(text);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(8, 8);
  const packed = deflateRawSync(data);
  header.writeUInt32LE(packed.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return Buffer.concat([header, Buffer.from(name), packed]);
}

describe('the conversion registry', () => {
  test('every converter declares what it takes, produces, whether it is long, and sniffs; names are unique', () => {
    assert.deepEqual(CONVERTERS.map((c) => c.name), ['image', 'office', 'html', 'markdown', 'url', 'pdf']);
    for (const converter of CONVERTERS) {
      assert.ok(['file', 'bundle'].includes(converter.takes.kind), converter.name);
      assert.ok(converter.takes.mediaTypes.length > 0, converter.name);
      assert.equal(converter.produces, 'application/pdf', converter.name);
      assert.equal(typeof converter.long, 'boolean');
      for (const type of Object.values(converter.takes.extensions)) assert.ok(converter.takes.mediaTypes.includes(type), `${converter.name}: ${type}`);
    }
    assert.equal(CONVERTERS.find((c) => c.name === 'office')!.long, true);
    // The types a document body may have, in the order the OpenAPI description lists them, as before the registry.
    assert.equal(UPLOAD_TYPES[0], 'application/pdf');
    assert.deepEqual(UPLOAD_TYPES.slice(1, 5), ['image/jpeg', 'image/png', 'image/tiff', 'image/gif']);
    assert.equal(UPLOAD_TYPES.at(-1), 'application/octet-stream');
  });

  test('an octet-stream upload goes to the converter that recognises its first bytes, and what none recognises is taken for a PDF', async () => {
    const cases: [string, Uint8Array, string, string][] = [
      ['PNG', PNG_HEAD, 'image', 'image/png'],
      ['JPEG', JPEG_HEAD, 'image', 'image/jpeg'],
      ['OLE2', OLE2_HEAD, 'office', 'application/x-ole-storage'],
      ['ZIP', zipWith('mimetype', 'application/vnd.oasis.opendocument.text'), 'office', 'application/zip'],
      ['RTF', Buffer.from('{\\rtf1\\ansi hello}'), 'office', 'application/rtf'],
      ['HTML', Buffer.from('\ufeff <!-- page --> <!DOCTYPE html><p>hi</p>'), 'html', 'text/html'],
      ['PDF', makePdf(), 'pdf', 'application/pdf'],
      ['text', Buffer.from('just some words'), 'pdf', 'application/pdf'],
    ];
    for (const [what, bytes, converter, mediaType] of cases) {
      const chosen = await chooseConverter('application/octet-stream', await staged(bytes));
      assert.equal(chosen?.converter.name, converter, what);
      assert.equal(chosen?.mediaType, mediaType, what);
    }
  });

  test('a declared type picks the converter that claims it, after a look at the first bytes; a type nobody takes is undefined', async () => {
    assert.equal((await chooseConverter('image/png', await staged(PNG_HEAD)))?.converter.name, 'image');
    assert.equal((await chooseConverter('application/pdf', await staged(makePdf())))?.converter.name, 'pdf');
    assert.equal((await chooseConverter('text/csv', await staged(Buffer.from('a,b\n1,2\n'))))?.converter.name, 'office');
    await assert.rejects(chooseConverter('image/jpeg', await staged(PNG_HEAD)), (err: ServiceError) => err.code === 'MALFORMED_IMAGE' && /PNG image/.test(err.detail ?? ''));
    assert.equal(await chooseConverter('application/x-unknown', await staged(PNG_HEAD)), undefined);
  });

  test('a bundle goes only to a converter that takes bundles: none does yet, so 415 UNSUPPORTED_MEDIA_TYPE says so', async () => {
    for (const type of ['application/pdf', 'application/octet-stream', 'image/png']) {
      await assert.rejects(chooseConverter(type, await staged(PNG_HEAD), 2), (err: ServiceError) => err.code === 'UNSUPPORTED_MEDIA_TYPE' && err.status === 415 && /bundle/.test(err.detail ?? ''));
    }
  });

  test('a claimed extension stands for its own media type', () => {
    assert.equal(mediaTypeOfExtension('png'), 'image/png');
    assert.equal(mediaTypeOfExtension('tif'), 'image/tiff');
    assert.equal(mediaTypeOfExtension('jpg'), 'image/jpeg');
    assert.equal(mediaTypeOfExtension('pdf'), 'application/pdf');
    assert.equal(mediaTypeOfExtension('dotx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    assert.equal(mediaTypeOfExtension('csv'), 'text/csv');
    assert.equal(mediaTypeOfExtension('exe'), undefined);
  });
});

describe('a job result that is not a PDF (the seam)', () => {
  test("a converter's non-PDF output is kept as the job's result file and its record survives the job store", async () => {
    // A converter out of PDF, as DOCX or Markdown export will be: it reads its staged input and produces another file.
    const markdown: Converter = {
      name: 'markdown-test',
      takes: { kind: 'file', mediaTypes: ['application/pdf'], extensions: {} },
      produces: 'text/markdown',
      long: true,
      sniff: () => undefined,
      async convert({ main }) {
        const content = await main.content.open();
        try {
          return { content: Buffer.from(`# ${content.size} bytes\n`), mediaType: 'text/markdown' };
        } finally {
          await content.close();
        }
      },
    };
    const input = makePdf();
    const output = await markdown.convert({ main: { mediaType: 'application/pdf', content: await staged(input) }, mediaType: 'application/pdf', assets: [] }, {} as never);
    const files = new MemoryResultFiles();
    const record = jobRecord({ action: 'markdown' });
    const file = await keepConversionOutput(files, record.id, output, 'q3.md');
    const expected = Buffer.from(`# ${input.length} bytes\n`);
    assert.deepEqual(file, { name: 'q3.md', mediaType: 'text/markdown', size: expected.length, etag: etagOf(expected) });
    record.result = { path: 'reports/q3.pdf', created: false, document: {}, file };
    const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-result-files-'));
    try {
      const jobs = new FileJobStore(dir);
      await jobs.put(record);
      assert.deepEqual((await jobs.get(record.id))?.result?.file, file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const opened = await files.open(record.id);
    assert.deepEqual(await opened?.read(), expected);
    await files.delete(record.id);
    assert.equal(await files.open(record.id), null);
  });
});

describe('multipart bundles over HTTP', () => {
  const server = serverForSuite();

  /** Files left in the store's staging folder (every staged part is discarded once the upload is answered). */
  function stagedFiles(): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (dir.split(path.sep).includes('staging')) found.push(entry.name);
      }
    };
    if (existsSync(server.dataDir)) walk(server.dataDir);
    return found;
  }

  test('a form with "asset" parts is a bundle: none whose main file is a PDF is taken, 415 UNSUPPORTED_MEDIA_TYPE, nothing stored, nothing left staged', async () => {
    await call(server, 'PUT', '/documents/bundles');
    const data = new FormData();
    data.append('file', new Blob([makePdf() as BlobPart], { type: 'application/pdf' }), 'page.pdf');
    data.append('asset', new Blob([PNG_HEAD as BlobPart], { type: 'image/png' }), 'logo.png');
    data.append('asset', new Blob(['body { color: red }'], { type: 'text/css' }), 'style.css');
    const reply = await call(server, 'POST', '/documents/bundles', { body: data });
    assert.equal(reply.status, 415, reply.text);
    assert.equal(reply.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(reply.json().detail, /bundle/);
    assert.equal((await call(server, 'GET', '/documents/bundles/page.pdf')).status, 404);
    assert.deepEqual(stagedFiles(), []);
  });

  test('parts with other names are ignored as before, and a form file sent as octet-stream is named by its extension', async () => {
    const data = new FormData();
    data.append('file', new Blob([makePdf({ pages: 2 }) as BlobPart], { type: 'application/pdf' }), 'two.pdf');
    data.append('note', new Blob(['ignored'], { type: 'text/plain' }), 'note.txt');
    const reply = await call(server, 'POST', '/documents/bundles', { body: data });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().pageCount, 2);
    // A .png sent as octet-stream is a PNG by its name (it was taken for a JPEG by the importers' first type, and refused).
    const png = new FormData();
    const dot = execFileSync('/usr/bin/convert', ['-size', '3x2', 'xc:blue', 'png:-']);
    png.append('file', new Blob([dot as BlobPart], { type: 'application/octet-stream' }), 'dot.png');
    const image = await call(server, 'POST', '/documents/bundles', { body: png });
    assert.equal(image.status, 201, image.text);
    assert.equal(image.json().path, '/bundles/dot.pdf');
  });
});
