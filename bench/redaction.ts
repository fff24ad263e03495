/**
 * Redaction benchmark (issue 5): on a generated 200-page document with a word
 * 6,000 times, create Redact annotations for it (A7) and apply them
 * (ApplyRedactionsAction, verification included), next to native MuPDF doing
 * the same search-redact-apply in a `mutool run` script, in the same run.
 * Both results are checked with pdftotext: a silent miss would fail the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storedBytes } from '../test/helpers/http.js';
import { startServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { makeTextDocument } from './fixtures.js';
import { median, timeCommand, timed, uploadPdf } from './lib.js';

const PAGES = 200;
const LINES = 30;
const WORD = 'confidential';
const PEER_SCRIPT = fileURLToPath(new URL('../../bench/mutool-redact.js', import.meta.url));

function occurrences(pdf: string): number {
  return (execFileSync('pdftotext', [pdf, '-'], { maxBuffer: 256 << 20 }).toString('utf8').match(new RegExp(WORD, 'g')) ?? []).length;
}

export async function runRedactionBench(quick: boolean): Promise<Row[]> {
  const server = await startServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-redaction-'));
  try {
    const auth = { authorization: server.adminAuth };
    const document = makeTextDocument(PAGES, LINES, WORD);
    const expected = PAGES * LINES;
    const input = path.join(dir, 'in.pdf');
    writeFileSync(input, document);
    const reps = quick ? 2 : 5;
    const create: number[] = [];
    const apply: number[] = [];
    const total: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < reps; i++) {
      const url = `${server.api}/documents/bench/redact-${i}.pdf`;
      await uploadPdf(url, auth, document);
      const created = await timed(async () => {
        const r = await fetch(`${url}/annotations/redaction`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ searchText: WORD }) });
        const body = await r.json() as { count: number };
        if (r.status !== 200) throw new Error(`A7 answered ${r.status}`);
        return body.count;
      });
      if (created.value !== expected) throw new Error(`A7 found ${created.value} matches, expected ${expected}`);
      const applied = await timed(async () => {
        const r = await fetch(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ ApplyRedactionsAction: {} }) });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`ApplyRedactionsAction answered ${r.status}`);
      });
      create.push(created.ms);
      apply.push(applied.ms);
      total.push(created.ms + applied.ms);
      const output = path.join(dir, `peer-${i}.pdf`);
      peer.push(timeCommand('mutool', ['run', PEER_SCRIPT, input, output, WORD]));
      if (i === 0) {
        const ours = path.join(dir, 'ours.pdf');
        writeFileSync(ours, await storedBytes(server, `bench/redact-${i}.pdf`));
        const left = occurrences(ours);
        const peerLeft = occurrences(output);
        if (left !== 0) throw new Error(`our redaction left ${left} occurrences`);
        if (peerLeft !== 0) throw new Error(`the peer left ${peerLeft} occurrences`);
      }
    }
    const size = `${PAGES} pages, ${expected} matches`;
    const ours = median(total);
    const peerMs = median(peer);
    return [
      { operation: 'redaction: search + create Redact annotations (A7)', size, ours: median(create), unit: 'ms' },
      { operation: 'redaction: apply + verify (ApplyRedactionsAction)', size, ours: median(apply), unit: 'ms' },
      { operation: 'redaction: search, redact and apply, end to end', size, ours, peer: peerMs, peerName: 'mutool run', unit: 'ms', target: 'within 2x', met: ours <= 2 * peerMs },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
