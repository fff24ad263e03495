/**
 * One-shot conversion (issue 37, docs/api.md "One-shot conversions"): a DOCX converted by `POST /convert` (the PDF in
 * the answer, nothing stored) against the stored path a client uses for the same result, `PUT` of the DOCX with
 * `Prefer: wait` and then `GET` of the PDF. Both run against one warm service, interleaved (one of each per round,
 * the order alternating), so a loaded machine weighs on both alike. Target (issue 37): at most 1.0x the stored path.
 */
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { median, oursOf, peerOf, timed } from './lib.js';
import { benchDocx } from './office-fixtures.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function ok(reply: Response, what: string): Promise<Buffer> {
  const bytes = Buffer.from(await reply.arrayBuffer());
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`${what} answered ${reply.status}: ${bytes.toString('utf8').slice(0, 300)}`);
  return bytes;
}

/** The one-shot: the DOCX in, the PDF out; its time in ms. */
async function oneShot(server: TestServer, docx: Buffer): Promise<number> {
  const { ms, value: pdf } = await timed(async () => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(docx)], { type: DOCX }), 'bench.docx');
    return ok(await fetch(`${server.api}/convert`, { method: 'POST', headers: { authorization: server.adminAuth }, body }), 'POST /convert');
  });
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('POST /convert did not answer a PDF');
  return ms;
}

/** The stored path: PUT the DOCX (waiting for its conversion), then GET the PDF; its time in ms. */
async function stored(server: TestServer, docx: Buffer, i: number): Promise<number> {
  const url = `${server.api}/documents/bench-oneshot/stored-${i}.pdf`;
  const { ms, value: pdf } = await timed(async () => {
    await ok(await fetch(url, { method: 'PUT', headers: { authorization: server.adminAuth, 'content-type': DOCX, prefer: 'wait=600' }, body: new Uint8Array(docx) }), 'PUT');
    return ok(await fetch(url, { headers: { authorization: server.adminAuth, accept: 'application/pdf' } }), 'GET');
  });
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('GET did not answer a PDF');
  return ms;
}

export async function runOneShotBench(quick: boolean): Promise<Row[]> {
  const rounds = quick ? 3 : 15;
  const docx = benchDocx(4242, 3);
  // Shared with pages, OCR and office (default settings): LibreOffice's instances are warm from office's conversions.
  const server = await sharedServer();
  const ours: number[] = [];
  const peer: number[] = [];
  try {
    // Warm: LibreOffice's instances start with the first conversions, on both paths.
    await oneShot(server, docx);
    await stored(server, docx, -1);
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        ours.push(await oneShot(server, docx));
        peer.push(await stored(server, docx, i));
      } else {
        peer.push(await stored(server, docx, i));
        ours.push(await oneShot(server, docx));
      }
    }
  } finally {
    await server.stop();
  }
  const ratio = median(ours) / median(peer);
  const ratios = ours.map((ms, i) => ms / peer[i]!).sort((a, b) => a - b);
  console.log(
    `oneshot: ${rounds} rounds, one-shot median ${median(ours).toFixed(0)} ms (${Math.min(...ours).toFixed(0)}-${Math.max(...ours).toFixed(0)}), ` +
      `PUT+GET median ${median(peer).toFixed(0)} ms (${Math.min(...peer).toFixed(0)}-${Math.max(...peer).toFixed(0)}); ratio ${ratio.toFixed(2)}x, ` +
      `per round ${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}x`,
  );
  return [
    {
      operation: 'One-shot DOCX to PDF (POST /convert) vs upload then download (PUT + GET), interleaved',
      size: '3-page DOCX',
      ...oursOf(ours),
      ...peerOf(peer, 'PUT (Prefer: wait) + GET, same service'),
      unit: 'ms',
      target: '<= 1.0x the stored path',
      met: ratio <= 1.0,
    },
  ];
}
