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

/** A box in the image's pixels, origin top left: left, top, right, bottom (hOCR's bbox). */
export type PixelBox = [number, number, number, number];

/** One recognised word: its text, its box and Tesseract's confidence in it (0-100). */
export interface RecognisedWord {
  text: string;
  box: PixelBox;
  confidence: number;
}

/** One line of text as Tesseract found it (hOCR's ocr_line, ocr_caption, ocr_header, ocr_textfloat), its words in reading order. */
export interface RecognisedLine {
  box: PixelBox;
  /** hOCR's baseline: slope and offset (pixels, negative: above) from the box's bottom left corner; Tesseract gives none for a vertical line. */
  baseline?: [number, number];
  /** Degrees counter-clockwise the line's text is turned (hOCR's textangle), when given. */
  textAngle?: number;
  words: RecognisedWord[];
}

/** What one page's recognition gave. */
export interface Recognition {
  /** Tesseract's text-only PDF of the page: the font of the text layer (GlyphLessFont: its codes are Unicode) comes from it. */
  pdf: Buffer;
  lines: RecognisedLine[];
  words: number;
  /** Mean word confidence, 0-100 (0 without words). */
  confidence: number;
}

/**
 * Recognises one page image (a binary PGM, engine/ocr/render.ts) in `language` ("eng", "eng+deu"), at the
 * resolution it was rendered at, and answers its lines and words (from the
 * hOCR output, which has each line's baseline) with the figures, and the
 * text-only PDF whose font the text layer uses; both from one run.
 */
export function recognise(tools: ToolSupervisor, options: { pgm: Uint8Array; language: string; dpi: number; signal?: AbortSignal | undefined }): Promise<Recognition> {
  return tools.run(TESSERACT, async ({ scratch, exec }) => {
    await writeFile(path.join(scratch, 'page.pgm'), options.pgm);
    const result = await exec(['page.pgm', 'out', '-l', options.language, '--dpi', String(options.dpi), '--psm', '3', '-c', 'textonly_pdf=1', 'pdf', 'hocr']);
    let pdf: Buffer;
    let hocr: string;
    try {
      [pdf, hocr] = await Promise.all([readFile(path.join(scratch, 'out.pdf')), readFile(path.join(scratch, 'out.hocr'), 'utf8')]);
    } catch {
      throw new ServiceError('PROCESSING_FAILED', `Tesseract could not recognise the page: ${firstLine(result.stderr) || `exit code ${result.code}`}`);
    }
    const lines = parseHocr(hocr);
    return { pdf, lines, ...wordFigures(lines) };
  }, options.signal);
}

/** Word count and mean confidence of the lines' words. */
export function wordFigures(lines: readonly RecognisedLine[]): { words: number; confidence: number } {
  let words = 0;
  let sum = 0;
  for (const line of lines) {
    for (const word of line.words) {
      words++;
      sum += word.confidence;
    }
  }
  return { words, confidence: words ? Math.round((sum / words) * 10) / 10 : 0 };
}

const LINE_CLASSES = new Set(['ocr_line', 'ocr_caption', 'ocr_header', 'ocr_textfloat']);

/**
 * Tesseract's hOCR (its own output, one page): its lines with their words.
 * Read by pattern, not by an XML parser: Tesseract writes one element per
 * line of the file, attributes in single or double quotes, text escaped. A
 * word without text or with a negative confidence is not a word (as in its
 * TSV); a line without words is left out.
 */
export function parseHocr(hocr: string): RecognisedLine[] {
  const lines: RecognisedLine[] = [];
  let line: RecognisedLine | undefined;
  const element = /<span class=(['"])(\w+)\1[^>]*?title=(['"])(.*?)\3[^>]*>/g;
  for (let match = element.exec(hocr); match; match = element.exec(hocr)) {
    const [, , kind, , title] = match;
    const properties = hocrTitle(title!);
    const box = properties.get('bbox');
    if (!box || box.length !== 4) continue;
    if (LINE_CLASSES.has(kind!)) {
      line = { box: box as PixelBox, words: [] };
      const baseline = properties.get('baseline');
      if (baseline?.length === 2) line.baseline = baseline as [number, number];
      const angle = properties.get('textangle')?.[0];
      if (angle !== undefined) line.textAngle = angle;
      lines.push(line);
    } else if (kind === 'ocrx_word' && line) {
      const end = hocr.indexOf('</span>', element.lastIndex);
      if (end < 0) break;
      // The word's text: nested elements (font information) dropped, references decoded.
      const text = decodeXmlText(hocr.slice(element.lastIndex, end).replace(/<[^>]*>/g, '')).trim();
      element.lastIndex = end + '</span>'.length;
      const confidence = properties.get('x_wconf')?.[0] ?? 0;
      if (text && confidence >= 0) line.words.push({ text, box: box as PixelBox, confidence });
    }
  }
  return lines.filter((l) => l.words.length);
}

/** An hOCR title ("bbox 1 2 3 4; x_wconf 96"): each property's numbers by name. */
function hocrTitle(title: string): Map<string, number[]> {
  const properties = new Map<string, number[]>();
  for (const part of title.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) properties.set(name, values.map(Number).filter(Number.isFinite));
  }
  return properties;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return XML_ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Tesseract's orientation detection (OSD, --psm 0) on a page image: the
 * clockwise turn that makes it upright, with its confidence; null when it
 * cannot tell (too little text).
 */
export function detectOrientation(tools: ToolSupervisor, options: { pgm: Uint8Array; dpi: number; signal?: AbortSignal | undefined }): Promise<{ rotate: 0 | 90 | 180 | 270; confidence: number } | null> {
  return tools.run(TESSERACT, async ({ scratch, exec }) => {
    await writeFile(path.join(scratch, 'page.pgm'), options.pgm);
    const result = await exec(['page.pgm', 'stdout', '--dpi', String(options.dpi), '--psm', '0']);
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
