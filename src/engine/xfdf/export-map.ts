import { ANNOTATION_FLAGS } from '../annotations/model.js';
import { isDict, name, number, numbers, ref, text } from '../syntax/readers.js';
import { type PdfDict, type PdfValue } from '../syntax/parser.js';
import { escapeXml, type XmlNode } from '../syntax/xml-writer.js';
import { roundedNumber } from '../syntax/numbers.js';

/**
 * The one mapping between annotation dictionaries and XFDF elements (ISO
 * 19444-1): its tables (element names, flags, border styles) serve both
 * directions, so that what we export we import unchanged; this file writes
 * XFDF elements, import-map.ts reads them. It works on parsed PDF values
 * (syntax/parser.ts) and plain XML nodes; no MuPDF here.
 */

/** XFDF element <-> /Subtype. Subtypes without an XFDF element (Widget, Movie, 3D, ...) are not exported. */
export const XFDF_ELEMENTS: Record<string, string> = {
  text: 'Text', freetext: 'FreeText', line: 'Line', square: 'Square', circle: 'Circle', polygon: 'Polygon',
  polyline: 'PolyLine', highlight: 'Highlight', underline: 'Underline', squiggly: 'Squiggly', strikeout: 'StrikeOut',
  caret: 'Caret', stamp: 'Stamp', ink: 'Ink', popup: 'Popup', fileattachment: 'FileAttachment', sound: 'Sound',
  link: 'Link', redact: 'Redact',
};
const ELEMENT_OF_SUBTYPE: Record<string, string> = Object.fromEntries(Object.entries(XFDF_ELEMENTS).map(([e, s]) => [s, e]));

export const XFDF_FLAGS = ANNOTATION_FLAGS.map((f) => f.toLowerCase());
const STYLE_TO_XFDF: Record<string, string> = { S: 'solid', D: 'dash', B: 'bevelled', I: 'inset', U: 'underline' };
export const STYLE_FROM_XFDF: Record<string, string> = { solid: 'S', dash: 'D', dashed: 'D', bevelled: 'B', beveled: 'B', inset: 'I', underline: 'U' };
export const JUSTIFICATION = ['left', 'centered', 'right'];

/** Numbers as XFDF writes them: plain decimals, no exponent, no trailing zeros. */
export const fmt = (n: number): string => roundedNumber(n, 6);
const list = (ns: number[]) => ns.map(fmt).join(',');
const points = (ns: number[]) => {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < ns.length; i += 2) pairs.push(`${fmt(ns[i]!)},${fmt(ns[i + 1]!)}`);
  return pairs.join(';');
};

function hexColor(v: PdfValue | undefined): string | undefined {
  const c = numbers(v);
  if (!c || ![1, 3, 4].includes(c.length)) return undefined;
  const rgb = c.length === 1 ? [c[0]!, c[0]!, c[0]!] : c.length === 3 ? c : [(1 - c[0]!) * (1 - c[3]!), (1 - c[1]!) * (1 - c[3]!), (1 - c[2]!) * (1 - c[3]!)];
  return `#${rgb.map((x) => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, '0').toUpperCase()).join('')}`;
}

/** What export needs from the document besides the dictionary itself. */
export interface ExportContext {
  resolve(v: PdfValue | undefined): PdfValue | undefined;
  /** The service name of the annotation an object number refers to. */
  nameOf(objectNumber: number): string | undefined;
  /** Page index of a page object, for link destinations. */
  pageOf(objectNumber: number): number | undefined;
}

/** A FileAttachment's embedded file, read by the caller. */
export interface EmbeddedFile {
  bytes: Uint8Array;
  mimeType?: string;
}

/**
 * The XFDF element of one annotation; its popup, when given, is written inside
 * it, and so is `appearance`, the text of an <appearance> (appearance-xml.ts).
 */
export function toXfdfElement(
  subtype: string,
  pageIndex: number,
  annotationName: string,
  d: PdfDict,
  ctx: ExportContext,
  popup?: { pageIndex: number; name: string; dict: PdfDict },
  file?: EmbeddedFile,
  appearance?: string,
): XmlNode | undefined {
  const tag = ELEMENT_OF_SUBTYPE[subtype];
  if (!tag) return undefined;
  const attrs: [string, string | number][] = [['page', pageIndex]];
  const children: XmlNode[] = [];
  const add = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') attrs.push([key, value]);
  };
  const rect = numbers(ctx.resolve(d.get('Rect')));
  if (rect?.length === 4) add('rect', list(rect));
  add('name', annotationName);
  add('title', text(ctx.resolve(d.get('T'))));
  add('subject', text(ctx.resolve(d.get('Subj'))));
  add('date', text(d.get('M')));
  add('creationdate', text(d.get('CreationDate')));
  add('color', hexColor(ctx.resolve(d.get('C'))));
  add('interior-color', hexColor(ctx.resolve(d.get('IC'))));
  const opacity = number(d.get('CA'));
  if (opacity !== undefined) add('opacity', fmt(opacity));
  const flags = number(d.get('F'));
  if (flags) add('flags', XFDF_FLAGS.filter((_, i) => flags & (1 << i)).join(','));
  const bs = ctx.resolve(d.get('BS'));
  const be = ctx.resolve(d.get('BE'));
  if (isDict(bs)) {
    const w = number(bs.get('W'));
    if (w !== undefined) add('width', fmt(w));
    const style = name(bs.get('S'));
    if (style && STYLE_TO_XFDF[style] && !(isDict(be) && name(be.get('S')) === 'C')) add('style', STYLE_TO_XFDF[style]);
    const dashes = numbers(ctx.resolve(bs.get('D')));
    if (dashes?.length) add('dashes', list(dashes));
  } else {
    const border = ctx.resolve(d.get('Border'));
    if (Array.isArray(border) && border.length >= 3 && number(border[2]) !== undefined) add('width', fmt(number(border[2])!));
  }
  if (isDict(be) && name(be.get('S')) === 'C') {
    add('style', 'cloudy');
    const intensity = number(be.get('I'));
    if (intensity !== undefined) add('intensity', fmt(intensity));
  }
  const rotation = number(d.get('Rotate'));
  if (rotation !== undefined) add('rotation', fmt(rotation));
  const irt = ref(d.get('IRT'));
  if (irt !== undefined) {
    add('inreplyto', ctx.nameOf(irt));
    if (name(d.get('RT')) === 'Group') add('replyType', 'group');
  }
  add('icon', name(d.get('Name')));
  add('state', text(d.get('State')));
  add('statemodel', text(d.get('StateModel')));
  add('intent', name(d.get('IT')));
  const rd = numbers(d.get('RD'));
  if (rd?.length === 4) add('fringe', list(rd));
  // Subtype data.
  const quads = numbers(ctx.resolve(d.get('QuadPoints')));
  if (quads?.length) add('coords', list(quads));
  const line = numbers(d.get('L'));
  if (line?.length === 4) {
    add('start', `${fmt(line[0]!)},${fmt(line[1]!)}`);
    add('end', `${fmt(line[2]!)},${fmt(line[3]!)}`);
  }
  const le = d.get('LE');
  if (Array.isArray(le) && le.length === 2) {
    add('head', name(le[0]));
    add('tail', name(le[1]));
  } else if (name(le)) {
    add('head', name(le)); // FreeText callouts have a single line ending
  }
  const ll = number(d.get('LL'));
  if (ll !== undefined) add('leaderLength', fmt(ll));
  const lle = number(d.get('LLE'));
  if (lle !== undefined) add('leaderExtension', fmt(lle));
  const llo = number(d.get('LLO'));
  if (llo !== undefined) add('leaderOffset', fmt(llo));
  if (d.get('Cap') === true) add('caption', 'yes');
  const cl = numbers(d.get('CL'));
  if (cl?.length) add('callout', list(cl));
  const q = number(d.get('Q'));
  if (q !== undefined && JUSTIFICATION[q]) add('justification', JUSTIFICATION[q]);
  add('overlay-text', text(ctx.resolve(d.get('OverlayText'))));
  if (d.get('Repeat') === true) add('repeat', 'true');
  if (subtype === 'Popup' || popup === undefined) {
    const open = d.get('Open');
    if (typeof open === 'boolean' && subtype !== 'Text') add('open', open ? 'yes' : 'no');
  }
  if (subtype === 'Text' && typeof d.get('Open') === 'boolean') add('open', d.get('Open') ? 'yes' : 'no');

  const contents = text(ctx.resolve(d.get('Contents')));
  if (contents !== undefined) children.push({ tag: 'contents', text: contents });
  const rc = text(ctx.resolve(d.get('RC')));
  if (rc !== undefined) children.push({ tag: 'contents-richtext', raw: richTextBody(rc) });
  const vertices = numbers(ctx.resolve(d.get('Vertices')));
  if (vertices?.length) children.push({ tag: 'vertices', text: points(vertices) });
  const ink = ctx.resolve(d.get('InkList'));
  if (Array.isArray(ink)) children.push({ tag: 'inklist', children: ink.map((g) => ({ tag: 'gesture', text: points(numbers(ctx.resolve(g)) ?? []) })) });
  const da = text(d.get('DA'));
  if (da !== undefined) children.push({ tag: 'defaultappearance', text: da });
  const ds = text(d.get('DS'));
  if (ds !== undefined) children.push({ tag: 'defaultstyle', text: ds });
  if (subtype === 'FileAttachment') {
    const fs = ctx.resolve(d.get('FS'));
    const fileName = isDict(fs) ? (text(fs.get('UF')) ?? text(fs.get('F'))) : text(fs);
    add('file', fileName);
    if (file) {
      if (file.mimeType) add('mimetype', file.mimeType);
      add('size', file.bytes.length);
      children.push({ tag: 'data', attrs: [['MODE', 'RAW'], ['encoding', 'hex'], ['length', file.bytes.length]], text: Buffer.from(file.bytes).toString('hex') });
    }
  }
  if (subtype === 'Link') {
    const action = ctx.resolve(d.get('A'));
    if (isDict(action) && name(action.get('S')) === 'URI') {
      const uri = text(ctx.resolve(action.get('URI')));
      if (uri !== undefined) children.push({ tag: 'OnActivation', children: [{ tag: 'Action', children: [{ tag: 'URI', attrs: [['Name', uri]] }] }] });
    }
    const dest = ctx.resolve(d.get('Dest') ?? (isDict(action) && name(action.get('S')) === 'GoTo' ? action.get('D') : undefined));
    if (Array.isArray(dest) && dest.length) {
      const pageRef = ref(dest[0]);
      const page = pageRef !== undefined ? ctx.pageOf(pageRef) : number(dest[0]);
      const kind = name(dest[1]) ?? 'Fit';
      if (page !== undefined) children.push({ tag: 'Dest', children: [{ tag: kind, attrs: [['Page', page], ...destArgs(kind, dest.slice(2))] }] });
    } else if (text(dest) !== undefined || name(dest) !== undefined) {
      children.push({ tag: 'Dest', children: [{ tag: 'Named', attrs: [['Name', text(dest) ?? name(dest)!]] }] });
    }
  }
  if (appearance !== undefined) children.push({ tag: 'appearance', text: appearance });
  if (popup) {
    const p = popup.dict;
    const prect = numbers(p.get('Rect'));
    const pattrs: [string, string | number][] = [['page', popup.pageIndex]];
    if (prect?.length === 4) pattrs.push(['rect', list(prect)]);
    pattrs.push(['name', popup.name]);
    const pcolor = hexColor(ctx.resolve(p.get('C')));
    if (pcolor) pattrs.push(['color', pcolor]);
    const pdate = text(p.get('M'));
    if (pdate) pattrs.push(['date', pdate]);
    const pflags = number(p.get('F'));
    if (pflags) pattrs.push(['flags', XFDF_FLAGS.filter((_, i) => pflags & (1 << i)).join(',')]);
    pattrs.push(['open', p.get('Open') === true ? 'yes' : 'no']);
    children.push({ tag: 'popup', attrs: pattrs });
  }
  return { tag, attrs, children };
}

export const DEST_ARGS: Record<string, string[]> = { XYZ: ['Left', 'Top', 'Zoom'], FitH: ['Top'], FitBH: ['Top'], FitV: ['Left'], FitBV: ['Left'], FitR: ['Left', 'Bottom', 'Right', 'Top'] };
function destArgs(kind: string, args: PdfValue[]): [string, number][] {
  return (DEST_ARGS[kind] ?? []).flatMap((key, i) => {
    const n = number(args[i]);
    return n !== undefined ? [[key, n] as [string, number]] : [];
  });
}

/** /RC holds an XHTML document; XFDF carries its <body>. A plain string is wrapped in one. */
function richTextBody(rc: string): string {
  const body = /<body[\s\S]*<\/body>/.exec(rc)?.[0];
  if (body) return body;
  return `<body xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXml(rc)}</p></body>`;
}
