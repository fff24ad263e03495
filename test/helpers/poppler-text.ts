/**
 * Poppler's reading of a document's text (pdftotext), the independent
 * reference for the page text API, and the comparison the docs describe
 * (docs/pages.md, "Compared with pdftotext"): the same words in the same
 * order, whitespace and line breaks aside.
 */
import { execFileSync } from 'node:child_process';
import { withTempFile } from './pdf.js';

const passwordArgs = (password?: string) => (password === undefined ? [] : ['-upw', password]);

/** The text of every page, as pdftotext writes it (each page ends with a form feed). */
export function popplerPages(bytes: Buffer | Uint8Array, password?: string): string[] {
  const text = withTempFile(bytes, (file) => execFileSync('pdftotext', [...passwordArgs(password), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const pages = text.split('\f');
  pages.pop(); // after the last form feed
  return pages;
}

/** Words: runs of non-whitespace. */
export function words(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== '');
}

export interface PopplerWord {
  text: string;
  /** PDF user space, as the API gives boxes. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageGeometry {
  cropBox: { x: number; y: number; width: number; height: number };
  rotation: number;
}

const unescapeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/**
 * One page's words with their boxes from `pdftotext -bbox -cropbox`, turned
 * into PDF user space. Poppler gives them in the page's displayed space
 * (rotated, origin at the top left of the crop box); the geometry of the page
 * (crop box and rotation, from pdfinfo) takes them back.
 */
export function popplerWords(bytes: Buffer | Uint8Array, pageIndex: number, page: PageGeometry): PopplerWord[] {
  const html = withTempFile(bytes, (file) =>
    execFileSync('pdftotext', ['-bbox', '-cropbox', '-enc', 'UTF-8', '-f', String(pageIndex + 1), '-l', String(pageIndex + 1), file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  const { x: x0, y: y0, width, height } = page.cropBox;
  const x1 = x0 + width;
  const y1 = y0 + height;
  const toUser = (dx: number, dy: number): [number, number] => {
    switch (page.rotation) {
      case 90: return [x0 + dy, y0 + dx];
      case 180: return [x1 - dx, y0 + dy];
      case 270: return [x1 - dy, y1 - dx];
      default: return [x0 + dx, y1 - dy];
    }
  };
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => {
    const [ax, ay] = toUser(Number(m[1]), Number(m[2]));
    const [bx, by] = toUser(Number(m[3]), Number(m[4]));
    return { text: unescapeXml(m[5]!), x: Math.min(ax, bx), y: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay) };
  });
}

/** pdfinfo's page geometry: size (unrotated crop box), rotation, media and crop boxes, per page. */
export function pdfinfoPages(bytes: Buffer | Uint8Array, password?: string): { size: [number, number]; rotation: number; mediaBox: number[]; cropBox: number[] }[] {
  const out = withTempFile(bytes, (file) => execFileSync('pdfinfo', [...passwordArgs(password), '-box', '-f', '1', '-l', '100000', file], { encoding: 'utf8' }));
  const pages = new Map<number, { size: [number, number]; rotation: number; mediaBox: number[]; cropBox: number[] }>();
  const at = (n: number) => {
    if (!pages.has(n)) pages.set(n, { size: [0, 0], rotation: 0, mediaBox: [], cropBox: [] });
    return pages.get(n)!;
  };
  for (const line of out.split('\n')) {
    const m = /^Page\s+(\d+)\s+(size|rot|MediaBox|CropBox):\s+(.*)$/.exec(line);
    if (!m) continue;
    const page = at(Number(m[1]) - 1);
    const values = m[3]!.match(/-?[\d.]+/g)!.map(Number);
    if (m[2] === 'size') page.size = [values[0]!, values[1]!];
    else if (m[2] === 'rot') page.rotation = values[0]!;
    else if (m[2] === 'MediaBox') page.mediaBox = values;
    else page.cropBox = values;
  }
  return [...pages.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
}

/**
 * How alike two word sequences are: twice their longest common subsequence
 * over their total length (1 when equal, 0 when nothing is shared). Reading
 * order differences (a column or a caption placed elsewhere) lower it by the
 * share of words they move, not more.
 */
export function sequenceSimilarity(a: string[], b: string[]): number {
  if (a.length + b.length === 0) return 1;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return (2 * previous[b.length]!) / (a.length + b.length);
}
