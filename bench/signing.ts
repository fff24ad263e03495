/**
 * Signing benchmark (issue 9): an approval signature on the generated
 * documents of the size matrix through the API (POST .../signature, end to end, into a visible
 * field made beforehand), next to poppler's `pdfsig -add-signature` on the
 * same file with the same key (imported into a throw-away NSS database with
 * certutil and pk12util), in the same run. Both outputs must be reported
 * "Signature is Valid." by pdfsig. Also compared: the bytes each appends.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedBytes } from '../test/helpers/http.js';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD } from '../test/helpers/signing.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { groupBySize, median, oursOf, pagesLabel, peerOf, repetitions, sizes, TARGET_PAGES, targetAt, timeCommand, timed, uploadPdf } from './lib.js';


function requireValid(bytes: Buffer, who: string): void {
  const sigs = pdfsig(bytes).filter((s) => s.validation);
  if (sigs.length !== 1 || sigs[0]!.validation !== 'Signature is Valid.') throw new Error(`${who} signature is not valid per pdfsig: ${JSON.stringify(sigs)}`);
}

/** The rows at one size: each repetition signs a fresh upload; the first one's outputs are checked. */
async function atSize(server: TestServer, dir: string, nss: string, keystore: Buffer, pages: number, quick: boolean): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { word: 'contract' });
  const input = path.join(dir, `in-${pages}.pdf`);
  writeFileSync(input, document);
  const ours: number[] = [];
  const peer: number[] = [];
  let oursAdded = 0;
  let peerAdded = 0;
  for (let i = 0; i < repetitions(pages, quick); i++) {
    const doc = `bench/sign-${pages}-${i}.pdf`;
    const url = `${server.api}/documents/${doc}`;
    await uploadPdf(url, auth, document);
    const field = await fetch(`${url}/fields/signature-fields/Signature1`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ widget: [{ pageIndex: 0, rectangle: { x: 72, y: 72, width: 220, height: 60 } }] }),
    });
    await field.arrayBuffer();
    if (field.status !== 201) throw new Error(`PUT signature field answered ${field.status}`);
    const before = (await storedBytes(server, doc)).length;
    const form = new FormData();
    form.append('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD, signReason: 'bench' })], { type: 'application/json' }));
    form.append('file', new Blob([new Uint8Array(keystore)]), 'signer.p12');
    ours.push((await timed(async () => {
      const r = await fetch(`${url}/fields/signature-fields/Signature1/signature`, { method: 'POST', headers: auth, body: form });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`signing answered ${r.status}`);
    })).ms);
    const output = path.join(dir, `peer-${pages}-${i}.pdf`);
    peer.push(await timeCommand('pdfsig', ['-add-signature', '-nssdir', `sql:${nss}`, '-nick', 'jane', '-new-signature-field-name', 'Signature1', '-reason', 'bench', input, output]));
    if (i === 0) {
      const signed = await storedBytes(server, doc);
      requireValid(signed, 'our');
      requireValid(readFileSync(output), 'the peer\'s');
      oursAdded = signed.length - before;
      peerAdded = statSync(output).size - document.length;
    }
    rmSync(output, { force: true });
  }
  const oursMs = median(ours);
  const peerMs = median(peer);
  const size = pagesLabel(pages);
  const rows: Row[] = [
    { operation: 'approval signature, visible (POST .../signature, end to end, RSA-2048 PKCS#12)', size, pages, ...oursOf(ours), ...peerOf(peer, 'pdfsig -add-signature'), unit: 'ms', ...targetAt(pages, 'within 2x', oursMs <= 2 * peerMs) },
  ];
  // Both append an incremental update whose size does not depend on the document's: one row is enough.
  if (pages === TARGET_PAGES) {
    rows.push({ operation: 'bytes appended by the signature\'s incremental update', size: `${size}, ${document.length.toLocaleString('en')} bytes`, pages, ours: oursAdded, peer: peerAdded, peerName: 'pdfsig -add-signature', unit: 'bytes' });
  }
  return rows;
}

export async function runSigningBench(quick: boolean): Promise<Row[]> {
  const server = await sharedServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-signing-'));
  try {
    const keys = makeKeyStores();
    // The peer's key: the same PKCS#12 imported into an NSS database.
    const nss = path.join(dir, 'nss');
    execFileSync('mkdir', ['-p', nss]);
    execFileSync('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
    const p12 = path.join(dir, 'signer.p12');
    writeFileSync(p12, keys.aes);
    execFileSync('pk12util', ['-i', p12, '-d', `sql:${nss}`, '-W', STORE_PASSWORD], { stdio: 'ignore' });
    const rows: Row[] = [];
    for (const pages of sizes(quick)) rows.push(...(await atSize(server, dir, nss, keys.aes, pages, quick)));
    return groupBySize(rows);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
