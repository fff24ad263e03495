/**
 * What a signed signature widget shows: who signed, when, and why (and
 * where, when given), set in Helvetica with the stamps' Unicode fallback
 * fonts, sized to fit the widget's rectangle, inside a thin frame. An
 * unsigned field gets an empty appearance, so no viewer draws one of its own.
 */
import * as mupdf from 'mupdf';
import { chooseFont } from '../drawing/model.js';
import { buildForm } from '../drawing/form.js';
import { faceChain, type Face } from '../drawing/fonts.js';
import { showLines } from '../drawing/text.js';
import { pdfNumber } from '../drawing/geometry.js';
import { layoutLines } from '../drawing/text-layout.js';

const PADDING = 3;
const LEADING = 1.2;
const MAX_FONT_SIZE = 11;

/** Characters no face can draw become "?", so any signer name can be shown. */
function drawable(text: string, chain: Face[]): string {
  return [...text].map((ch) => (ch === '\n' || chain.some((f) => f.has(ch.codePointAt(0)!)) ? ch : '?')).join('');
}

/** The widget's size (width, height) from its /Rect. */
function rectSize(widget: mupdf.PDFObject): { width: number; height: number } {
  const rect = widget.get('Rect');
  if (!rect.isArray() || rect.length !== 4) return { width: 0, height: 0 };
  const v = [0, 1, 2, 3].map((i) => rect.get(i).asNumber());
  return { width: Math.abs(v[2]! - v[0]!), height: Math.abs(v[3]! - v[1]!) };
}

function setNormalAppearance(doc: mupdf.PDFDocument, widget: mupdf.PDFObject, form: mupdf.PDFObject): void {
  const ap = doc.newDictionary();
  ap.put('N', form);
  widget.put('AP', ap);
}

/** An appearance with nothing in it, the size of the widget. */
export function setEmptyAppearance(doc: mupdf.PDFDocument, widget: mupdf.PDFObject): void {
  const { width, height } = rectSize(widget);
  const dict = doc.newDictionary();
  dict.put('Type', doc.newName('XObject'));
  dict.put('Subtype', doc.newName('Form'));
  const bbox = doc.newArray();
  for (const v of [0, 0, width, height]) bbox.push(doc.newReal(v));
  dict.put('BBox', bbox);
  dict.put('Resources', doc.newDictionary());
  // Not an empty stream: MuPDF writes an empty stream of an encrypted document as /Length 32 with no data.
  setNormalAppearance(doc, widget, doc.addStream('q Q', dict));
}

/** Draws `lines` into the widget: the largest font size up to 11 pt at which every line fits. */
export function setSignedAppearance(doc: mupdf.PDFDocument, widget: mupdf.PDFObject, lines: string[]): void {
  const { width, height } = rectSize(widget);
  if (width < 2 * PADDING || height < 2 * PADDING) {
    setEmptyAppearance(doc, widget);
    return;
  }
  const chain = faceChain(chooseFont('Helvetica')!);
  const text = drawable(lines.join('\n'), chain);
  const laid = layoutLines(text, chain);
  const widest = Math.max(0.01, ...laid.map((l) => l.width));
  const size = Math.max(1, Math.min(MAX_FONT_SIZE, (width - 2 * PADDING) / widest, (height - 2 * PADDING) / (laid.length * LEADING)));
  const scratch = new mupdf.PDFDocument();
  try {
    const resources = scratch.newDictionary();
    const top = height - PADDING - size * 0.9;
    const ops = [
      'q 0.2 0.2 0.6 RG 0.75 w',
      `0.375 0.375 ${pdfNumber(width - 0.75)} ${pdfNumber(height - 0.75)} re S Q`,
      `q 0 0 0 rg BT ${pdfNumber(size * LEADING)} TL ${pdfNumber(PADDING)} ${pdfNumber(top)} Td`,
    ];
    const faces = showLines(scratch, resources, laid, size, ops);
    ops.push('ET Q');
    const form = buildForm(scratch, {
      content: ops.join('\n'),
      bbox: [0, 0, width, height],
      resources,
      embedsFonts: faces.some((f) => f.embedded),
    });
    setNormalAppearance(doc, widget, doc.graftObject(form));
  } finally {
    scratch.destroy();
  }
}
