/**
 * OptimizeAction on a large scan (issue 21: "a 300 MB scanned document is optimized within the memory bound of the
 * other operations without timing out (as a job)"). `--only=optimize-large`; the quick run uses a 60 MB file.
 * - Two scans, each generated reproducibly and streamed to disk page by page (writeScanDocument below), 300 dpi
 *   US Letter pages alternately colour and gray, each page one image: JPEG pages (text on grainy paper, as most
 *   scanners write: about 1.3 MB a page) and Flate pages (paper grain and lines of dark "words", scanPageSamples in
 *   test/helpers/optimize-fixtures.ts: about 8 MB a page).
 * - It is uploaded (streamed from the file) to a service child process with the default task timeout and 2 workers,
 *   and OptimizeAction `ebook` runs as a job (`Prefer: respond-async`), polled to its end.
 * - Reported: the job's duration, the output's size and ratio to the input, and the service's peak resident memory
 *   (VmHWM, the whole process: main thread and both workers) during the job alone (the high-water mark is reset after
 *   the upload through /proc/PID/clear_refs) and over upload plus job, against the bound docs/optimize.md states.
 * - Peer in the same row: Ghostscript `/ebook` on the same file (time and size), unless it runs past PEER_LIMIT_MS;
 *   the size row gives the mean SSIM of the first SSIM_PAGES pages rendered gray at 150 dpi against the original's,
 *   ours and Ghostscript's (all pages would add minutes to the run for pages made from the same 16 renders).
 * BENCH_OPTIMIZE_LARGE_MB sets another size (the default upload limit, 512 MiB, is the largest the service takes),
 * BENCH_OPTIMIZE_LARGE_KINDS the documents (`jpeg,flate,photos`; photos: issue 35's 100 MB album of 300 dpi JPEG photographs, its size
 * BENCH_OPTIMIZE_PHOTOS_MB, its memory target under 3x the file whatever its size).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { pdfFile, serializePdf, streamParts } from '../test/helpers/pdf-writer.js';
import type { TestServer } from '../test/helpers/server.js';
import { startServer } from './build.js';
import type { Row } from './annotations.js';
import { cachedFile, timed } from './lib.js';
import { fractalPhotoSamples, jpegOf, scanPageSamples } from '../test/helpers/optimize-fixtures.js';
import { ssim } from '../test/helpers/ssim.js';

const MB = 1024 * 1024;
const GiB = 1024 * MB;
/** 300 dpi US Letter. */
const WIDTH = 2550;
const HEIGHT = 3300;
/** Ghostscript gets this long; past it the row reports it as not finished. */
const PEER_LIMIT_MS = 15 * 60_000;

/** One page's image: its stream's dictionary entries (beyond size) and its encoded bytes. */
interface PageImage {
  entries: string;
  data: Buffer;
}

/** Flate pages: the grainy samples of scanPageSamples, alternately colour and gray, compressed at zlib's default level. */
export function flatePages(): (page: number) => PageImage {
  let seed = 0x2545f491;
  return (p) => {
    const components = p % 2 === 0 ? 3 : 1;
    const page = scanPageSamples(WIDTH, HEIGHT, components, seed);
    seed = page.seed;
    return { entries: `/ColorSpace /${components === 3 ? 'DeviceRGB' : 'DeviceGray'} /Filter /FlateDecode`, data: deflateSync(page.samples, { level: 6 }) };
  };
}

/**
 * JPEG pages, as most scanners write them: SOURCE_PAGES distinct pages of text on a grainy paper image, written by hand
 * as a PDF and rendered at 300 dpi by poppler (pdftoppm, JPEG quality 75, not MuPDF: the engine under test), each
 * once in colour and once in gray; the document cycles through them, and each page's copy carries its page number in
 * a JPEG comment so that no two image streams are identical (a scan has no duplicate pages to merge).
 */
const SOURCE_PAGES = 8;
const WORDS = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their invoice total account page report'.split(' ');

export function jpegPages(dir: string): (page: number) => PageImage {
  const rendered: PageImage[] = [];
  for (let k = 0; k < SOURCE_PAGES; k++) {
    let seed = 0x6d2b79f5 + k * 7919;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    // Paper grain at a quarter of the resolution, +-10 a sample: enlarged 6x by the render, it reads as paper texture.
    const grain = Buffer.alloc(425 * 550 * 3);
    for (let i = 0; i < grain.length; i++) grain[i] = [236, 231, 220][i % 3]! - 10 + (next() % 21);
    let text = 'BT /F1 10 Tf 0.15 g 72 740 Td 13 TL';
    for (let line = 0; line < 52; line++) {
      let words = '';
      while (words.length < 90) words += `${WORDS[next() % WORDS.length]} `;
      text += ` (${words}) '`;
    }
    text += ' ET';
    const content = `q 612 0 0 792 0 0 cm /G Do Q ${text}`;
    const grainData = deflateSync(grain);
    const source = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /G 5 0 R >> >> /Contents 6 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>',
      streamParts('/Type /XObject /Subtype /Image /Width 425 /Height 550 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode', grainData),
      streamParts('', content),
    ], '/Root 1 0 R');
    const sourceFile = path.join(dir, `source-${k}.pdf`);
    writeFileSync(sourceFile, source);
    for (const gray of [false, true]) {
      const base = path.join(dir, `source-${k}${gray ? '-gray' : ''}`);
      execFileSync('pdftoppm', ['-r', '300', ...(gray ? ['-gray'] : []), '-jpeg', '-jpegopt', 'quality=75', '-singlefile', sourceFile, base]);
      rendered.push({ entries: `/ColorSpace /${gray ? 'DeviceGray' : 'DeviceRGB'} /Filter /DCTDecode`, data: readFileSync(`${base}.jpg`) });
      rmSync(`${base}.jpg`);
    }
    rmSync(sourceFile);
  }
  return (p) => {
    const { entries, data } = rendered[p % rendered.length]!;
    // A COM segment right after SOI: its length counts its own two length bytes.
    const comment = Buffer.from(`scanned page ${p + 1}`, 'latin1');
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(comment.length + 2, 2);
    return { entries, data: Buffer.concat([data.subarray(0, 2), segment, comment, data.subarray(2)]) };
  };
}

/**
 * Photo pages (issue 35's 98.5 MB image PDF): PHOTO_SOURCES distinct photographs (fractalPhotoSamples, 300 dpi
 * Letter, JPEG at IJG 92 by ImageMagick: about 2.5 MB each), cycled, each copy with its own JPEG comment.
 */
const PHOTO_SOURCES = 4;

export function photoPages(): (page: number) => PageImage {
  const rendered: Buffer[] = [];
  for (let k = 0; k < PHOTO_SOURCES; k++) rendered.push(jpegOf(fractalPhotoSamples(WIDTH, HEIGHT, 101 + k), WIDTH, HEIGHT, 92));
  return (p) => {
    const data = rendered[p % rendered.length]!;
    const comment = Buffer.from(`photo ${p + 1}`, 'latin1');
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(comment.length + 2, 2);
    return { entries: '/ColorSpace /DeviceRGB /Filter /DCTDecode', data: Buffer.concat([data.subarray(0, 2), segment, comment, data.subarray(2)]) };
  };
}

/**
 * Writes a scanned document of about `megabytes` MB to `file`, page by page (one page's image in memory at a
 * time), and answers its size and page count: each page one 300 dpi image drawn full page, with a line of real
 * text at the foot as OCR'd scans have.
 */
export function writeScanDocument(file: string, megabytes: number, pageImage: (page: number) => PageImage): { bytes: number; pages: number } {
  const kids: number[] = [];
  const bytes = pdfFile(file, (pdf) => {
    pdf.object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
    // Pages until the size is reached; objects 4.. are (image, content, page) per page; the catalog and tree last.
    for (let p = 0; pdf.length < megabytes * 1e6; p++) {
      const { entries, data } = pageImage(p);
      const num = 4 + 3 * p;
      pdf.object(num, ...streamParts(`/Type /XObject /Subtype /Image /Width ${WIDTH} /Height ${HEIGHT} ${entries} /BitsPerComponent 8`, data));
      pdf.object(num + 1, ...streamParts('', `q 612 0 0 792 0 0 cm /Im0 Do Q BT /F1 9 Tf 72 24 Td (Scanned page ${p + 1}) Tj ET`));
      pdf.object(num + 2, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im0 ${num} 0 R >> >> /Contents ${num + 1} 0 R >>`);
      kids.push(num + 2);
    }
    pdf.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
    pdf.object(2, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
    pdf.end('/Root 1 0 R');
  });
  return { bytes, pages: kids.length };
}

/** Pages compared by SSIM: every distinct JPEG page (16) and as many Flate pages. */
const SSIM_PAGES = 16;

/** The first `pages` pages rendered gray by poppler at 150 dpi, as the optimize bench compares them. */
function grayRenders(file: string, pages: number): { width: number; height: number; data: Buffer }[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-render-'));
  try {
    execFileSync('pdftoppm', ['-gray', '-r', '150', '-f', '1', '-l', String(pages), file, path.join(dir, 'p')]);
    return readdirSync(dir).sort().map((name) => {
      const pgm = readFileSync(path.join(dir, name));
      const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'))!;
      return { width: Number(header[1]), height: Number(header[2]), data: pgm.subarray(header[0].length) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean SSIM of the first SSIM_PAGES pages of each file against the original's. */
function sampledSsim(original: ReturnType<typeof grayRenders>, other: string): number {
  const renders = grayRenders(other, SSIM_PAGES);
  if (renders.length !== original.length) return 0;
  return renders.reduce((sum, page, i) => sum + ssim(original[i]!, page), 0) / renders.length;
}

/** Peak resident memory of a process so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) * 1024 : NaN;
}

/** Resident memory of a process now (VmRSS), in bytes. */
function residentRss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) * 1024 : NaN;
}

/** Resets the process's VmHWM to its current RSS (Linux, "5" to clear_refs); false where that is not allowed. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export async function uploadFile(server: TestServer, doc: string, file: string): Promise<void> {
  const reply = await fetch(`${server.api}/documents/${doc}`, {
    method: 'PUT',
    headers: { authorization: server.adminAuth, 'content-type': 'application/pdf', 'content-length': String(statSync(file).size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await reply.text();
  if (reply.status >= 300) throw new Error(`upload answered ${reply.status}: ${text.slice(0, 300)}`);
}

interface JobView {
  id: string;
  state: string;
  progress?: { done: number; total: number; unit: string; percent: number };
  result?: { path: string };
  error?: { status: number; code: string; detail?: string };
}

/** OptimizeAction `ebook` as a job, polled every 100 ms to its end; answers the final job model. */
async function optimizeAsJob(server: TestServer, doc: string, out: string): Promise<JobView> {
  const auth = { authorization: server.adminAuth };
  const reply = await fetch(`${server.api}/documents/${doc}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ OptimizeAction: { profileName: 'ebook', savePath: out, namingMode: 1 } }),
  });
  const submitted = (await reply.json()) as JobView;
  if (reply.status !== 202) throw new Error(`OptimizeAction answered ${reply.status}: ${JSON.stringify(submitted).slice(0, 500)}`);
  let lastPercent = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const job = (await (await fetch(`${server.api}/jobs/${submitted.id}`, { headers: auth })).json()) as JobView;
    if (job.progress && job.progress.percent >= lastPercent + 10) {
      lastPercent = job.progress.percent;
      console.log(`  job ${job.state}: ${job.progress.done}/${job.progress.total} ${job.progress.unit} (${job.progress.percent}%)`);
    }
    if (!['queued', 'running'].includes(job.state)) return job;
  }
}

/** Ghostscript /ebook on the file, at most PEER_LIMIT_MS; answers its time and output size, or null past the limit. */
async function ghostscriptEbook(input: string, output: string): Promise<{ ms: number; bytes: number } | null> {
  try {
    const { ms } = await timed(() => new Promise<void>((resolve, reject) => {
      execFile('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${output}`, input], { timeout: PEER_LIMIT_MS, killSignal: 'SIGKILL' }, (error) => (error ? reject(error) : resolve()));
    }));
    return { ms, bytes: statSync(output).size };
  } catch (error) {
    console.log(`  Ghostscript /ebook did not finish within ${PEER_LIMIT_MS / 60_000} min or failed: ${(error as Error).message.slice(0, 200)}`);
    return null;
  }
}

/** The rows of one scan: generated, uploaded to a fresh service, optimized as a job, compared with Ghostscript. */
async function scanRows(dir: string, label: string, megabytes: number, pageImages: () => (page: number) => PageImage, options: { memoryTarget3x?: boolean } = {}): Promise<Row[]> {
  // The defaults that matter here stated, not inherited: 2 workers, the request (120 s) and job (30 min) task limits, a 512 MiB upload limit.
  const workers = 2;
  const server = await startServer({ env: { PDFSERVICE_WORKERS: String(workers), PDFSERVICE_TASK_TIMEOUT_MS: '120000', PDFSERVICE_JOB_TASK_TIMEOUT_MS: '1800000', PDFSERVICE_MAX_UPLOAD_BYTES: String(512 * MB), PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0', PDFSERVICE_WORKER_MAX_MEMORY_MB: process.env.PDFSERVICE_WORKER_MAX_MEMORY_MB ?? '128' } });
  try {
    // Written once and kept (bench/lib.ts cachedFile): a 300 MB scan takes minutes to generate.
    const generated = await timed(() => Promise.resolve(cachedFile(`scan-${label.toLowerCase()}`, { label, megabytes }, (file) => writeScanDocument(file, megabytes, pageImages()), ['./optimize-large.js'])));
    const input = generated.value;
    const bytes = statSync(input).size;
    const pages = Number(execFileSync('qpdf', ['--show-npages', input], { encoding: 'utf8' }).trim());
    console.log(`  ${label} scan: ${pages} pages, ${(bytes / 1e6).toFixed(1)} MB, ${generated.ms > 1000 ? `written in ${(generated.ms / 1000).toFixed(1)} s` : 'cached'}`);
    const pid = server.child.pid!;
    const doc = 'bench/optimize-large/scan.pdf';
    await uploadFile(server, doc, input);
    const afterUpload = peakRss(pid);
    const reset = resetPeakRss(pid);
    // The service at rest (main thread, idle workers with MuPDF loaded, the document stored): a fixed cost of any
    // request, reported beside what the job adds (docs/optimize.md, "Large documents").
    const resting = residentRss(pid);
    const { ms, value: job } = await timed(() => optimizeAsJob(server, doc, 'bench/optimize-large/scan-ebook.pdf'));
    const peak = peakRss(pid);
    if (job.state !== 'succeeded') throw new Error(`the OptimizeAction job ended ${job.state}: ${JSON.stringify(job.error ?? job).slice(0, 500)}`);
    const served = await fetch(`${server.api}/documents/bench/optimize-large/scan-ebook.pdf`, { headers: { authorization: server.adminAuth, accept: 'application/pdf' } });
    const oursFile = path.join(dir, 'scan-ours.pdf');
    writeFileSync(oursFile, Buffer.from(await served.arrayBuffer()));
    const outputBytes = statSync(oursFile).size;
    const bound = workers * 2 * GiB + GiB;
    const overall = Math.max(afterUpload, peak);
    console.log(`  ours: job ${(ms / 1000).toFixed(1)} s, ${bytes} -> ${outputBytes} bytes (${((outputBytes / bytes) * 100).toFixed(1)}%), ` +
      `peak RSS during the job ${(peak / MB).toFixed(0)} MB${reset ? '' : ' (VmHWM could not be reset: upload included)'}, with the upload ${(overall / MB).toFixed(0)} MB; at rest ${(resting / MB).toFixed(0)} MB, the job added ${((peak - resting) / MB).toFixed(0)} MB (${((peak - resting) / bytes).toFixed(2)}x the file); bound ${(bound / MB).toFixed(0)} MB`);
    const gsFile = path.join(dir, 'scan-gs.pdf');
    const gs = await ghostscriptEbook(input, gsFile);
    if (gs) console.log(`  Ghostscript /ebook: ${(gs.ms / 1000).toFixed(1)} s, ${gs.bytes} bytes (${((gs.bytes / bytes) * 100).toFixed(1)}%)`);
    const originalRenders = grayRenders(input, SSIM_PAGES);
    const oursSsim = sampledSsim(originalRenders, oursFile);
    const gsSsim = gs ? sampledSsim(originalRenders, gsFile) : NaN;
    const quality = `SSIM of pages 1-${SSIM_PAGES} ours ${oursSsim.toFixed(4)}${gs ? `, Ghostscript ${gsSsim.toFixed(4)}` : ''}`;
    console.log(`  ${quality}`);
    const size = `${label} scan, ${pages} pages at 300 dpi (${(bytes / 1e6).toFixed(0)} MB)`;
    const peerName = gs ? 'Ghostscript /ebook' : `Ghostscript /ebook (not finished in ${PEER_LIMIT_MS / 60_000} min)`;
    return [
      { operation: 'OptimizeAction ebook as a job, time (job task limit 30 min)', size, ours: ms, unit: 'ms', target: 'succeeds', met: true, ...(gs ? { peer: gs.ms } : {}), peerName },
      { operation: `OptimizeAction ebook as a job, output size (${quality})`, size, ours: outputBytes, unit: 'bytes', ...(gs ? { peer: gs.bytes, target: 'ratio <= 1.0, SSIM >= peer', met: outputBytes <= gs.bytes && oursSsim >= gsSsim } : {}), peerName },
      {
        operation: `OptimizeAction ebook as a job, service peak RSS (${reset ? 'job alone' : 'upload and job'}; with the upload ${(overall / MB).toFixed(0)} MB)`,
        size,
        ours: peak / MB,
        unit: 'MB',
        // Under 3x the file from 200 MB (where the reads are held to it, bench "Memory"); below, the fixed part (the service,
        // the pages the engine decodes) outweighs the file, and only the service's absolute bound applies.
        // Photos: issue 35's target (under 3x the file) at its size, 100 MB.
        target: bytes >= 200e6 || options.memoryTarget3x ? `under 3x the file and ${workers} workers x 2 GiB + 1 GiB` : `under ${workers} workers x 2 GiB + 1 GiB`,
        met: overall < (bytes >= 200e6 || options.memoryTarget3x ? Math.min(bound, 3 * bytes) : bound),
        peer: bytes / MB,
        peerName: 'file size',
      },
      ...(options.memoryTarget3x
        ? [{
            operation: `OptimizeAction ebook as a job, service peak RSS above the service at rest (${(resting / MB).toFixed(0)} MB, a fixed cost of every request)`,
            size,
            ours: (peak - resting) / MB,
            unit: 'MB',
            target: 'under 3x the file',
            met: peak - resting < 3 * bytes,
            peer: bytes / MB,
            peerName: 'file size',
          }]
        : []),
    ];
  } finally {
    await server.stop();
    for (const file of ['scan-ours.pdf', 'scan-gs.pdf']) rmSync(path.join(dir, file), { force: true });
  }
}

export async function runOptimizeLargeBench(quick: boolean): Promise<Row[]> {
  // Quick (a smoke test of the bench): 5 MB, a few pages of each kind (20 MB took 3 minutes at load 16).
  const megabytes = Number(process.env.BENCH_OPTIMIZE_LARGE_MB ?? (quick ? 5 : 300));
  // The quick run (a smoke test of the bench) takes one kind, the photographs of issue 35's target; each kind is a server
  // start, a job, Ghostscript and 16 renders compared, about 5 s on an idle machine.
  const kinds = (process.env.BENCH_OPTIMIZE_LARGE_KINDS ?? (quick ? 'photos' : 'jpeg,flate,photos')).split(',');
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-optimize-large-'));
  try {
    const rows: Row[] = [];
    if (kinds.includes('jpeg')) rows.push(...(await scanRows(dir, 'JPEG', megabytes, () => jpegPages(dir))));
    if (kinds.includes('flate')) rows.push(...(await scanRows(dir, 'Flate', megabytes, flatePages)));
    // The photo album of issue 35 (98.5 MB): 100 MB whatever the scans' size; the quick run's (a smoke test) the scans'.
    if (kinds.includes('photos')) rows.push(...(await scanRows(dir, 'Photo', Number(process.env.BENCH_OPTIMIZE_PHOTOS_MB ?? (quick ? megabytes : 100)), photoPages, { memoryTarget3x: true })));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
