import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PdfObjects, serializePdf } from './pdf-writer.js';

export { serializePdf };

/**
 * Builds small, valid PDFs in code (not with the engine under test): N pages of
 * the given size, each showing one line of text in Helvetica, with a correct
 * cross-reference table.
 */
export function makePdf(options: { pages?: number; width?: number; height?: number; text?: (page: number) => string; title?: string } = {}): Buffer {
  const pages = options.pages ?? 1;
  const width = options.width ?? 612;
  const height = options.height ?? 792;
  const text = options.text ?? ((i: number) => `Page ${i + 1}`);
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const info = options.title ? pdf.add(`<< /Title (${escapePdfString(options.title)}) /Producer (pdfservice tests) >>`) : 0;
  const kids: number[] = [];
  for (let i = 0; i < pages; i++) {
    const stream = pdf.stream('', `BT /F1 24 Tf 72 ${height - 100} Td (${escapePdfString(text(i))}) Tj ET`);
    kids.push(pdf.add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`));
  }
  pdf.setPageTree(catalog, pagesObj, kids);
  return pdf.finish(`/Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}`);
}

/**
 * A document of `pages` pages made cheaply: every page draws one shared
 * content stream, under a two-level page tree (1,000 pages a node).
 * About 10 MB for 100,000 pages (test/api/pages-paging.test.ts, bench/pages.ts).
 */
export function makeManyPagesPdf(pages: number): Buffer {
  const perNode = 1000;
  const nodes = Math.ceil(pages / perNode);
  const firstNode = 4;
  const firstPage = firstNode + nodes;
  const content = 'BT /F1 24 Tf 40 100 Td (Same page) Tj ET';
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: nodes }, (_, n) => `${firstNode + n} 0 R`).join(' ')}] /Count ${pages} /MediaBox [0 0 300 200] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  for (let n = 0; n < nodes; n++) {
    const count = Math.min(perNode, pages - n * perNode);
    const kids = Array.from({ length: count }, (_, i) => `${firstPage + n * perNode + i} 0 R`).join(' ');
    objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids}] /Count ${count} >>`);
  }
  for (let p = 0; p < pages; p++) objects.push(`<< /Type /Page /Parent ${firstNode + Math.floor(p / perNode)} 0 R /Contents 3 0 R >>`);
  return serializePdf(objects, '/Root 1 0 R');
}

/**
 * One page of Helvetica, not embedded, whose /Widths are Courier's 600 units a character: a standard-14 font that
 * cannot be swapped for its metric twin (its glyphs would not fit those widths), so a PDF/A conversion embeds it
 * through Ghostscript (test/tools/pdfa-convert.test.ts).
 */
export function otherWidthsHelveticaPdf(): Buffer {
  const content = 'BT /F1 12 Tf 72 700 Td (Helvetica set with other widths) Tj ET';
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [${' 600'.repeat(95)} ] >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ], '/Root 1 0 R');
}

/**
 * The PDF with an incremental update appended that adds one object nothing refers to: a stream of `size` bytes
 * (17 MiB by default: above the 16 MiB past which the engine reads a document from its file).
 */
export function paddedPdf(pdf: Buffer, size = 17 * 1024 * 1024): Buffer {
  const tail = pdf.toString('latin1', Math.max(0, pdf.length - 4096));
  const last = (re: RegExp) => [...tail.matchAll(re)].pop()?.[1];
  const prev = last(/startxref\s+(\d+)/g);
  const count = Number(last(/\/Size (\d+)/g));
  const root = last(/\/Root (\d+ \d+ R)/g);
  if (!prev || !count || !root) throw new Error('not a PDF this helper can append to');
  const head = Buffer.from(`\n${count} 0 obj\n<< /Length ${size} >>\nstream\n`, 'latin1');
  // Deterministic bytes that are not all alike, so nothing about the file is unusually compressible.
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) body.writeUInt32LE((Math.imul(i, 2654435761) ^ 0x5bd1e995) >>> 0, i);
  const objectOffset = pdf.length + 1;
  const end = Buffer.from('\nendstream\nendobj\n', 'latin1');
  const xrefOffset = pdf.length + head.length + body.length + end.length;
  const xref = Buffer.from(
    `xref\n0 1\n0000000000 65535 f \n${count} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${count + 1} /Root ${root} /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
    'latin1',
  );
  return Buffer.concat([pdf, head, body, end, xref]);
}

function escapePdfString(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** Runs a command-line tool on a PDF given as bytes; returns stdout (throws on a non-zero exit). */
export function withTempFile<T>(bytes: Buffer | Uint8Array, fn: (file: string) => T, name = 'doc.pdf'): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-tool-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  try {
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** qpdf --check exit status 0 (2 means errors; 3 warnings only, which we count as failing too). */
export function qpdfCheck(bytes: Buffer | Uint8Array): { ok: boolean; output: string } {
  return withTempFile(bytes, (file) => {
    try {
      const output = execFileSync('qpdf', ['--check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { ok: true, output };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  });
}

/** pdfinfo's fields (poppler), optionally with a password. */
export function pdfinfo(bytes: Buffer | Uint8Array, password?: string): Record<string, string> {
  return withTempFile(bytes, (file) => {
    const args = password ? ['-upw', password, file] : [file];
    const out = execFileSync('pdfinfo', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
  });
}

export function pdftotext(bytes: Buffer | Uint8Array, password?: string): string {
  return withTempFile(bytes, (file) => execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-layout', file, '-'], { encoding: 'utf8' }));
}

/** Encrypts with qpdf: AES-256 with a user and an owner password. */
/** Encrypts with qpdf; `options` are qpdf's encryption options (restrictions such as --modify=none, --allow-insecure for an empty owner password). */
export function encryptPdf(bytes: Buffer, user: string, owner: string, bits: '40' | '128' | '256' = '256', options: readonly string[] = []): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-enc-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    writeFileSync(input, bytes);
    execFileSync('qpdf', ['--allow-weak-crypto', '--encrypt', user, owner, bits, ...options, '--', input, output]);
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * AES-128 (R4) encryption whose /Encrypt dictionary has no /Length, as pypdf's
 * r4-aes-v2-no-key-length.pdf: readers take the key length from the crypt
 * filter (16 bytes). qpdf's encryption with the top-level /Length blanked out
 * (spaces for its bytes, so no offset moves).
 */
export function aes128WithoutKeyLength(bytes: Buffer, user: string, owner: string): Buffer {
  const encrypted = Buffer.from(encryptPdf(bytes, user, owner, '128', ['--use-aes=y']));
  const start = encrypted.indexOf('/Filter /Standard');
  const open = encrypted.lastIndexOf('obj', start);
  const end = encrypted.indexOf('endobj', start);
  const dictionary = encrypted.subarray(open, end).toString('latin1');
  // The dictionary's own /Length (the crypt filter's /Length 16 sits inside /CF << ... >>).
  const match = / \/Length 128\b/.exec(dictionary);
  if (!match) throw new Error('qpdf wrote no /Length 128 in the encryption dictionary');
  encrypted.fill(0x20, open + match.index, open + match.index + match[0].length);
  return encrypted;
}

/** Linearizes with qpdf (an independent writer): the first-page hint tables and /Linearized dictionary up front. */
export function linearizePdf(bytes: Buffer): Buffer {
  return withTempFile(bytes, (input) => {
    const output = `${input}.linear.pdf`;
    execFileSync('qpdf', ['--linearize', input, output]);
    return readFileSync(output);
  });
}

/**
 * Appends an incremental update by hand (ISO 32000-1 §7.5.6): a new /Info
 * dictionary, an xref section for it and a trailer with /Prev, the earlier
 * bytes left as they were.
 */
export function appendInfoUpdate(bytes: Buffer, title: string): Buffer {
  const text = bytes.toString('latin1');
  const prev = Number([...text.matchAll(/startxref\s+(\d+)/g)].at(-1)![1]);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(text)![1];
  const size = Math.max(...[...text.matchAll(/\/Size\s+(\d+)/g)].map((m) => Number(m[1])));
  const offset = bytes.length + 1;
  const object = `${size} 0 obj\n<< /Title (${escapePdfString(title)}) >>\nendobj\n`;
  const xref = offset + object.length;
  const update = `\n${object}xref\n${size} 1\n${String(offset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([bytes, Buffer.from(update, 'latin1')]);
}

/** What qpdf --check-linearization says: linearized without errors, not linearized, or anything else (its output). */
export function qpdfLinearization(bytes: Buffer | Uint8Array): 'linearized' | 'not linearized' | string {
  return withTempFile(bytes, (file) => {
    const run = spawnSync('qpdf', ['--check-linearization', file], { encoding: 'utf8' });
    const output = `${run.stdout}${run.stderr}`;
    if (/is not linearized/.test(output)) return 'not linearized';
    return run.status === 0 && /no linearization errors/.test(output) ? 'linearized' : output;
  });
}

/**
 * Renders one page with poppler's pdftoppm (an independent renderer) to RGB pixels: its media box
 * unless `cropBox` (what viewers show); `hideAnnotations` draws the page content alone.
 */
export function renderPage(bytes: Buffer | Uint8Array, page = 1, dpi = 72, options: { cropBox?: boolean; hideAnnotations?: boolean } = {}): { width: number; height: number; rgb: (x: number, y: number) => [number, number, number] } {
  const args = ['-r', String(dpi), '-f', String(page), '-l', String(page), ...(options.cropBox ? ['-cropbox'] : []), ...(options.hideAnnotations ? ['-hide-annotations'] : [])];
  const ppm = withTempFile(bytes, (file) => execFileSync('pdftoppm', [...args, file], { maxBuffer: 1 << 28 }));
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const offset = header[0].length;
  return {
    width,
    height,
    rgb: (x, y) => {
      const i = offset + (y * width + x) * 3;
      return [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
    },
  };
}

/** A page rendered to RGB pixels (renderPage). */
export type Render = ReturnType<typeof renderPage>;

/** Whether two pixels differ by more than 48 levels in some channel (anti-aliasing and small shifts of an edge stay below that). */
export function pixelsDiffer(p: [number, number, number], q: [number, number, number]): boolean {
  return Math.abs(p[0] - q[0]) > 48 || Math.abs(p[1] - q[1]) > 48 || Math.abs(p[2] - q[2]) > 48;
}

/** Share of the pixels of two renders of the same size that differ (pixelsDiffer). */
export function differingShare(x: Render, y: Render): number {
  if (x.width !== y.width || x.height !== y.height) throw new Error(`rendered sizes differ (${x.width}x${x.height}, ${y.width}x${y.height})`);
  let differing = 0;
  for (let row = 0; row < x.height; row++) {
    for (let col = 0; col < x.width; col++) if (pixelsDiffer(x.rgb(col, row), y.rgb(col, row))) differing++;
  }
  return differing / (x.width * x.height);
}

/**
 * Share of the pixels of one page, rendered by poppler from two PDFs, that
 * differ (a glyph or a box that appears or goes does; anti-aliasing does
 * not). The pages must have the same size.
 */
export function renderDifference(a: Buffer | Uint8Array, b: Buffer | Uint8Array, page = 1, dpi = 72): number {
  return differingShare(renderPage(a, page, dpi), renderPage(b, page, dpi));
}

/**
 * `pages` pages, each with a line of text under a Redact annotation and a line outside it (which the redaction
 * keeps, so its verification passes), in raw PDF syntax.
 */
export function redactablePdf(pages: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
  const kids: number[] = [];
  for (let i = 1; i <= pages; i++) {
    const content = `BT /F1 24 Tf 72 692 Td (Secret ${i}) Tj ET BT /F1 24 Tf 72 400 Td (Kept ${i}) Tj ET`;
    const stream = objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const annot = objects.push(`<< /Type /Annot /Subtype /Redact /Rect [60 680 400 730] /P ${stream + 2} 0 R >>`);
    kids.push(objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${stream} 0 R /Annots [${annot} 0 R] >>`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  return serializePdf(objects, '/Root 1 0 R');
}

/**
 * One page under a chain of `levels` /Pages nodes, each the only kid of the one above (the root is level 1): a page
 * tree as deep as asked, in as few bytes as the syntax allows (no /Parent).
 */
export function deepPageTreePdf(levels: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 1; level <= levels; level++) objects.push(`<< /Type /Pages /Kids [${level + 2} 0 R] /Count 1 >>`);
  objects.push('<< /Type /Page /MediaBox [0 0 200 200] >>');
  return serializePdf(objects, '/Root 1 0 R');
}

/**
 * PDFBox Preflight (Debian libpdfbox2-java), a second PDF/A-1b validator, over many files in one JVM: its group mode
 * validates every file of a list and writes one XML report. A JVM started per file cost about 0.7 s of CPU each
 * (start-up and a cold JIT), more than the validation of most files. Returns, per file in order, whether PDFBox says
 * it is a valid PDF/A-1b and, if not, its first errors (or why it gave no verdict).
 */
export function pdfboxPreflightA1b(files: (Buffer | Uint8Array)[]): { valid: boolean; errors: string }[] {
  if (files.length === 0) return [];
  const classPath = ['pdfbox2.jar', 'preflight.jar', 'fontbox2.jar', 'xmpbox.jar', 'commons-logging.jar', 'javax.activation.jar', 'jaxb-api.jar'].map((jar) => `/usr/share/java/${jar}`).join(':');
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-pdfbox-'));
  try {
    // The report names a file by its base name: numbered names keep them apart.
    const names = files.map((bytes, i) => {
      writeFileSync(path.join(dir, `${i}.pdf`), bytes);
      return path.join(dir, `${i}.pdf`);
    });
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, `${names.join('\n')}\n`);
    // Exit status 255 when a file is not valid: the report says which.
    spawnSync('java', ['-cp', classPath, 'org.apache.pdfbox.preflight.Validator_A1b', 'xml', 'group', list], { stdio: 'ignore' });
    let xml: string;
    try {
      xml = readFileSync(`${list}.preflight.xml`, 'utf8');
    } catch {
      // An Error rather than an Exception in one file (a missing class, e.g. Bouncy Castle for a certificate-encrypted
      // file) ends the whole group without a report: then each file in a JVM of its own, as before.
      return names.map((file) => {
        const run = spawnSync('java', ['-cp', classPath, 'org.apache.pdfbox.preflight.Validator_A1b', file], { encoding: 'utf8' });
        const said = `${run.stdout ?? ''}`;
        return { valid: /is a valid PDF\/A-1b file/.test(said), errors: said.split('\n').slice(1, 3).join(' ') || String(run.stderr).slice(0, 200) };
      });
    }
    const verdicts = new Map<string, { valid: boolean; errors: string }>();
    for (const m of xml.matchAll(/<preflight name="([^"]+)">([\s\S]*?)<\/preflight>/g)) {
      const body = m[2]!;
      const errors = [...body.matchAll(/<code>([^<]*)<\/code>\s*<details>([^<]*)<\/details>/g)].slice(0, 2).map((e) => `${e[1]} ${e[2]}`).join('; ');
      verdicts.set(m[1]!, { valid: /<isValid[^>]*>true<\/isValid>/.test(body), errors: errors || body.replace(/\s+/g, ' ').slice(0, 200) });
    }
    return files.map((_, i) => verdicts.get(`${i}.pdf`) ?? { valid: false, errors: 'no verdict in PDFBox Preflight\'s report' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
