import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../errors.js';
import type { OpenFile } from '../open-file.js';
import { copyOutput, writeInput } from './input-file.js';
import type { ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * Ghostscript's pdfwrite, for PDFAConvertAction (docs/pdfa.md): it embeds the
 * fonts a document only names (the standard 14 from fonts-urw-base35, metric
 * compatible), converts colours to the sRGB output intent, writes the XMP
 * with pdfaid, the Info mirrored there and the trailer ID, and flattens what
 * PDF/A-1 forbids. A PDF is untrusted input to a large C program, so it runs
 * in the bubblewrap sandbox (no network, only system files and its scratch
 * folder) with -dSAFER. Measured on this machine (2 cores, gs 10.0): the
 * 14-page tracemonkey paper in 0.8 s and 37 MB, a one-page text file in 0.1 s;
 * one process per core, as each is single-threaded.
 */
export const GHOSTSCRIPT = 'ghostscript';

/** Our definition file (assets/ghostscript/PDFA_def.ps), by absolute path: -dSAFER reads only what it is pointed at. */
export const PDFA_DEF = fileURLToPath(new URL('../../../assets/ghostscript/PDFA_def.ps', import.meta.url));

/** The sRGB profile of Debian's icc-profiles-free, the output intent of every conversion. */
export const SRGB_ICC = '/usr/share/color/icc/sRGB.icc';

export function ghostscript(timeoutMs: number, concurrency: number): ToolDeclaration {
  return {
    name: GHOSTSCRIPT,
    command: 'gs',
    debianPackage: 'ghostscript',
    purpose: 'PDF/A conversion',
    versionProbe: { args: ['--version'] },
    concurrency,
    timeoutMs,
    lifetime: { kind: 'per-run' },
    scratch: 'gs-scratch',
    // Its resources and fonts are under /usr; its font maps under /etc; our definition file and profile by path.
    sandbox: { readOnly: ['/etc/ghostscript', '/var/lib/ghostscript', '/etc/fonts', '/var/cache/fontconfig', path.dirname(PDFA_DEF)] },
  };
}

/** PDF/A parts Ghostscript writes (the conformance level, b or u, is the same output: Unicode maps are always written). */
export type PdfaPart = 1 | 2 | 3;

export interface GhostscriptOutput {
  /** The size of the output, written into the caller's file (`into`). */
  size: number;
  /** Ghostscript's distinct warnings (what it changed or dropped for PDF/A), at most 20. */
  warnings: string[];
}

/**
 * Rewrites `pdf` (unencrypted) as PDF/A-`part` with the sRGB output intent.
 * Images: JPEG and JPEG 2000 pass through as they are; other images are
 * written Flate or CCITT (lossless), never downsampled. Overprint and
 * transparency are what -dPDFACompatibilityPolicy=1 makes of them (dropped
 * where the part forbids them; PDFAConvertAction refuses transparency for
 * PDF/A-1 first when asked to).
 */
export function convertToPdfa(
  tools: ToolSupervisor,
  options: { pdf: Uint8Array | OpenFile; part: PdfaPart; into: { fd: number }; edit?: (window: Buffer) => void; signal?: AbortSignal | undefined },
): Promise<GhostscriptOutput> {
  return tools.run(GHOSTSCRIPT, async ({ scratch, exec }) => {
    await writeInput(path.join(scratch, 'in.pdf'), options.pdf);
    const result = await exec([
      '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pdfwrite',
      `-dPDFA=${options.part}`, '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB',
      // PDF/A-1: the preparation has made the document's transparency opaque already; what Ghostscript would still blend is
      // a Highlight it draws itself (none has an appearance in PDF/A-1), and blending made it draw the whole page, text and
      // all, as one image. Without transparency it keeps the Highlight as an annotation, for viewers to draw, as the MuPDF path.
      ...(options.part === 1 ? ['-dNOTRANSPARENCY'] : []),
      // Images kept: lossless filters, no downsampling, JPEGs as they are.
      '-dAutoFilterColorImages=false', '-dAutoFilterGrayImages=false', '-sColorImageFilter=FlateEncode', '-sGrayImageFilter=FlateEncode',
      '-dDownsampleColorImages=false', '-dDownsampleGrayImages=false', '-dDownsampleMonoImages=false',
      '-dPassThroughJPEGImages=true', '-dPassThroughJPXImages=true',
      `-sPDFA_ICC=${SRGB_ICC}`, '-dPDFA_ICC_N=3', `--permit-file-read=${SRGB_ICC}`,
      '-sOutputFile=out.pdf', PDFA_DEF, 'in.pdf',
    ]);
    // The output goes into the caller's file as it is read (its dates and the caller's edits made on the way), never
    // held whole: a 100 MB output was 100 MB more in the service (issue 35, item 8).
    let size = 0;
    if (result.code === 0) {
      try {
        size = await copyOutput(path.join(scratch, 'out.pdf'), options.into, (window) => {
          utcDates(window);
          options.edit?.(window);
        });
      } catch {
        size = 0;
      }
    }
    if (size === 0) {
      throw new ServiceError('PROCESSING_FAILED', `Ghostscript could not convert the document: ${firstLine(result.stderr || result.stdout) || `exit code ${result.code}`}`);
    }
    return { size, warnings: distinctWarnings(`${result.stdout}\n${result.stderr}`) };
  }, options.signal);
}

/**
 * Ghostscript 10.0 run in UTC (as the sandbox is) writes Info dates as
 * D:20261126005819Z00'00', which PDFBox Preflight reads as not matching the
 * XMP's 2026-11-26T00:58:19Z (test/tools/pdfa-convert.test.ts found it); the same
 * instant as +00'00' matches. Changed in place, one character for one, so no
 * offset of the file moves.
 */
function utcDates(pdf: Buffer): void {
  // Searched in the bytes, not in a string (which would be a copy); `pdf` is a window of the output (copyOutput), and
  // a date spans far fewer bytes than windows share. An edited date no longer matches.
  const DIGITS = 14;
  for (let at = pdf.indexOf("Z00'00')"); at >= 0; at = pdf.indexOf("Z00'00')", at + 1)) {
    const start = at - DIGITS - 3;
    if (start < 0 || pdf.toString('latin1', start, start + 3) !== '(D:' || !/^\d{14}$/.test(pdf.toString('latin1', start + 3, at))) continue;
    pdf.write('+', at, 'latin1');
  }
}

function distinctWarnings(output: string): string[] {
  const seen = new Set<string>();
  for (const line of output.split('\n')) {
    const text = line.replace(/^\s*GPL Ghostscript [\d.]+:\s*/, '').trim();
    if (text.length > 3) seen.add(text.slice(0, 200));
    if (seen.size >= 20) break;
  }
  return [...seen];
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.replace(/^\s*GPL Ghostscript [\d.]+:\s*/, '').trim()).find(Boolean)?.slice(0, 200) ?? '';
}
