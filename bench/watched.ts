/**
 * Watched folders (issue 44, docs/watched-folders.md): N documents uploaded into a folder bound to a stamping
 * pipeline, timed until every output exists in the target (the binding's runs all succeeded), against the same
 * pipeline run by a client loop: for each document, PUT and then POST {"PipelineAction"} with savePath into another
 * folder. Both against one warm service, interleaved (one batch of each per round, the order alternating), so a
 * loaded machine weighs on both alike. No target in the issue; what the row shows is what the asynchrony costs or
 * saves: a watched folder's client only uploads, and its runs are jobs that follow the uploads.
 */
import type { TestServer } from '../test/helpers/server.js';
import { makePdf } from '../test/helpers/pdf.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { median, oursOf, peerOf, timed } from './lib.js';

async function ok(reply: Response, what: string): Promise<unknown> {
  const text = await reply.text();
  if (reply.status < 200 || reply.status > 299) throw new Error(`${what} answered ${reply.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

function send(server: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const raw = body instanceof Uint8Array;
  return fetch(`${server.api}${path}`, {
    method,
    headers: { authorization: server.adminAuth, accept: 'application/json', ...(body !== undefined ? { 'content-type': raw ? 'application/pdf' : 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: raw ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) } : {}),
  });
}

/** One batch into the watched folder: the uploads, then polling until the binding has `expected` succeeded runs. */
async function watchedBatch(server: TestServer, pdf: Uint8Array<ArrayBuffer>, round: number, n: number, expected: number): Promise<number> {
  const { ms } = await timed(async () => {
    for (let i = 0; i < n; i++) await ok(await send(server, 'PUT', `/documents/bench-watch-in/r${round}-${i}.pdf`, pdf), 'PUT');
    for (;;) {
      const binding = (await ok(await send(server, 'GET', '/watched-folders/bench'), 'GET binding')) as { runs: { state: string }[]; runCount: number };
      const failed = binding.runs.filter((r) => r.state === 'failed').length;
      if (failed > 0) throw new Error(`${failed} watched runs failed`);
      if (binding.runCount >= expected && binding.runs.every((r) => r.state === 'succeeded')) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return ms;
}

/** The client loop: each document uploaded, then the pipeline run on it into the output folder. */
async function clientBatch(server: TestServer, pdf: Uint8Array<ArrayBuffer>, round: number, n: number): Promise<number> {
  const { ms } = await timed(async () => {
    for (let i = 0; i < n; i++) {
      await ok(await send(server, 'PUT', `/documents/bench-loop-in/r${round}-${i}.pdf`, pdf), 'PUT');
      await ok(await send(server, 'POST', `/documents/bench-loop-in/r${round}-${i}.pdf`, { PipelineAction: { name: 'bench-stamp', savePath: `bench-loop-out/r${round}-${i}.pdf` } }, { prefer: 'wait=600' }), 'PipelineAction');
    }
  });
  return ms;
}

export async function runWatchedBench(quick: boolean): Promise<Row[]> {
  const rounds = quick ? 3 : 9;
  const n = quick ? 5 : 10;
  const pdf: Uint8Array<ArrayBuffer> = new Uint8Array(makePdf({ pages: 3, text: (p) => `Bench page ${p}` }));
  const server = await sharedServer();
  const ours: number[] = [];
  const peer: number[] = [];
  try {
    await ok(await send(server, 'PUT', '/pipelines/bench-stamp', { steps: [{ TextStampAction: { text: 'BENCH', x: 72, y: 72 } }, { PageNumbersAction: { format: 'Page {n} of {total}' } }] }), 'PUT pipeline');
    for (const folder of ['bench-watch-in', 'bench-loop-in']) await send(server, 'PUT', `/documents/${folder}`);
    await ok(await send(server, 'PUT', '/watched-folders/bench', { folder: 'bench-watch-in', pipeline: { name: 'bench-stamp' }, target: 'bench-watch-out' }), 'bind');
    // Warm both paths.
    let expected = n;
    await watchedBatch(server, pdf, -1, n, expected);
    await clientBatch(server, pdf, -1, n);
    for (let i = 0; i < rounds; i++) {
      expected += n;
      if (i % 2 === 0) {
        ours.push(await watchedBatch(server, pdf, i, n, expected));
        peer.push(await clientBatch(server, pdf, i, n));
      } else {
        peer.push(await clientBatch(server, pdf, i, n));
        ours.push(await watchedBatch(server, pdf, i, n, expected));
      }
    }
    await send(server, 'DELETE', '/watched-folders/bench');
  } finally {
    await server.stop();
  }
  const ratio = median(ours) / median(peer);
  const ratios = ours.map((ms, i) => ms / peer[i]!).sort((a, b) => a - b);
  console.log(
    `watched: ${rounds} rounds of ${n} documents, watched folder median ${median(ours).toFixed(0)} ms (${Math.min(...ours).toFixed(0)}-${Math.max(...ours).toFixed(0)}), ` +
      `client loop median ${median(peer).toFixed(0)} ms (${Math.min(...peer).toFixed(0)}-${Math.max(...peer).toFixed(0)}); ratio ${ratio.toFixed(2)}x, ` +
      `per round ${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}x`,
  );
  return [
    {
      operation: `Watched folder: ${n} uploads until every output exists vs a client loop (PUT + PipelineAction each), interleaved`,
      size: `${n} x 3-page PDF, 2-step pipeline`,
      ...oursOf(ours),
      ...peerOf(peer, 'client loop: PUT + POST PipelineAction (savePath) per document, same service'),
      unit: 'ms',
      target: 'none (issue 44 asks for the comparison)',
      met: true,
    },
  ];
}
