/**
 * Memory of PDFAConvertAction on a large image document (issue 35, item 8: a 98.5 MB image PDF peaked at 933 MB in
 * the service plus 207 MB in veraPDF's JVM; the target is under 3x the file). `--only=pdfa-memory`.
 * - The document is generated reproducibly and streamed to disk page by page (writeScanDocument of
 *   bench/optimize-large.ts): US Letter pages each drawing one 300 dpi photograph-like JPEG (smooth colour fields with
 *   grain, rendered by poppler's pdftoppm from a source built here, not by MuPDF, the engine under test; PHOTOS
 *   distinct ones, each page's copy marked by a JPEG comment so no two streams are alike) and a caption line. Two of
 *   them, one per conversion path: the caption in Helvetica, not embedded (the preparation embeds its substitute: the
 *   MuPDF path), and in Verdana, not embedded (no substitute: the Ghostscript path).
 * - Each is uploaded to a fresh service (so veraPDF's JVM starts for this conversion) and converted to PDF/A-2b as a
 *   job. Reported: the peak resident memory (VmHWM) of the service (main thread and workers) during the job alone
 *   (reset after the upload through /proc/PID/clear_refs), plus the peaks of the programs it ran meanwhile (veraPDF's
 *   JVM, Ghostscript), sampled every 50 ms, against the peer: Ghostscript's own PDF/A-2b run on the same file
 *   (`gs -dPDFA=2`, its peak sampled the same way).
 *   A second memory row gives what the conversion added: the service's peak above its memory at rest (after the
 *   upload, main thread and idle workers with MuPDF loaded), plus the programs' peaks. A third, the headline
 *   (docs/pdfa.md "Memory"): the largest resident memory of the service and its programs at one moment (their VmRSS
 *   summed in each 50 ms sample), above the service at rest.
 * BENCH_PDFA_MEMORY_MB sets the size (default 100 MB, 40 with --quick).
 */
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { serializePdf, streamParts } from '../test/helpers/pdf-writer.js';
import { descendants } from '../test/helpers/processes.js';
import type { TestServer } from '../test/helpers/server.js';
import { startServer } from './build.js';
import type { Row } from './annotations.js';
import { cachedFile, timed, uploadPdf } from './lib.js';
import { writeScanDocument } from './optimize-large.js';

const MB = 1024 * 1024;
const PHOTOS = 6;
const SRGB = '/usr/share/color/icc/ghostscript/srgb.icc';

/** A reproducible random source (xorshift32). */
function random(seed: number): () => number {
  return () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
}

/**
 * PHOTOS distinct 300 dpi US Letter photographs as JPEG (quality 92, about 2.5 MB each): a third-resolution field of
 * overlapping colour waves with grain, drawn full page with interpolation and rendered by pdftoppm.
 */
function photographs(dir: string): Buffer[] {
  const [w, h] = [850, 1100];
  return Array.from({ length: PHOTOS }, (_, k) => {
    const next = random(0x9e3779b9 + k * 7919);
    const waves = [0, 1, 2].map(() => [0, 1, 2, 3].map(() => [(next() % 100) / 700, (next() % 100) / 700, (next() % 628) / 100] as const));
    const samples = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 3; c++) {
          let v = 128;
          for (const [a, b, phase] of waves[c]!) v += 30 * Math.sin(a * x + b * y + phase);
          samples[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, v + (next() % 41) - 20));
        }
      }
    }
    const data = deflateSync(samples);
    const content = 'q 612 0 0 792 0 0 cm /P Do Q';
    const source = path.join(dir, `photo-${k}.pdf`);
    writeFileSync(source, serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /P 4 0 R >> >> /Contents 5 0 R >>',
      streamParts(`/Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Interpolate true /Filter /FlateDecode`, data),
      streamParts('', content),
    ], '/Root 1 0 R'));
    const base = path.join(dir, `photo-${k}`);
    execFileSync('pdftoppm', ['-r', '300', '-jpeg', '-jpegopt', 'quality=92', '-singlefile', source, base]);
    const jpeg = readFileSync(`${base}.jpg`);
    rmSync(`${base}.jpg`);
    rmSync(source);
    return jpeg;
  });
}

/** Each page's image: one of the photographs, its copy marked by a JPEG comment (a COM segment right after SOI). */
function photoPages(photos: Buffer[]): (page: number) => { entries: string; data: Buffer } {
  return (p) => {
    const photo = photos[p % photos.length]!;
    const comment = Buffer.from(`photograph page ${p + 1}`, 'latin1');
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(comment.length + 2, 2);
    return { entries: '/ColorSpace /DeviceRGB /Filter /DCTDecode', data: Buffer.concat([photo.subarray(0, 2), segment, comment, photo.subarray(2)]) };
  };
}

/**
 * The caption's font made Verdana, not embedded, in place: writeScanDocument writes Helvetica (which the preparation
 * substitutes: the MuPDF path); Verdana has no substitute of the service's, so the document takes the Ghostscript
 * path. The same number of bytes, so no offset moves.
 */
function captionInVerdana(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    const head = Buffer.alloc(512);
    readSync(fd, head, 0, head.length, 0);
    const from = '/Subtype /Type1 /BaseFont /Helvetica';
    const at = head.indexOf(from);
    if (at < 0) throw new Error('the caption font was not found');
    writeSync(fd, Buffer.from('/Subtype /TrueType /BaseFont /Verdana'.padEnd(from.length, ' '), 'latin1'), 0, from.length, at);
  } finally {
    closeSync(fd);
  }
}

/** A memory field of a process's status (VmHWM: its peak, VmRSS: now) in bytes, or 0 once it is gone. */
function statusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const highWater = (pid: number) => statusBytes(pid, 'VmHWM');
const resident = (pid: number) => statusBytes(pid, 'VmRSS');

/** The program a process runs (/proc/PID/exe), or undefined when it is gone. */
function executable(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/**
 * Samples, every 50 ms until `stop` resolves, the peak of each process below `root` (by command name: the largest
 * process of each name, e.g. the JVM, Ghostscript), in bytes; and `together`, the largest resident memory of `root`
 * and all its programs at one moment (the sum of their VmRSS in one sample): the memory the machine had to have at
 * once, which the sum of each process's own peak overstates when the peaks do not overlap (the service's during
 * MuPDF's save, veraPDF's JVM after it).
 */
async function sampleChildren(root: number, until: Promise<unknown>): Promise<{ byName: Map<string, number>; together: number; atPeak: string }> {
  const peaks = new Map<number, { comm: string; bytes: number }>();
  let together = 0;
  // Who held what in the sample of the peak at one moment (where to look next).
  let atPeak = '';
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const program = executable(root);
  while (!done) {
    let now = resident(root);
    const parts = [`service ${(now / MB).toFixed(0)}`];
    for (const [pid, comm] of descendants(root)) {
      // A child that has not yet run its program is the service forked (Node's spawn): its pages are the service's,
      // shared copy-on-write, and counting them counted the service twice (a sample held "MainThread 187 MB").
      if (executable(pid) === program) continue;
      const bytes = highWater(pid);
      const held = resident(pid);
      now += held;
      parts.push(`${comm} ${(held / MB).toFixed(0)}`);
      if (bytes > (peaks.get(pid)?.bytes ?? 0)) peaks.set(pid, { comm, bytes });
    }
    if (now > together) {
      together = now;
      atPeak = parts.join(', ');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const byName = new Map<string, number>();
  for (const { comm, bytes } of peaks.values()) byName.set(comm, Math.max(byName.get(comm) ?? 0, bytes));
  return { byName, together, atPeak };
}

/** Ghostscript's own PDF/A-2b conversion of `input` (its PDFA_def.ps pointed at its sRGB profile): time and peak memory. */
async function ghostscriptPeer(dir: string, input: string): Promise<{ ms: number; peak: number }> {
  const lib = readdirSync('/usr/share/ghostscript').map((v) => path.join('/usr/share/ghostscript', v, 'lib', 'PDFA_def.ps')).find((file) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
  if (!lib) throw new Error('Ghostscript\'s PDFA_def.ps was not found under /usr/share/ghostscript');
  const definition = path.join(dir, 'PDFA_def.ps');
  writeFileSync(definition, readFileSync(lib, 'latin1').replace(/\/ICCProfile\s*\([^)]*\)/, `/ICCProfile (${SRGB})`), 'latin1');
  const args = ['-dPDFA=2', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-dSAFER', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB', '-sDEVICE=pdfwrite',
    `--permit-file-read=${SRGB}`, `-sOutputFile=${path.join(dir, 'gs-out.pdf')}`, definition, input];
  let peak = 0;
  const { ms } = await timed(() => new Promise<void>((resolve, reject) => {
    const child = spawn('gs', args, { stdio: 'ignore' });
    const timer = setInterval(() => {
      peak = Math.max(peak, highWater(child.pid!));
    }, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve();
      else reject(new Error(`gs exited with ${code}`));
    });
  }));
  rmSync(path.join(dir, 'gs-out.pdf'), { force: true });
  return { ms, peak };
}

/** PDFAConvertAction to PDF/A-2b as a job, polled every 200 ms to its end; answers the final job model. */
async function convertAsJob(server: TestServer, doc: string, out: string): Promise<{ state: string; result?: { document?: { report?: { pipeline?: string } } }; error?: unknown }> {
  const auth = { authorization: server.adminAuth };
  const reply = await fetch(`${server.api}/documents/${doc}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ PDFAConvertAction: { profile: 'pdfa2b', savePath: out, namingMode: 1 } }),
  });
  const submitted = (await reply.json()) as { id: string };
  if (reply.status !== 202) throw new Error(`PDFAConvertAction answered ${reply.status}: ${JSON.stringify(submitted).slice(0, 500)}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const job = (await (await fetch(`${server.api}/jobs/${submitted.id}`, { headers: auth })).json()) as { state: string; result?: { document?: { report?: { pipeline?: string } } } };
    if (!['queued', 'running'].includes(job.state)) return job;
  }
}

/** One document: generated, uploaded to a fresh service, converted as a job, then converted by Ghostscript alone. */
async function documentRows(dir: string, label: string, verdana: boolean, megabytes: number, photos: () => Buffer[], starting: Promise<TestServer>): Promise<Row[]> {
  // Written once and kept (bench/lib.ts cachedFile).
  const input = cachedFile(`pdfa-photos${verdana ? '-verdana' : ''}`, { megabytes, verdana }, (file) => {
    writeScanDocument(file, megabytes, photoPages(photos()));
    if (verdana) captionInVerdana(file);
  }, ['./pdfa-memory.js', './optimize-large.js']);
  const bytes = statSync(input).size;
  const pages = Number(execFileSync('qpdf', ['--show-npages', input], { encoding: 'utf8' }).trim());
  const server = await starting;
  try {
    const pid = server.child.pid!;
    await uploadPdf(`${server.api}/documents/bench/photos.pdf`, { authorization: server.adminAuth }, readFileSync(input));
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    // The service at rest (main thread and workers, MuPDF loaded, the document stored): what any request starts from.
    const resting = highWater(pid);
    const job = convertAsJob(server, 'bench/photos.pdf', 'bench/photos-pdfa.pdf');
    const children = sampleChildren(pid, job);
    const { ms, value: ended } = await timed(() => job);
    const service = highWater(pid);
    const { byName: programs, together, atPeak } = await children;
    if (ended.state !== 'succeeded') throw new Error(`the PDFAConvertAction job ended ${ended.state}: ${JSON.stringify(ended.error ?? ended).slice(0, 500)}`);
    const pipeline = ended.result?.document?.report?.pipeline ?? '?';
    const jvm = programs.get('java') ?? 0;
    const gs = programs.get('gs') ?? 0;
    const total = service + jvm + gs;
    // What the conversion itself added: the service's peak above its memory at rest, and the programs it ran (the JVM
    // starts for this job on a fresh service, so all of it counts).
    const added = service - resting + jvm + gs;
    // The headline (docs/pdfa.md "Memory"): the most the service and its programs held at one moment, above the
    // service at rest (a fixed cost of any request, reported beside it).
    const atOnce = together - resting;
    const peer = await ghostscriptPeer(dir, input);
    const size = `${label}: ${pages} pages of 300 dpi photographs (${(bytes / 1e6).toFixed(1)} MB)`;
    console.log(`  ${size}: ${pipeline} path in ${(ms / 1000).toFixed(1)} s; service at rest ${(resting / MB).toFixed(0)} MB; peak service ${(service / MB).toFixed(0)} MB, veraPDF JVM ${(jvm / MB).toFixed(0)} MB, ` +
      `Ghostscript ${(gs / MB).toFixed(0)} MB: ${(total / MB).toFixed(0)} MB (${(total / bytes).toFixed(2)}x the file), ${(added / MB).toFixed(0)} MB above rest (${(added / bytes).toFixed(2)}x); at one moment ${(together / MB).toFixed(0)} MB (${atPeak} MB), ${(atOnce / MB).toFixed(0)} MB above rest (${(atOnce / bytes).toFixed(2)}x); gs -dPDFA=2 alone ${(peer.ms / 1000).toFixed(1)} s, ${(peer.peak / MB).toFixed(0)} MB`);
    // A memory row: `what` the figure holds, against Ghostscript alone and the target.
    const memoryRow = (what: string, figure: number): Row => ({
      operation: `PDF/A-2b conversion as a job, peak memory${what} + veraPDF JVM ${(jvm / MB).toFixed(0)} + Ghostscript ${(gs / MB).toFixed(0)} MB (${pipeline} path)`,
      size,
      ours: figure / MB,
      unit: 'MB',
      peer: peer.peak / MB,
      peerName: 'gs -dPDFA=2 alone (peak RSS)',
      target: `under 3x the file (${((3 * bytes) / MB).toFixed(0)} MB)`,
      met: figure < 3 * bytes,
    });
    return [
      memoryRow(`: service ${(service / MB).toFixed(0)} (at rest ${(resting / MB).toFixed(0)})`, total),
      memoryRow(` above the service at rest: service +${((service - resting) / MB).toFixed(0)}`, added),
      {
        ...memoryRow('', atOnce),
        operation: `PDF/A-2b conversion as a job, peak memory at one moment (service and its programs, sampled every 50 ms) above the service at rest (${(resting / MB).toFixed(0)} MB; ${(together / MB).toFixed(0)} MB in all) (${pipeline} path)`,
      },
      { operation: `PDF/A-2b conversion as a job, time (${pipeline} path)`, size, ours: ms / 1000, unit: 's', peer: peer.ms / 1000, peerName: 'gs -dPDFA=2 alone' },
    ];
  } finally {
    await server.stop();
  }
}

/** A fresh service for one document's conversion (its memory is measured from its start). */
function startFresh(): Promise<TestServer> {
  return startServer({ env: { PDFSERVICE_TASK_TIMEOUT_MS: '600000', PDFSERVICE_JOB_TASK_TIMEOUT_MS: '1800000', PDFSERVICE_MAX_UPLOAD_BYTES: String(512 * MB), PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0', PDFSERVICE_WORKER_MAX_MEMORY_MB: process.env.PDFSERVICE_WORKER_MAX_MEMORY_MB ?? '128' } });
}

export async function runPdfaMemoryBench(quick: boolean): Promise<Row[]> {
  // Quick (a smoke test of the bench): 5 MB, a few pages.
  const megabytes = Number(process.env.BENCH_PDFA_MEMORY_MB ?? (quick ? 5 : 100));
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-pdfa-memory-'));
  try {
    let drawn: Buffer[] | undefined;
    const photos = () => (drawn ??= photographs(dir));
    // Quick: both services start at once (a start took seconds of the module's time; issue 38, the bench's time). The
    // second waits at rest while the first document is measured: memory is per process, and a smoke test's times are
    // not compared. A full run starts the second after the first has stopped, so no start overlaps a measurement.
    const first = startFresh();
    const second = quick ? startFresh() : undefined;
    // Its failure is the second document's, when it gets there (not an unhandled rejection meanwhile).
    second?.catch(() => undefined);
    // A second service started but never used (the first document failed) is stopped.
    const rows: Row[] = [];
    try {
      rows.push(...(await documentRows(dir, 'caption in Helvetica, not embedded', false, megabytes, photos, first)));
    } catch (error) {
      void second?.then((server) => server.stop(), () => undefined);
      throw error;
    }
    rows.push(...(await documentRows(dir, 'caption in Verdana, not embedded', true, megabytes, photos, second ?? startFresh())));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
