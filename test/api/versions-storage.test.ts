/**
 * The room versions take on the filesystem store (docs/versions.md, "Storage" and "Cost"): annotation edits of a
 * multi-MB document are appended (engine/core/save.ts saveEdited) and each replaced version is kept as the first bytes
 * of the next one's file, so N edits cost about the document's size once, not N copies. Checked over HTTP with
 * independent tools: every version's bytes (GET ?versionId=) hash to its ETag, `du` of the versions folder, `qpdf
 * --check` and pdftotext of the newest and a middle version, restore of the first version, and an edit after it (a second
 * line of history: a second copy).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call } from '../helpers/http.js';
import { makePdf, paddedPdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const DOC = 'versions-storage/big.pdf';
/** Edits made: each one note more. */
const EDITS = 12;
const XFDF = 'application/vnd.adobe.xfdf';
const note = (i: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="0" rect="${20 + i},20,${40 + i},40" name="note-${i}"><contents>Note ${i}</contents></text></annots></xfdf>\n`;

/** The service's ETag of some bytes (store.ts etagOfDigest), computed here on its own. */
const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;

interface Version {
  id: string;
  etag: string;
  size: number;
  operation: string;
}

async function versions(): Promise<Version[]> {
  const reply = await call(server, 'GET', `/documents/${DOC}/versions?limit=100`, { headers: { accept: 'application/json' } });
  assert.equal(reply.status, 200, reply.text);
  return (reply.json() as { versions: Version[] }).versions;
}

async function versionBytes(id: string): Promise<Buffer> {
  const reply = await call(server, 'GET', `/documents/${DOC}?versionId=${id}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.bytes;
}

/** Every version's bytes, oldest first, each checked against its ETag and size. */
async function allVersionBytes(): Promise<{ version: Version; bytes: Buffer }[]> {
  const out = [];
  for (const version of (await versions()).reverse()) {
    const bytes = await versionBytes(version.id);
    assert.equal(etagOf(bytes), version.etag, `version ${version.id} (${version.operation}) hashes to its ETag`);
    assert.equal(bytes.length, version.size);
    out.push({ version, bytes });
  }
  return out;
}

/** `du` of the document's versions folder, in bytes: apparent (-b) and allocated (files linked twice counted once). */
function du(): { apparent: number; allocated: number } {
  const dir = path.join(server.dataDir, 'versions', ...DOC.split('/'));
  const apparent = Number(execFileSync('du', ['-s', '-b', dir], { encoding: 'utf8' }).split('\t')[0]);
  const allocated = Number(execFileSync('du', ['-s', '-B1', dir], { encoding: 'utf8' }).split('\t')[0]);
  return { apparent, allocated };
}

test(`${EDITS} annotation edits of a 4 MB document keep ${EDITS + 1} exact versions in under 2x its size; restore of the first gives its bytes`, async () => {
  const original = paddedPdf(makePdf({ pages: 2, text: (page) => `Versions storage page ${page + 1}` }), 4 * 1024 * 1024);
  const put = await call(server, 'PUT', `/documents/${DOC}`, { body: original, headers: { 'content-type': 'application/pdf' } });
  assert.equal(put.status, 201, put.text);
  for (let i = 0; i < EDITS; i++) {
    const edit = await call(server, 'POST', `/documents/${DOC}/annotations/content`, { body: Buffer.from(note(i)), headers: { 'content-type': XFDF } });
    assert.equal(edit.status, 200, edit.text);
  }

  // (a) Every version's bytes hash to its ETag; each edit's bytes begin with the bytes before it (appended).
  const kept = await allVersionBytes();
  assert.equal(kept.length, EDITS + 1);
  assert.ok(kept[0]!.bytes.equals(original), 'the first version is the upload');
  for (let i = 1; i < kept.length; i++) {
    const [earlier, later] = [kept[i - 1]!.bytes, kept[i]!.bytes];
    assert.ok(later.length > earlier.length && later.subarray(0, earlier.length).equals(earlier), `edit ${i} appends to the version before it`);
  }

  // (b) The versions folder holds about one copy: under 2x the document's size, by du.
  const room = du();
  assert.ok(room.apparent < 2 * original.length, `du -b ${room.apparent} for a ${original.length}-byte document`);
  assert.ok(room.allocated < 2 * original.length, `du ${room.allocated} for a ${original.length}-byte document`);

  // (c) The newest and a middle version are valid PDFs with their text and their notes.
  for (const { bytes } of [kept.at(-1)!, kept[Math.floor(kept.length / 2)]!]) {
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, check.output);
    assert.match(pdftotext(bytes), /Versions storage page 2/);
  }
  const notes = await call(server, 'GET', `/documents/${DOC}/annotations`, { headers: { accept: 'application/json' } });
  assert.equal(notes.status, 200, notes.text);
  assert.equal((notes.json() as { annotations: unknown[] }).annotations.length, EDITS);

  // (d) Restore of the first version: its bytes are current again; an edit after it appends to them, and every
  // version still has its bytes.
  const restored = await call(server, 'POST', `/documents/${DOC}/versions/${kept[0]!.version.id}/restore`, { headers: { accept: 'application/json' } });
  assert.equal(restored.status, 200, restored.text);
  const current = await call(server, 'GET', `/documents/${DOC}`);
  assert.ok(current.bytes.equals(original), 'the restored document is the first version\'s bytes');
  const edit = await call(server, 'POST', `/documents/${DOC}/annotations/content`, { body: Buffer.from(note(EDITS)), headers: { 'content-type': XFDF } });
  assert.equal(edit.status, 200, edit.text);
  const again = await allVersionBytes();
  assert.equal(again.length, EDITS + 3);
  assert.ok(again.at(-2)!.bytes.equals(original));
  assert.ok(again.at(-1)!.bytes.subarray(0, original.length).equals(original), 'the edit after the restore appends to it');
  // A restore starts a second line of history: the restored bytes are a file of their own (the current document), which
  // the edits after it append to; the first line stays in its longest version's file. Two copies, not one a version.
  assert.ok(du().apparent < 3 * original.length, 'two lines of history: two copies and the updates');
});

test('deleting a note rewrites the document in full: the deleted note is gone from the download', async () => {
  const doc = 'versions-storage/delete.pdf';
  const original = paddedPdf(makePdf({ pages: 1, text: () => 'Delete me' }), 2 * 1024 * 1024);
  assert.equal((await call(server, 'PUT', `/documents/${doc}`, { body: original, headers: { 'content-type': 'application/pdf' } })).status, 201);
  const added = await call(server, 'POST', `/documents/${doc}/annotations/content`, { body: Buffer.from(note(0).replace('Note 0', 'Secret note text')), headers: { 'content-type': XFDF } });
  assert.equal(added.status, 200, added.text);
  const withNote = (await call(server, 'GET', `/documents/${doc}`)).bytes;
  assert.ok(withNote.subarray(0, original.length).equals(original), 'the note was appended');
  assert.notEqual(withNote.indexOf('Secret note text'), -1, 'the note\'s text is in the file, as written');
  const deleted = await call(server, 'DELETE', `/documents/${doc}/annotations/note-0`);
  assert.ok(deleted.status === 200 || deleted.status === 204, deleted.text);
  const after = (await call(server, 'GET', `/documents/${doc}`)).bytes;
  assert.equal(after.indexOf('Secret note text'), -1, 'no byte of the deleted note is left in the document');
  assert.ok(qpdfCheck(after).ok);
});

test('the rule of saveEdited: a small document, a large one MuPDF had to repair, and one with bytes before its header are rewritten in full', async () => {
  const put = async (doc: string, body: Buffer) => assert.equal((await call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' } })).status, 201);
  const edit = async (doc: string) => {
    const before = (await call(server, 'GET', `/documents/${doc}`)).bytes;
    const reply = await call(server, 'POST', `/documents/${doc}/annotations/content`, { body: Buffer.from(note(1)), headers: { 'content-type': XFDF } });
    assert.equal(reply.status, 200, reply.text);
    const after = (await call(server, 'GET', `/documents/${doc}`)).bytes;
    const check = qpdfCheck(after);
    assert.ok(check.ok, check.output);
    return { appended: after.length > before.length && after.subarray(0, before.length).equals(before), after };
  };
  await put('versions-storage/small.pdf', makePdf({ pages: 1 }));
  assert.equal((await edit('versions-storage/small.pdf')).appended, false, 'under 1 MiB: rewritten in full');

  // A large file whose last cross-reference offset is wrong: MuPDF repairs it when it opens it, and cannot append to it.
  const large = paddedPdf(makePdf({ pages: 1, text: () => 'Repaired' }), 2 * 1024 * 1024);
  const at = large.lastIndexOf('startxref');
  const broken = Buffer.concat([large.subarray(0, at), Buffer.from('startxref\n123\n%%EOF\n')]);
  await put('versions-storage/repaired.pdf', broken);
  const repaired = await edit('versions-storage/repaired.pdf');
  assert.equal(repaired.appended, false, 'a repaired file: rewritten in full');
  assert.match(pdftotext(repaired.after), /Repaired/);

  // A large file with bytes before its header: MuPDF would count an update's offsets from the file's start, readers
  // from the header (qpdf: "file is damaged"), so it is rewritten in full.
  const junk = Buffer.concat([Buffer.from('leading junk\n'), paddedPdf(makePdf({ pages: 1, text: () => 'After junk' }), 2 * 1024 * 1024)]);
  await put('versions-storage/junk.pdf', junk);
  const rewritten = await edit('versions-storage/junk.pdf');
  assert.equal(rewritten.appended, false, 'bytes before the header: rewritten in full');
  assert.match(pdftotext(rewritten.after), /After junk/);
});
