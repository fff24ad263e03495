import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * The one writer of the PDFs that tests and the bench build in code (not with the engine under test): numbered
 * objects and a classic cross-reference table. Parts are latin1 strings or bytes, so binary streams (JPEG, Flate)
 * go in as they are; a sink takes the bytes as they come, so a file of hundreds of MB is written page by page.
 */
export type Part = string | Buffer;

const bytesOf = (part: Part): Buffer => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part);

export class PdfWriter {
  private offset = 0;
  private readonly offsets: number[] = [];

  constructor(private readonly sink: (chunk: Buffer) => void, version = '1.7') {
    this.write(`%PDF-${version}\n%\xe2\xe3\xcf\xd3\n`);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.offset;
  }

  private write(part: Part): void {
    const chunk = bytesOf(part);
    this.offset += chunk.length;
    this.sink(chunk);
  }

  /** Object `num` (in any order; each number once), its body the parts in turn. */
  object(num: number, ...parts: Part[]): void {
    if (this.offsets[num] !== undefined) throw new Error(`object ${num} written twice`);
    this.offsets[num] = this.offset;
    this.write(`${num} 0 obj\n`);
    for (const part of parts) this.write(part);
    this.write('\nendobj\n');
  }

  /** The cross-reference table and trailer; `trailer` holds the entries after /Size, e.g. "/Root 1 0 R". */
  end(trailer: string): void {
    const size = this.offsets.length;
    const rows = [`xref\n0 ${size}\n0000000000 65535 f \n`];
    for (let num = 1; num < size; num++) {
      const at = this.offsets[num];
      if (at === undefined) throw new Error(`object ${num} was never written`);
      rows.push(`${String(at).padStart(10, '0')} 00000 n \n`);
    }
    const xref = this.offset;
    this.write(`${rows.join('')}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`);
  }
}

/** A stream object's parts: `dict`'s entries with the /Length of `data`. */
export function streamParts(dict: string, data: Part): Part[] {
  const bytes = bytesOf(data);
  return [`<< ${dict ? `${dict} ` : ''}/Length ${bytes.length} >>\nstream\n`, bytes, '\nendstream'];
}

/** A PDF in memory. */
export function pdfBytes(write: (pdf: PdfWriter) => void, version?: string): Buffer {
  const chunks: Buffer[] = [];
  write(new PdfWriter((chunk) => chunks.push(chunk), version));
  return Buffer.concat(chunks);
}

/** A PDF written to `file` as it is made (one page's data in memory at a time); answers its size in bytes. */
export function pdfFile(file: string, write: (pdf: PdfWriter) => void): number {
  const fd = openSync(file, 'w');
  try {
    let size = 0;
    write(new PdfWriter((chunk) => {
      for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done);
      size += chunk.length;
    }));
    return size;
  } finally {
    closeSync(fd);
  }
}

/**
 * Objects numbered in the order they are added (the first is 1), for builders that refer forward: reserve a number,
 * set its body when it is known. `finish` writes the file.
 */
export class PdfObjects {
  private readonly bodies: Part[][] = [];

  add(...parts: Part[]): number {
    return this.bodies.push(parts);
  }

  reserve(): number {
    return this.add('');
  }

  set(num: number, ...parts: Part[]): void {
    this.bodies[num - 1] = parts;
  }

  /** The catalog and one /Pages node over `kids`, in the numbers reserved for them. */
  setPageTree(catalog: number, pages: number, kids: readonly number[]): void {
    this.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R >>`);
    this.set(pages, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  }

  /** A stream object (streamParts) added. */
  stream(dict: string, data: Part): number {
    return this.add(...streamParts(dict, data));
  }

  finish(trailer: string, version?: string): Buffer {
    return serializePdf(this.bodies, trailer, version);
  }
}

/**
 * Numbered objects (object i + 1 is objects[i]: a latin1 body, or its parts when it holds bytes) as a PDF; `trailer`
 * holds the trailer's entries after /Size, e.g. "/Root 1 0 R".
 */
export function serializePdf(objects: readonly (string | readonly Part[])[], trailer: string, version?: string): Buffer {
  return pdfBytes((pdf) => {
    objects.forEach((body, i) => pdf.object(i + 1, ...(typeof body === 'string' ? [body] : body)));
    pdf.end(trailer);
  }, version);
}
