/**
 * Encryption benchmark (issue 10): encrypting the generated documents of the
 * size matrix with AES-256 through the API (PUT .../permissions/password-permissions,
 * which rewrites it and reads the result back) next to `qpdf --encrypt` doing
 * the same on the same file, in the same run. Both outputs must open with the
 * new passwords (qpdf --check), or the run fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedBytes } from '../test/helpers/http.js';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { oursOf, pagesLabel, peerOf, repetitions, sizes, timeCommand, timed, uploadPdf } from './lib.js';


/** The row at one size: each repetition encrypts a fresh upload; the first one's outputs are checked. */
async function atSize(server: TestServer, dir: string, pages: number, quick: boolean): Promise<Row> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { word: 'secret' });
  const input = path.join(dir, `in-${pages}.pdf`);
  writeFileSync(input, document);
  const ours: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < repetitions(pages, quick); i++) {
    const doc = `bench/encrypt-${pages}-${i}.pdf`;
    const url = `${server.api}/documents/${doc}`;
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
    const output = path.join(dir, `peer-${pages}-${i}.pdf`);
    peer.push(await timeCommand('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--extract=n', '--', input, output]));
    if (i === 0) {
      const mine = path.join(dir, `ours-${pages}.pdf`);
      writeFileSync(mine, await storedBytes(server, doc));
      for (const file of [mine, output]) {
        const shown = execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', file], { encoding: 'utf8' });
        if (!/R = 6/.test(shown)) throw new Error(`${file} is not AES-256 R6`);
        execFileSync('qpdf', ['--check', '--password=user-pw', file], { stdio: 'ignore' });
      }
    }
    rmSync(output, { force: true });
  }
  return { operation: 'encryption AES-256 (PUT password-permissions, end to end)', size: pagesLabel(pages), pages, ...oursOf(ours), ...peerOf(peer, 'qpdf --encrypt'), unit: 'ms' };
}

export async function runSecurityBench(quick: boolean): Promise<Row[]> {
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-security-'));
  try {
    const rows: Row[] = [];
    for (const pages of sizes(quick)) rows.push(await atSize(server, dir, pages, quick));
    return rows;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
