/**
 * PDFs for the pages resource, written as PDF syntax (not with the engine
 * under test): pages of different sizes, rotations (own and inherited), crop
 * boxes, media boxes off the origin, annotations, and lines of text placed
 * exactly, so that sizes, boxes and text positions are known in advance.
 */
import { serializePdf } from './pdf.js';

export interface FixtureLine {
  x: number;
  y: number;
  size: number;
  text: string;
}

export interface FixturePage {
  mediaBox?: [number, number, number, number];
  cropBox?: [number, number, number, number];
  rotate?: number;
  lines?: FixtureLine[];
  /** Annotation subtypes on the page; a Text note gets its Popup (both counted); a FreeText shows "Visible note", a hidden one (/F 2) "Hidden note". */
  annotations?: ('Text' | 'Square' | 'Link' | 'FreeText' | 'HiddenFreeText')[];
  /** Raw content added after the lines (for text the page must not show). */
  extraContent?: string;
}

export interface FixtureDocument {
  pages: FixturePage[];
  /** Entries of the root page tree node, inherited by pages that do not set them ("/MediaBox [...] /Rotate 90"). */
  inherited?: string;
}

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** Builds the document: one Helvetica font, each line shown with Tj at its baseline. */
export function makePagesPdf(fixture: FixtureDocument): Buffer {
  const objects: string[] = ['', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
  const add = (body: string) => objects.push(body);
  const kids: number[] = [];
  for (const page of fixture.pages) {
    const shown = (page.lines ?? []).map((l) => `BT /F1 ${l.size} Tf 1 0 0 1 ${l.x} ${l.y} Tm (${escape(l.text)}) Tj ET`).join('\n');
    const content = `${shown}\n${page.extraContent ?? ''}`;
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    const pageNumber = add(''); // filled in below, once its annotations are numbered
    const annots: number[] = [];
    let slot = 0;
    for (const subtype of page.annotations ?? []) {
      const x = 20 + 30 * slot++;
      const rect = `[${x} 20 ${x + 20} 40]`;
      if (subtype === 'Text') {
        const note = add('');
        const popup = add(`<< /Type /Annot /Subtype /Popup /Rect [${x} 50 ${x + 100} 100] /Parent ${note} 0 R /P ${pageNumber} 0 R >>`);
        objects[note - 1] = `<< /Type /Annot /Subtype /Text /Rect ${rect} /Contents (note) /Popup ${popup} 0 R /P ${pageNumber} 0 R >>`;
        annots.push(note, popup);
      } else if (subtype === 'FreeText' || subtype === 'HiddenFreeText') {
        const hidden = subtype === 'HiddenFreeText';
        const shown = `BT /F1 10 Tf 2 6 Td (${hidden ? 'Hidden' : 'Visible'} note) Tj ET`;
        const ap = add(`<< /Type /XObject /Subtype /Form /BBox [0 0 100 20] /Resources << /Font << /F1 3 0 R >> >> /Length ${shown.length} >>\nstream\n${shown}\nendstream`);
        slot += 3; // it is wider than the other annotations
        annots.push(add(`<< /Type /Annot /Subtype /FreeText /Rect [${x} 20 ${x + 100} 40] /F ${hidden ? 2 : 4} /DA (/F1 10 Tf 0 g) /AP << /N ${ap} 0 R >> /P ${pageNumber} 0 R >>`));
      } else if (subtype === 'Link') {
        annots.push(add(`<< /Type /Annot /Subtype /Link /Rect ${rect} /Border [0 0 0] /A << /S /URI /URI (https://example.com/) >> >>`));
      } else {
        annots.push(add(`<< /Type /Annot /Subtype /Square /Rect ${rect} /C [1 0 0] /P ${pageNumber} 0 R >>`));
      }
    }
    const entries = [
      page.mediaBox ? `/MediaBox [${page.mediaBox.join(' ')}]` : '',
      page.cropBox ? `/CropBox [${page.cropBox.join(' ')}]` : '',
      page.rotate !== undefined ? `/Rotate ${page.rotate}` : '',
      annots.length ? `/Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : '',
    ].filter(Boolean).join(' ');
    objects[pageNumber - 1] = `<< /Type /Page /Parent 2 0 R ${entries} /Resources << /Font << /F1 3 0 R >> >> /Contents ${stream} 0 R >>`;
    kids.push(pageNumber);
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} ${fixture.inherited ?? '/MediaBox [0 0 612 792]'} >>`;
  return serializePdf(objects, '/Root 1 0 R');
}

/** Lines of text down a page from (x, top), `gap` points apart. */
export function textLines(x: number, top: number, size: number, gap: number, texts: string[]): FixtureLine[] {
  return texts.map((text, i) => ({ x, y: top - i * gap, size, text }));
}
