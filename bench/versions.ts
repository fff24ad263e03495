/**
 * Versions benchmark (issue 39's bench rows, docs/versions.md):
 *
 * - the time of a write with versions on against the same write with versions off (`PDFSERVICE_VERSIONS=false`): a
 *   TextStampAction on every page of the 200-page bench document, and a 1-annotation edit (an XFDF import of one note)
 *   of the same document; two servers, the same steps on both, in alternating order repetition by repetition (14 in a
 *   full run).
 *   Target: ratio at most 1.05.
 * - `GET .../versions` of a 1-page document with 1,000 versions (made by 1,000 PUTs through the API; their time is a
 *   row too, the first hundred writes against the last hundred, since each write looks at the document's versions).
 *   Target: under 50 ms.
 * - the disk used by a 50 MB document after 100 annotation edits (101 versions), against the document's size, files
 *   linked twice counted once. Target: at most 2x (the edits are appended and each version kept as a prefix of the
 *   next: docs/versions.md, "Prefixes").
 * - restore of a version of the 200-page document against uploading the same bytes (PUT), alternating.
 *   Target: restore no slower than the upload.
 *
 * `--quick` keeps it small: 1 page instead of 200, a 5 MB document with 10 edits instead of 50 MB with 100, 100
 * versions instead of 1,000, 2 repetitions; the targets of those rows are then not checked (as for the other modules).
 * The quick run is the bench's smoke test (under 2 minutes for every module): the 1,000 PUTs of a 1-page document took
 * 14 to 25 s of it on the loaded 2-core machine.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makePdf } from '../test/helpers/pdf.js';
import { serializePdf, streamParts } from '../test/helpers/pdf-writer.js';
import type { TestServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { startServer } from './build.js';
import { makeBenchDocument } from './fixtures.js';
import { median, oursOf, pagesLabel, peerOf, repetitions, timed, uploadPdf } from './lib.js';

/** The settings a full run uses (issue 39's) and the small ones of a quick run. */
export function settings(quick: boolean): { pages: number; versions: number; bigBytes: number; edits: number } {
  return quick ? { pages: 1, versions: 100, bigBytes: 5 << 20, edits: 10 } : { pages: 200, versions: 1000, bigBytes: 50 << 20, edits: 100 };
}

/** The lowest and highest ratio of the pairs measured back to back (a[i] / b[i]); none with fewer than 2 pairs. */
export function pairRatios(a: number[], b: number[]): [number, number] | undefined {
  const n = Math.min(a.length, b.length);
  if (n < 2) return undefined;
  const ratios = Array.from({ length: n }, (_, i) => a[i]! / b[i]!);
  return [Math.min(...ratios), Math.max(...ratios)];
}

/**
 * A one-page PDF of at least `bytes` bytes: an RGB image of random pixels, unfiltered (so no save can make it much
 * smaller or larger, and a full rewrite of the document costs its whole size), drawn over the page.
 */
export function largeImagePdf(bytes: number): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const pixels = randomBytes(side * side * 3);
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    streamParts(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8`, pixels),
    streamParts('', 'q 612 0 0 792 0 0 cm /Im1 Do Q'),
  ], '/Root 1 0 R');
}

/** An XFDF body adding one note named `name` on the first page: the 1-annotation edit. */
export function oneNoteXfdf(name: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="0" rect="40,40,60,60" name="${name}"><contents>Edit ${name}</contents></text></annots></xfdf>\n`;
}

/**
 * Bytes on disk of a set of files, each inode counted once (a version's blob and the current document are one file):
 * the apparent sizes and the allocated blocks.
 */
export async function distinctBytes(files: string[]): Promise<{ bytes: number; allocated: number; files: number }> {
  const seen = new Set<string>();
  let bytes = 0;
  let allocated = 0;
  for (const file of files) {
    const st = await lstat(file);
    const key = `${st.dev}:${st.ino}`;
    if (!st.isFile() || seen.has(key)) continue;
    seen.add(key);
    bytes += st.size;
    allocated += st.blocks * 512;
  }
  return { bytes, allocated, files: seen.size };
}

type Auth = Record<string, string>;

async function send(url: string, init: RequestInit, status: number[]): Promise<Response> {
  const reply = await fetch(url, init);
  const body = await reply.arrayBuffer();
  if (!status.includes(reply.status)) throw new Error(`${init.method ?? 'GET'} ${url} answered ${reply.status}: ${Buffer.from(body).toString('utf8', 0, 300)}`);
  return reply;
}

const stamp = (url: string, auth: Auth) =>
  send(`${url}/pages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ TextStampAction: { text: 'VERSIONED', x: 72, y: 72, fontSize: 24 } }) }, [200]);

const addNote = (url: string, auth: Auth, name: string) =>
  send(`${url}/annotations/content`, { method: 'POST', headers: { ...auth, 'content-type': 'application/vnd.adobe.xfdf' }, body: oneNoteXfdf(name) }, [200]);

async function versionsOf(url: string, auth: Auth, query = ''): Promise<{ versions: { id: string }[]; total: number }> {
  const reply = await fetch(`${url}/versions${query}`, { headers: { ...auth, accept: 'application/json' } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`GET versions answered ${reply.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { versions: { id: string }[]; total: number };
}

/** A row of versions on (ours) against off (the peer), with the ratio's target at the size only. */
function onOffRow(operation: string, size: string, pages: number, on: number[], off: number[], full: boolean): Row {
  const ratio = median(on) / median(off);
  return {
    operation, size, pages, ...oursOf(on), ...peerOf(off, 'versions off'), unit: 'ms', ratioSpread: pairRatios(on, off),
    ...(full ? { target: 'ratio <= 1.05', met: ratio <= 1.05 } : {}),
  };
}

/** Writes with versions on and off: each repetition uploads a fresh copy to both (untimed), then stamps and edits it. */
async function writeRows(on: TestServer, off: TestServer, pages: number, quick: boolean): Promise<Row[]> {
  const document = makeBenchDocument(pages);
  const samples = { stampOn: [] as number[], stampOff: [] as number[], editOn: [] as number[], editOff: [] as number[] };
  // One untimed round on each first: engine workers started, code paths warm.
  for (const server of [on, off]) {
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/bench/versions-warm.pdf`;
    await uploadPdf(url, auth, document);
    await stamp(url, auth);
    await addNote(url, auth, 'bench-warm');
  }
  // The target is a 5% difference on a write of a few hundred ms: twice the usual repetitions in a full run, since on
  // this shared machine single pairs move by more than half (two first runs: pairwise 0.68x to 3.67x).
  const reps = quick ? repetitions(pages, quick) : 2 * repetitions(pages, quick);
  for (let i = 0; i < reps; i++) {
    // Which side goes first alternates, so that a machine getting busier or quieter weighs on both alike.
    const order = i % 2 === 0 ? ([['on', on], ['off', off]] as const) : ([['off', off], ['on', on]] as const);
    const variant = Buffer.concat([document, Buffer.from(`%rep ${i}\n`)]);
    const urls = { on: `${on.api}/documents/bench/versions-write-${i}.pdf`, off: `${off.api}/documents/bench/versions-write-${i}.pdf` };
    for (const [side, server] of order) await uploadPdf(urls[side], { authorization: server.adminAuth }, variant);
    for (const [side, server] of order) {
      const ms = (await timed(() => stamp(urls[side], { authorization: server.adminAuth }))).ms;
      (side === 'on' ? samples.stampOn : samples.stampOff).push(ms);
    }
    for (const [side, server] of order) {
      const ms = (await timed(() => addNote(urls[side], { authorization: server.adminAuth }, `bench-note-${i}`))).ms;
      (side === 'on' ? samples.editOn : samples.editOff).push(ms);
    }
  }
  // The versions kept on the "on" side: upload, stamp, edit.
  const kept = await versionsOf(`${on.api}/documents/bench/versions-write-0.pdf`, { authorization: on.adminAuth });
  if (kept.total !== 3) throw new Error(`the document written three times has ${kept.total} versions`);
  const size = pagesLabel(pages);
  const full = pages === 200;
  return [
    onOffRow('write, versions on vs off: TextStampAction on every page', size, pages, samples.stampOn, samples.stampOff, full),
    onOffRow('write, versions on vs off: 1-annotation edit (XFDF import of one note)', size, pages, samples.editOn, samples.editOff, full),
  ];
}

/** `count` versions of a 1-page document made by PUTs, then its versions listed. */
async function listingRows(server: TestServer, count: number, quick: boolean): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const url = `${server.api}/documents/bench/versions-many.pdf`;
  const writes: number[] = [];
  const began = Date.now();
  for (let i = 0; i < count; i++) {
    const pdf = makePdf({ text: () => `Version ${i}` });
    writes.push((await timed(() => uploadPdf(url, auth, pdf))).ms);
  }
  const makingSeconds = (Date.now() - began) / 1000;
  const listed = await versionsOf(url, auth);
  if (listed.total !== count) throw new Error(`${count} writes made ${listed.total} versions`);
  const all = await versionsOf(url, auth, `?limit=${count}`);
  if (all.versions.length !== count) throw new Error(`?limit=${count} listed ${all.versions.length} versions`);
  const firstPage: number[] = [];
  const whole: number[] = [];
  const reps = quick ? 5 : 20;
  for (let i = 0; i < reps; i++) {
    firstPage.push((await timed(() => versionsOf(url, auth))).ms);
    whole.push((await timed(() => versionsOf(url, auth, `?limit=${count}`))).ms);
  }
  const size = `1 page, ${count.toLocaleString('en')} versions`;
  const full = count === 1000;
  const tenth = Math.max(1, Math.floor(count / 10));
  console.log(`versions: ${count} writes made in ${makingSeconds.toFixed(1)} s`);
  return [
    { operation: 'GET .../versions (first 100, the default page)', size, ...oursOf(firstPage), unit: 'ms', ...(full ? { target: '< 50 ms', met: median(firstPage) < 50 } : {}) },
    { operation: `GET .../versions?limit=${count} (all of them)`, size, ...oursOf(whole), unit: 'ms', ...(full ? { target: '< 50 ms', met: median(whole) < 50 } : {}) },
    // Each write reads the document's versions folder: the last writes against the first show what that costs.
    { operation: `PUT of the document, the last ${tenth} writes against the first ${tenth}`, size, ...oursOf(writes.slice(-tenth)), ...peerOf(writes.slice(0, tenth), `the first ${tenth} writes`), unit: 'ms' },
  ];
}

/** `edits` annotation edits of a large document: the disk its versions and itself use, against its size. */
async function storageRows(server: TestServer, bytes: number, edits: number): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const doc = 'bench/versions-large.pdf';
  const url = `${server.api}/documents/${doc}`;
  const pdf = largeImagePdf(bytes);
  await uploadPdf(url, auth, pdf);
  const times: number[] = [];
  for (let i = 0; i < edits; i++) times.push((await timed(() => addNote(url, auth, `edit-${i}`))).ms);
  const listed = await versionsOf(url, auth);
  if (listed.total !== edits + 1) throw new Error(`${edits} edits after an upload kept ${listed.total} versions`);
  const versionsDir = path.join(server.dataDir, 'versions', ...doc.split('/'));
  const files = [path.join(server.documentsDir, ...doc.split('/')), ...(await readdir(versionsDir)).map((name) => path.join(versionsDir, name))];
  const disk = await distinctBytes(files);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const size = `${mb(pdf.length)} document, ${edits} annotation edits (${edits + 1} versions)`;
  const ratio = disk.bytes / pdf.length;
  const full = edits === 100;
  console.log(`versions: ${edits} edits of a ${mb(pdf.length)} document use ${mb(disk.bytes)} in ${disk.files} files (${mb(disk.allocated)} allocated), ${ratio.toFixed(1)}x its size`);
  return [
    { operation: 'disk used by the document and its versions, against the document\'s size', size, ours: ratio, unit: 'x', ...(full ? { target: '<= 2x', met: ratio <= 2 } : {}) },
    { operation: 'one annotation edit (XFDF import of one note) of that document', size, ...oursOf(times), unit: 'ms' },
  ];
}

/** Restore of an earlier version against uploading its bytes, alternating, each repetition on a fresh document. */
async function restoreRows(server: TestServer, pages: number, quick: boolean): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages);
  const uploads: number[] = [];
  const restores: number[] = [];
  for (let i = 0; i < repetitions(pages, quick); i++) {
    const url = `${server.api}/documents/bench/versions-restore-${i}.pdf`;
    const variant = Buffer.concat([document, Buffer.from(`%rep ${i}\n`)]);
    // The first version is the upload (timed); a stamp makes a second; restoring the first makes a third.
    uploads.push((await timed(() => uploadPdf(url, auth, variant))).ms);
    await stamp(url, auth);
    const { versions } = await versionsOf(url, auth);
    const first = versions.at(-1)!.id;
    restores.push((await timed(() => send(`${url}/versions/${first}/restore`, { method: 'POST', headers: auth }, [200, 201]))).ms);
  }
  const ratio = median(restores) / median(uploads);
  return [{
    operation: 'restore of a version (POST .../versions/{id}/restore) against uploading its bytes (PUT)',
    size: pagesLabel(pages), pages, ...oursOf(restores), ...peerOf(uploads, 'upload (PUT)'), unit: 'ms', ratioSpread: pairRatios(restores, uploads),
    ...(pages === 200 ? { target: 'ratio <= 1.0', met: ratio <= 1 } : {}),
  }];
}

export async function runVersionsBench(quick: boolean): Promise<Row[]> {
  const { pages, versions, bigBytes, edits } = settings(quick);
  // Text prefetching off, as in the other benchmarks' servers: it would read every page's text right after each write.
  const env = { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' };
  const on = await startServer({ env });
  let off: TestServer | undefined;
  try {
    off = await startServer({ env: { ...env, PDFSERVICE_VERSIONS: 'false' } });
    const rows = await writeRows(on, off, pages, quick);
    await off.stop();
    off = undefined;
    rows.push(...(await restoreRows(on, pages, quick)));
    rows.push(...(await listingRows(on, versions, quick)));
    rows.push(...(await storageRows(on, bigBytes, edits)));
    return rows;
  } finally {
    await off?.stop();
    await on.stop();
  }
}
