import { availableParallelism } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import type { ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * Tesseract, for OCRAction (docs/ocr.md): one process per page image, in the
 * bubblewrap sandbox (a scan is untrusted input to a large C++ program), with
 * OMP_THREAD_LIMIT=1. Measured on this machine's 2 cores: a page took 5.0 s
 * with one thread and 17.6 s with Tesseract's default OpenMP threads fighting
 * each other; pages therefore run in parallel, one process per core.
 */
export const TESSERACT = 'tesseract';

export function tesseract(timeoutMs: number): ToolDeclaration {
  return {
    name: TESSERACT,
    command: 'tesseract',
    debianPackage: 'tesseract-ocr',
    purpose: 'OCR',
    versionProbe: { args: ['--version'], pattern: /^tesseract\s+(\S+)/ },
    concurrency: availableParallelism(),
    timeoutMs,
    lifetime: { kind: 'per-run' },
    scratch: 'ocr-scratch',
    // Its language data is under /usr/share/tesseract-ocr, which the sandbox always reads.
    sandbox: { readOnly: [] },
    env: { OMP_THREAD_LIMIT: '1' },
  };
}

/** What one page's recognition gave. */
export interface Recognition {
  /** Tesseract's text-only PDF of the page: invisible text (render mode 3) in its GlyphLessFont, each word scaled to its box. */
  pdf: Buffer;
  words: number;
  /** Mean word confidence, 0-100 (0 without words). */
  confidence: number;
}

/**
 * Recognises one page image (PNG) in `language` ("eng", "eng+deu"), at the
 * resolution it was rendered at, and answers the text layer and its figures.
 * Both come from one run (`pdf` and `tsv` outputs).
 */
export function recognise(tools: ToolSupervisor, options: { png: Uint8Array; language: string; dpi: number; signal?: AbortSignal | undefined }): Promise<Recognition> {
  return tools.run(TESSERACT, async ({ scratch, exec }) => {
    await writeFile(path.join(scratch, 'page.png'), options.png);
    const result = await exec(['page.png', 'out', '-l', options.language, '--dpi', String(options.dpi), '--psm', '3', '-c', 'textonly_pdf=1', 'pdf', 'tsv']);
    let pdf: Buffer;
    let tsv: string;
    try {
      [pdf, tsv] = await Promise.all([readFile(path.join(scratch, 'out.pdf')), readFile(path.join(scratch, 'out.tsv'), 'utf8')]);
    } catch {
      throw new ServiceError('PROCESSING_FAILED', `Tesseract could not recognise the page: ${firstLine(result.stderr) || `exit code ${result.code}`}`);
    }
    return { pdf, ...wordFigures(tsv) };
  }, options.signal);
}

/** Word count and mean confidence from Tesseract's TSV (level 5 rows are words). */
export function wordFigures(tsv: string): { words: number; confidence: number } {
  let words = 0;
  let sum = 0;
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = cells.slice(11).join('\t').trim();
    const conf = Number(cells[10]);
    if (!text || !Number.isFinite(conf) || conf < 0) continue;
    words++;
    sum += conf;
  }
  return { words, confidence: words ? Math.round((sum / words) * 10) / 10 : 0 };
}

/**
 * Tesseract's orientation detection (OSD, --psm 0) on a page image: the
 * clockwise turn that makes it upright, with its confidence; null when it
 * cannot tell (too little text).
 */
export function detectOrientation(tools: ToolSupervisor, options: { png: Uint8Array; dpi: number; signal?: AbortSignal | undefined }): Promise<{ rotate: 0 | 90 | 180 | 270; confidence: number } | null> {
  return tools.run(TESSERACT, async ({ scratch, exec }) => {
    await writeFile(path.join(scratch, 'page.png'), options.png);
    const result = await exec(['page.png', 'stdout', '--dpi', String(options.dpi), '--psm', '0']);
    const rotate = /^Rotate:\s*(\d+)/m.exec(result.stdout)?.[1];
    const confidence = /^Orientation confidence:\s*([\d.]+)/m.exec(result.stdout)?.[1];
    if (result.code !== 0 || rotate === undefined || !['0', '90', '180', '270'].includes(rotate)) return null;
    return { rotate: Number(rotate) as 0 | 90 | 180 | 270, confidence: Number(confidence ?? 0) };
  }, options.signal);
}

let languages: Promise<string[]> | undefined;

/** The installed recognition languages (`tesseract --list-langs`, without osd), read once per process: installing one needs a restart. */
export function installedLanguages(tools: ToolSupervisor): Promise<string[]> {
  languages ??= tools.run(TESSERACT, async ({ exec }) => {
    const result = await exec(['--list-langs']);
    if (result.code !== 0) throw new ServiceError('COMPONENT_MISSING', `OCR needs tesseract, which does not list its languages: ${firstLine(result.stderr)}`);
    return result.stdout.split('\n').slice(1).map((l) => l.trim()).filter((l) => /^[A-Za-z_]+$/.test(l) && l !== 'osd').sort();
  }).catch((err: unknown) => {
    languages = undefined;
    throw err;
  });
  return languages;
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
}
