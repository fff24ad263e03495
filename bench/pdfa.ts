/**
 * PDF/A conversion benchmark (issue 20): the 200-page bench document (text in Helvetica, not embedded, 20
 * annotations a page, images and a form) and a 20-page 300 dpi scan (5 pages with --quick) converted to PDF/A-2b by
 * PDFAConvertAction through the API, and by Ghostscript as its documentation describes (`-dPDFA=2
 * -sColorConversionStrategy=RGB` with its PDFA_def.ps pointed at an sRGB profile), in the same run. Ours includes
 * the service's own veraPDF check of its output, which the peer does not make. Both outputs are then judged by
 * veraPDF (the service's preflight route), side by side: speed counts only for files that pass.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { degrade, imageOnlyPdf, knownText, readPgm, renderPages, textPdf } from './ocr-fixtures.js';
import { cachedFixture, median, oursOf, peerOf, timeCommand, timed, uploadPdf } from './lib.js';

const PROFILE = 'pdfa2b';
const SRGB = '/usr/share/color/icc/ghostscript/srgb.icc';

/** Ghostscript's version and its PDFA_def.ps, pointed at the sRGB profile Ghostscript ships (the documented set-up). */
function ghostscriptPeer(dir: string): { name: string; definition: string } {
  const version = execFileSync('gs', ['--version']).toString().trim();
  const libs = readdirSync('/usr/share/ghostscript').map((v) => path.join('/usr/share/ghostscript', v, 'lib', 'PDFA_def.ps'));
  const original = libs.map((file) => { try { return readFileSync(file, 'latin1'); } catch { return null; } }).find((text) => text !== null);
  if (!original) throw new Error('Ghostscript\'s PDFA_def.ps was not found under /usr/share/ghostscript');
  const definition = path.join(dir, 'PDFA_def.ps');
  // The file's one setting a user must make: the ICC profile, as an absolute path (DESIGN.md: -dSAFER needs one).
  writeFileSync(definition, original.replace(/\/ICCProfile\s*\([^)]*\)/, `/ICCProfile (${SRGB})`), 'latin1');
  return { name: `gs ${version} -dPDFA=2 -sColorConversionStrategy=RGB`, definition };
}

function convertWithGhostscript(definition: string, input: string, output: string): Promise<number> {
  return timeCommand('gs', ['-dPDFA=2', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-dSAFER', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB', '-sDEVICE=pdfwrite',
    `--permit-file-read=${SRGB}`, `-sOutputFile=${output}`, definition, input]);
}

/** PDFAConvertAction on a stored document into `out`, waited for inline; throws unless it wrote the file. */
async function convertThroughApi(server: TestServer, doc: string, out: string): Promise<void> {
  const reply = await fetch(`${server.api}/documents/${doc}`, {
    method: 'POST',
    headers: { authorization: server.adminAuth, 'content-type': 'application/json', prefer: 'wait=900' },
    body: JSON.stringify({ PDFAConvertAction: { profile: PROFILE, savePath: out, namingMode: 1 } }),
  });
  const text = await reply.text();
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`PDFAConvertAction answered ${reply.status}: ${text.slice(0, 800)}`);
}

/** veraPDF's verdict on a stored document, through the service's preflight route. */
async function passes(server: TestServer, doc: string): Promise<boolean> {
  const reply = await fetch(`${server.api}/documents/${doc}/preflight-results?profile=${PROFILE}`, { headers: { authorization: server.adminAuth } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`preflight answered ${reply.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { compliant: boolean }).compliant;
}

function scan(dir: string, pages: number): Buffer {
  const textFile = path.join(dir, 'text.pdf');
  writeFileSync(textFile, textPdf(knownText(pages)));
  return imageOnlyPdf(renderPages(textFile, dir, 'page', 300).map((file, i) => degrade(readPgm(file), i)), 300);
}

export async function runPdfaBench(quick: boolean): Promise<Row[]> {
  const runs = quick ? 1 : 3;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-pdfa-'));
  // Text prefetching off, as in the other benchmarks' servers: it would extract every page's text on both cores right
  // after each upload, while the conversion runs.
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  try {
    const peer = ghostscriptPeer(dir);
    const auth = { authorization: server.adminAuth };
    // One untimed conversion first, as a running service has had: veraPDF's JVM is started and warm.
    await uploadPdf(`${server.api}/documents/bench/pdfa-warm.pdf`, auth, makeBenchDocument(1));
    await convertThroughApi(server, 'bench/pdfa-warm.pdf', 'bench/pdfa-warm-out.pdf');
    const inputs = [
      // Quick (a smoke test of the bench): 1 page and a 2-page scan. The scan is made once and kept (bench/lib.ts).
      { label: `${quick ? '1 page' : '200 pages'}, text, annotations, images, form`, key: 'text', pdf: makeBenchDocument(quick ? 1 : 200) },
      { label: `${quick ? 2 : 20}-page scan, 300 dpi`, key: 'scan', pdf: cachedFixture('pdfa-scan', { pages: quick ? 2 : 20 }, () => scan(dir, quick ? 2 : 20), ['./pdfa.js']) },
    ];
    const rows: Row[] = [];
    const verdicts = { ours: 0, peer: 0 };
    for (const input of inputs) {
      const inputFile = path.join(dir, `${input.key}.pdf`);
      writeFileSync(inputFile, input.pdf);
      const ours: number[] = [];
      const theirs: number[] = [];
      // Ours and the peer alternate, so that other work on the shared machine weighs on both alike.
      for (let i = 0; i < runs; i++) {
        const doc = `bench/pdfa-${input.key}-${i}.pdf`;
        await uploadPdf(`${server.api}/documents/${doc}`, auth, input.pdf);
        ours.push((await timed(() => convertThroughApi(server, doc, `bench/pdfa-${input.key}-${i}-out.pdf`))).ms);
        theirs.push(await convertWithGhostscript(peer.definition, inputFile, path.join(dir, `${input.key}-gs-${i}.pdf`)));
      }
      const oursPass = await passes(server, `bench/pdfa-${input.key}-0-out.pdf`);
      await uploadPdf(`${server.api}/documents/bench/pdfa-${input.key}-gs.pdf`, auth, readFileSync(path.join(dir, `${input.key}-gs-0.pdf`)));
      const peerPass = await passes(server, `bench/pdfa-${input.key}-gs.pdf`);
      verdicts.ours += oursPass ? 1 : 0;
      verdicts.peer += peerPass ? 1 : 0;
      rows.push({
        operation: `PDF/A-2b conversion, time (veraPDF: ours ${oursPass ? 'pass' : 'FAIL'}, peer ${peerPass ? 'pass' : 'fail'})`,
        size: input.label,
        ...oursOf(ours.map((ms) => ms / 1000)),
        ...peerOf(theirs.map((ms) => ms / 1000), peer.name),
        unit: 's',
        target: 'ratio <= 1.5',
        met: oursPass && median(ours) <= 1.5 * median(theirs),
      });
    }
    rows.push({
      operation: 'PDF/A-2b conversion, outputs veraPDF passes',
      size: `${inputs.length} documents`,
      ours: (100 * verdicts.ours) / inputs.length,
      peer: (100 * verdicts.peer) / inputs.length,
      peerName: peer.name,
      unit: '%',
      target: '100%',
      met: verdicts.ours === inputs.length,
    });
    return rows;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
