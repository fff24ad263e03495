/**
 * Signing benchmark (issue 9): an approval signature on a generated 200-page
 * document through the API (POST .../signature, end to end, into a visible
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
import { startServer } from '../test/helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD } from '../test/helpers/signing.js';
import type { Row } from './annotations.js';
import { makeTextDocument } from './fixtures.js';
import { median, timeCommand, timed, uploadPdf } from './lib.js';

const PAGES = 200;
const LINES = 30;

function requireValid(bytes: Buffer, who: string): void {
  const sigs = pdfsig(bytes).filter((s) => s.validation);
  if (sigs.length !== 1 || sigs[0]!.validation !== 'Signature is Valid.') throw new Error(`${who} signature is not valid per pdfsig: ${JSON.stringify(sigs)}`);
}

export async function runSigningBench(quick: boolean): Promise<Row[]> {
  const server = await startServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-signing-'));
  try {
    const keys = makeKeyStores();
    const auth = { authorization: server.adminAuth };
    const document = makeTextDocument(PAGES, LINES, 'contract');
    const input = path.join(dir, 'in.pdf');
    writeFileSync(input, document);
    // The peer's key: the same PKCS#12 imported into an NSS database.
    const nss = path.join(dir, 'nss');
    execFileSync('mkdir', ['-p', nss]);
    execFileSync('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
    const p12 = path.join(dir, 'signer.p12');
    writeFileSync(p12, keys.aes);
    execFileSync('pk12util', ['-i', p12, '-d', `sql:${nss}`, '-W', STORE_PASSWORD], { stdio: 'ignore' });

    const reps = quick ? 3 : 7;
    const ours: number[] = [];
    const peer: number[] = [];
    let oursAdded = 0;
    let peerAdded = 0;
    for (let i = 0; i < reps; i++) {
      const doc = `bench/sign-${i}.pdf`;
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
      form.append('file', new Blob([new Uint8Array(keys.aes)]), 'signer.p12');
      ours.push((await timed(async () => {
        const r = await fetch(`${url}/fields/signature-fields/Signature1/signature`, { method: 'POST', headers: auth, body: form });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`signing answered ${r.status}`);
      })).ms);
      const output = path.join(dir, `peer-${i}.pdf`);
      peer.push(timeCommand('pdfsig', ['-add-signature', '-nssdir', `sql:${nss}`, '-nick', 'jane', '-new-signature-field-name', 'Signature1', '-reason', 'bench', input, output]));
      if (i === 0) {
        const signed = await storedBytes(server, doc);
        requireValid(signed, 'our');
        requireValid(readFileSync(output), 'the peer\'s');
        oursAdded = signed.length - before;
        peerAdded = statSync(output).size - document.length;
      }
    }
    const oursMs = median(ours);
    const peerMs = median(peer);
    return [
      { operation: 'approval signature, visible (POST .../signature, end to end, RSA-2048 PKCS#12)', size: `${PAGES} pages`, ours: oursMs, peer: peerMs, peerName: 'pdfsig -add-signature', unit: 'ms', target: 'within 2x', met: oursMs <= 2 * peerMs },
      { operation: 'bytes appended by the signature\'s incremental update', size: `${PAGES} pages, ${document.length} bytes`, ours: oursAdded, peer: peerAdded, peerName: 'pdfsig -add-signature', unit: 'bytes' },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
