/**
 * The drawing of a text stamp: real text (extractable, with each face's
 * Unicode mapping), lines set left-aligned from the first line's baseline
 * start, in the chosen font with per-character fallback.
 */
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { chooseFont, type FontStyle } from '../drawing/model.js';
import { alphaState, type StampDrawing } from '../drawing/form.js';
import { faceChain } from '../drawing/fonts.js';
import { pdfNumber, pdfNumbers, stampMatrix } from '../drawing/geometry.js';
import { layoutLines } from '../drawing/text-layout.js';
import { FontResources, showLines } from '../drawing/text.js';

export interface TextStampRequest {
  text: string;
  x: number;
  y: number;
  fontName?: string | undefined;
  fontStyle?: FontStyle | undefined;
  fontSize?: number | undefined;
  /** 0xRRGGBB. */
  color?: number | undefined;
  /** Degrees, counter-clockwise about (x, y). */
  rotation?: number | undefined;
  /** 0 opaque to 1 invisible. */
  transparency?: number | undefined;
  /** Which end of the widest line (x, y) is: its start (default), middle or end. Page numbers centre and right-align with it. */
  align?: 'left' | 'center' | 'right' | undefined;
  /** Embed every font, the base-14 ones too (set by the engine for a tagged document: PDF/UA-1 7.21.4.1). */
  embedFonts?: boolean | undefined;
}

/**
 * What the drawings of one scratch document may share: a resource dictionary whose fonts each go in once, so that
 * page numbers (a drawing per page) store each font once and subset it for the glyphs of every page. The drawings
 * sharing it must have the same transparency (the one ExtGState is shared too).
 */
export interface SharedTextResources {
  resources: mupdf.PDFObject;
  fonts: FontResources;
}

export function sharedTextResources(scratch: mupdf.PDFDocument): SharedTextResources {
  return { resources: scratch.addObject(scratch.newDictionary()), fonts: new FontResources(scratch) };
}

/** Baseline to baseline, as a multiple of the font size. */
const LINE_HEIGHT = 1.2;

export function drawTextStamp(scratch: mupdf.PDFDocument, request: TextStampRequest, shared?: SharedTextResources): { drawing: StampDrawing; fonts: string[] } {
  const choice = chooseFont(request.fontName ?? 'Helvetica', request.fontStyle);
  // The action checks the name first; this guards callers that do not.
  if (!choice) throw new EngineError('UNKNOWN_FONT', `Unknown fontName ${JSON.stringify(request.fontName)}`);
  const size = request.fontSize ?? 12;
  const leading = size * LINE_HEIGHT;
  const lines = layoutLines(request.text, faceChain(choice, { embed: request.embedFonts }));

  const resources = shared?.resources ?? scratch.newDictionary();
  const matrix = stampMatrix(request.x, request.y, request.rotation ?? 0);
  const widest = Math.max(0, ...lines.map((l) => l.width)) * size;
  const shift = request.align === 'center' ? -widest / 2 : request.align === 'right' ? -widest : 0;
  const ops = [
    'q',
    `${pdfNumbers(matrix)} cm`,
    alphaState(scratch, resources, request.transparency ?? 0),
    fillColour(request.color ?? 0),
    `BT ${pdfNumber(leading)} TL`,
    shift ? `${pdfNumber(shift)} 0 Td` : '',
  ];
  const faces = showLines(scratch, resources, lines, size, ops, shared?.fonts);
  ops.push('ET Q');

  // Room for ascenders, descenders, accents and italic overhang around the advance widths.
  const box: mupdf.Rect = [shift - size / 2, -(lines.length - 1) * leading - size / 2, shift + widest + size / 2, size * 1.25];
  return {
    drawing: {
      content: ops.filter(Boolean).join('\n'),
      bbox: mupdf.Rect.transform(box, matrix),
      resources,
      embedsFonts: faces.some((f) => f.embedded),
    },
    fonts: faces.map((f) => f.name),
  };
}

/** `r g b rg` for an integer 0xRRGGBB. */
function fillColour(color: number): string {
  return `${pdfNumbers([(color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff].map((c) => c / 255))} rg`;
}
