import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import type { ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * qpdf, for LinearizeAction (docs/optimize.md#linearizeaction). Debian's qpdf
 * through the supervisor rather than @neslinesli93/qpdf-wasm in the engine
 * workers, measured on the 200-page bench document (4.3 MB, 2 cores): the CLI
 * 0.86 s and 61 MB resident in its own process; the WASM build 0.78 to 0.94 s
 * warm, the same speed, but its input and output live in the worker's heap
 * and its memory in the worker's WASM instance, which grows and never shrinks
 * (a 2 GiB limit shared with nothing else there), and it would hold an engine
 * worker that MuPDF tasks wait for. The process reads and writes files, its
 * memory goes when it exits, a timeout kills it, and it needs no new npm
 * dependency. A PDF is untrusted input to a large C++ program, so it runs in the
 * bubblewrap sandbox (no network, only system files and its scratch folder).
 */
export const QPDF = 'qpdf';

export function qpdf(timeoutMs: number, concurrency: number): ToolDeclaration {
  return {
    name: QPDF,
    command: 'qpdf',
    debianPackage: 'qpdf',
    purpose: 'Linearization',
    versionProbe: { args: ['--version'], pattern: /qpdf version (\S+)/ },
    concurrency,
    timeoutMs,
    lifetime: { kind: 'per-run' },
    scratch: 'qpdf-scratch',
    sandbox: { readOnly: [] },
  };
}

export interface LinearizeOutput {
  pdf: Buffer;
  /** qpdf's warnings (it repaired something as it read the file), at most 20. */
  warnings: string[];
}

/**
 * `qpdf --linearize`: the same objects, reordered for page-at-a-time loading,
 * with hint tables; stream data, object streams and encryption are kept as they are (an
 * encrypted document is read with `password` and written with the same
 * encryption). The password goes through a file in the run's scratch folder,
 * never on the command line, where other processes could read it.
 */
export function linearize(
  tools: ToolSupervisor,
  options: { pdf: Uint8Array; password?: string | undefined; signal?: AbortSignal | undefined; restream?: boolean },
): Promise<LinearizeOutput> {
  return tools.run(QPDF, async ({ scratch, exec }) => {
    await writeFile(path.join(scratch, 'in.pdf'), options.pdf);
    // --stream-data=preserve: streams are copied as they are (qpdf's default would decompress and recompress some and
    // compress uncompressed ones); shrinking is OptimizeAction's work, this one only reorders. `restream`: qpdf's
    // default, where preserving writes a broken file (embedded files encrypted apart, linearize.ts in the engine).
    const args = options.restream ? ['--linearize'] : ['--linearize', '--stream-data=preserve'];
    if (options.password) {
      await writeFile(path.join(scratch, 'password'), options.password, { mode: 0o600 });
      args.push('--password-file=password');
    }
    // Exit code 3: written, with warnings (qpdf repaired what it read); 2: errors, nothing usable.
    const result = await exec([...args, 'in.pdf', 'out.pdf']);
    let pdf: Buffer;
    try {
      pdf = await readFile(path.join(scratch, 'out.pdf'));
    } catch {
      pdf = Buffer.alloc(0);
    }
    if ((result.code !== 0 && result.code !== 3) || pdf.length === 0) {
      const said = (result.stderr || result.stdout).split('\n').map((l) => l.replace(/^qpdf:\s*/, '').replace(/^in\.pdf[:\s]*/, '').trim()).find(Boolean);
      throw new ServiceError('PROCESSING_FAILED', `qpdf could not linearize the document: ${said?.slice(0, 200) ?? `exit code ${result.code}`}`);
    }
    const warnings = [...new Set((result.stderr + result.stdout).split('\n').map((l) => l.replace(/^WARNING:\s*/, '').replace(/^in\.pdf[:\s]*/, '').trim()).filter(Boolean))].slice(0, 20);
    return { pdf, warnings };
  }, options.signal);
}
