/**
 * Encryption benchmark (issue 10): encrypting the generated 200-page document
 * with AES-256 through the API (PUT .../permissions/password-permissions,
 * which rewrites it and reads the result back) next to `qpdf --encrypt` doing
 * the same on the same file, in the same run. Both outputs must open with the
 * new passwords (qpdf --check), or the run fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedBytes } from '../test/helpers/http.js';
import { startServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { makeTextDocument } from './fixtures.js';
import { median, timeCommand, timed, uploadPdf } from './lib.js';

const PAGES = 200;

export async function runSecurityBench(quick: boolean): Promise<Row[]> {
  const server = await startServer({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-security-'));
  try {
    const auth = { authorization: server.adminAuth };
    const document = makeTextDocument(PAGES, 30, 'secret');
    const input = path.join(dir, 'in.pdf');
    writeFileSync(input, document);
    const ours: number[] = [];
    const peer: number[] = [];
    const reps = quick ? 3 : 7;
    for (let i = 0; i < reps; i++) {
      const url = `${server.api}/documents/bench/encrypt-${i}.pdf`;
      await uploadPdf(url, auth, document);
      ours.push((await timed(async () => {
        const r = await fetch(`${url}/permissions/password-permissions`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ encryptType: 3, openPassword: 'user-pw', permissionsPassword: 'owner-pw', extractTextAllowed: false }),
        });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`PUT password-permissions answered ${r.status}`);
      })).ms);
      const output = path.join(dir, `peer-${i}.pdf`);
      peer.push(timeCommand('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--extract=n', '--', input, output]));
      if (i === 0) {
        const mine = path.join(dir, 'ours.pdf');
        writeFileSync(mine, await storedBytes(server, `bench/encrypt-${i}.pdf`));
        for (const file of [mine, output]) {
          const shown = execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', file], { encoding: 'utf8' });
          if (!/R = 6/.test(shown)) throw new Error(`${file} is not AES-256 R6`);
          execFileSync('qpdf', ['--check', '--password=user-pw', file], { stdio: 'ignore' });
        }
      }
    }
    const oursMs = median(ours);
    const peerMs = median(peer);
    return [{ operation: 'encryption AES-256 (PUT password-permissions, end to end)', size: `${PAGES} pages`, ours: oursMs, peer: peerMs, peerName: 'qpdf --encrypt', unit: 'ms' }];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
