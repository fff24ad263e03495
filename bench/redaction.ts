/**
 * Redaction benchmark (issue 5): on the generated documents of the size matrix
 * (a word 30 times a page: 6,000 times at 200 pages), create Redact annotations for it (A7) and apply them
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
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { groupBySize, median, oursOf, pagesLabel, peerOf, repetitions, sizes, targetAt, timeCommand, timed, uploadPdf } from './lib.js';

const LINES = 30;
export const WORD = 'confidential';
export const PEER_SCRIPT = fileURLToPath(new URL('../../bench/mutool-redact.js', import.meta.url));

function occurrences(pdf: string): number {
  return (execFileSync('pdftotext', [pdf, '-'], { maxBuffer: 256 << 20 }).toString('utf8').match(new RegExp(WORD, 'g')) ?? []).length;
}

/** The rows at one size: every repetition redacts a fresh upload; the first one's outputs are checked. */
async function atSize(server: TestServer, dir: string, pages: number, quick: boolean): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { lines: LINES, word: WORD });
  const expected = pages * LINES;
  const input = path.join(dir, `in-${pages}.pdf`);
  writeFileSync(input, document);
  const create: number[] = [];
  const apply: number[] = [];
  const total: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < repetitions(pages, quick, true); i++) {
    const doc = `bench/redact-${pages}-${i}.pdf`;
    const url = `${server.api}/documents/${doc}`;
    await uploadPdf(url, auth, document);
    // The page content only, as the peer searches it (by default the service also searches what annotations show).
    const created = await timed(async () => {
      const r = await fetch(`${url}/annotations/redaction`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ searchText: WORD, includeAnnotations: false }) });
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
    const output = path.join(dir, `peer-${pages}-${i}.pdf`);
    peer.push(await timeCommand('mutool', ['run', PEER_SCRIPT, input, output, WORD]));
    if (i === 0) {
      const ours = path.join(dir, `ours-${pages}.pdf`);
      writeFileSync(ours, await storedBytes(server, doc));
      const left = occurrences(ours);
      const peerLeft = occurrences(output);
      if (left !== 0) throw new Error(`our redaction left ${left} occurrences`);
      if (peerLeft !== 0) throw new Error(`the peer left ${peerLeft} occurrences`);
    }
    rmSync(output, { force: true });
  }
  const size = `${pagesLabel(pages)}, ${expected.toLocaleString('en')} matches`;
  const ours = median(total);
  const peerMs = median(peer);
  return [
    { operation: 'redaction: search + create Redact annotations (A7)', size, pages, ...oursOf(create), unit: 'ms' },
    { operation: 'redaction: apply + verify (ApplyRedactionsAction)', size, pages, ...oursOf(apply), unit: 'ms' },
    { operation: 'redaction: search, redact and apply, end to end', size, pages, ...oursOf(total), ...peerOf(peer, 'mutool run'), unit: 'ms', ...targetAt(pages, 'within 2x', ours <= 2 * peerMs) },
  ];
}

export async function runRedactionBench(quick: boolean): Promise<Row[]> {
  const server = await sharedServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-redaction-'));
  try {
    const rows: Row[] = [];
    for (const pages of sizes(quick)) rows.push(...(await atSize(server, dir, pages, quick)));
    return groupBySize(rows);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
