import { ANNOTATION_FLAGS } from '../annotations/model.js';
import { decodeAppearance, type ApDict } from './appearance-xml.js';
import { isDict, name, number, numbers, ref, text } from '../syntax/readers.js';
import { PdfName, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { escapeXml, type XmlNode } from '../syntax/xml-writer.js';
import { roundedNumber } from '../syntax/numbers.js';
import { richTextToPlain, type XfdfElement } from './parse.js';

/**
 * The one mapping between annotation dictionaries and XFDF elements (ISO
 * 19444-1), both directions, so that what we export we import unchanged. It
 * works on parsed PDF values (pdf-syntax.ts) and plain XML nodes; no MuPDF here.
 */

/** XFDF element <-> /Subtype. Subtypes without an XFDF element (Widget, Movie, 3D, ...) are not exported. */
export const XFDF_ELEMENTS: Record<string, string> = {
  text: 'Text', freetext: 'FreeText', line: 'Line', square: 'Square', circle: 'Circle', polygon: 'Polygon',
  polyline: 'PolyLine', highlight: 'Highlight', underline: 'Underline', squiggly: 'Squiggly', strikeout: 'StrikeOut',
  caret: 'Caret', stamp: 'Stamp', ink: 'Ink', popup: 'Popup', fileattachment: 'FileAttachment', sound: 'Sound',
  link: 'Link', redact: 'Redact',
};
export const ELEMENT_OF_SUBTYPE: Record<string, string> = Object.fromEntries(Object.entries(XFDF_ELEMENTS).map(([e, s]) => [s, e]));

const XFDF_FLAGS = ANNOTATION_FLAGS.map((f) => f.toLowerCase());
const STYLE_TO_XFDF: Record<string, string> = { S: 'solid', D: 'dash', B: 'bevelled', I: 'inset', U: 'underline' };
const STYLE_FROM_XFDF: Record<string, string> = { solid: 'S', dash: 'D', dashed: 'D', bevelled: 'B', beveled: 'B', inset: 'I', underline: 'U' };
const JUSTIFICATION = ['left', 'centered', 'right'];

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

const DEST_ARGS: Record<string, string[]> = { XYZ: ['Left', 'Top', 'Zoom'], FitH: ['Top'], FitBH: ['Top'], FitV: ['Left'], FitBV: ['Left'], FitR: ['Left', 'Bottom', 'Right', 'Top'] };
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

// ---------------------------------------------------------------- import

/** An annotation read from XFDF or FDF, before it is written into a document. */
export interface IncomingAnnotation {
  subtype: string;
  pageIndex: number;
  name?: string;
  /** Entries to write, references left out (they are set from the fields below). */
  dict: PdfDict;
  inReplyTo?: string;
  popup?: { pageIndex: number; name?: string; dict: PdfDict };
  /** A FileAttachment's file: its name and, when the XFDF carries it, its bytes. */
  file?: { name: string; bytes?: Uint8Array; mimeType: string };
  destinationPage?: number;
  /** The /AP an <appearance> carried: set as is, never drawn anew. */
  appearance?: ApDict;
}

/** A PDF text string: plain bytes when ASCII, else UTF-16BE with its byte order mark. */
export const str = (s: string) =>
  new PdfString(/^[\x00-\x7f]*$/.test(s) ? Uint8Array.from(Buffer.from(s, 'latin1')) : Uint8Array.from(Buffer.from(`\ufeff${s}`, 'utf16le').swap16()));
const nm = (s: string) => new PdfName(s);
const nums = (s: string | undefined) => (s === undefined ? undefined : s.split(/[\s,;]+/).filter(Boolean).map(Number).filter((n) => Number.isFinite(n)));
const colorOf = (hex: string | undefined) => {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? '');
  return m ? [1, 2, 3].map((i) => Math.round((parseInt(m[i]!, 16) / 255) * 1e4) / 1e4) : undefined;
};

function flagBits(s: string | undefined): number | undefined {
  if (!s) return undefined;
  let bits = 0;
  for (const f of s.split(/[\s,]+/)) {
    const i = XFDF_FLAGS.indexOf(f.toLowerCase());
    if (i >= 0) bits |= 1 << i;
  }
  return bits;
}

/**
 * The PDF entries of an XFDF annotation element. Throws a message for an
 * element that cannot be used, and EngineError MALFORMED_XFDF for an
 * <appearance> that cannot be decoded; what is left out of an appearance is
 * said in `notes`.
 */
export function fromXfdfElement(e: XfdfElement, notes: string[] = []): IncomingAnnotation {
  const subtype = XFDF_ELEMENTS[e.tag.toLowerCase()];
  if (!subtype) throw new Error(`unknown annotation element <${e.tag}>`);
  const a = e.attrs;
  const pageIndex = Number(a['page']);
  if (!Number.isInteger(pageIndex) || pageIndex < 0) throw new Error(`<${e.tag}> has no valid page attribute`);
  const d: PdfDict = new Map();
  d.set('Type', nm('Annot'));
  d.set('Subtype', nm(subtype));
  const rect = nums(a['rect']);
  if (rect?.length !== 4) throw new Error(`<${e.tag}> has no valid rect attribute`);
  d.set('Rect', rect);
  if (a['name']) d.set('NM', str(a['name']));
  if (a['title'] !== undefined) d.set('T', str(a['title']));
  if (a['subject'] !== undefined) d.set('Subj', str(a['subject']));
  if (a['date']) d.set('M', str(a['date']));
  if (a['creationdate']) d.set('CreationDate', str(a['creationdate']));
  const c = colorOf(a['color']);
  if (c) d.set('C', c);
  const ic = colorOf(a['interior-color']);
  if (ic) d.set('IC', ic);
  if (a['opacity'] !== undefined && Number.isFinite(Number(a['opacity']))) d.set('CA', Number(a['opacity']));
  const f = flagBits(a['flags']);
  if (f !== undefined) d.set('F', f);
  const style = a['style']?.toLowerCase();
  const bs: PdfDict = new Map();
  if (a['width'] !== undefined && Number.isFinite(Number(a['width']))) bs.set('W', Number(a['width']));
  if (style && STYLE_FROM_XFDF[style]) bs.set('S', nm(STYLE_FROM_XFDF[style]));
  const dashes = nums(a['dashes']);
  if (dashes?.length) bs.set('D', dashes);
  if (bs.size) d.set('BS', bs);
  if (style === 'cloudy') d.set('BE', new Map<string, PdfValue>([['S', nm('C')], ['I', Number(a['intensity'] ?? 1) || 1]]));
  if (a['rotation'] !== undefined && Number.isFinite(Number(a['rotation']))) d.set('Rotate', Number(a['rotation']));
  if (a['icon']) d.set('Name', nm(a['icon']));
  if (a['state'] !== undefined) d.set('State', str(a['state']));
  if (a['statemodel'] !== undefined) d.set('StateModel', str(a['statemodel']));
  const intent = a['intent'] ?? a['IT'];
  if (intent) d.set('IT', nm(intent));
  const fringe = nums(a['fringe']);
  if (fringe?.length === 4) d.set('RD', fringe);
  const coords = nums(a['coords']);
  if (coords?.length) d.set('QuadPoints', coords.slice(0, coords.length - (coords.length % 8)));
  const start = nums(a['start']);
  const end = nums(a['end']);
  if (start?.length === 2 && end?.length === 2) d.set('L', [...start, ...end]);
  if (a['head'] !== undefined || a['tail'] !== undefined) {
    d.set('LE', subtype === 'FreeText' ? nm(a['head'] ?? 'None') : [nm(a['head'] ?? 'None'), nm(a['tail'] ?? 'None')]);
  }
  for (const [attr, key] of [['leaderLength', 'LL'], ['leaderExtension', 'LLE'], ['leaderOffset', 'LLO']] as const) {
    if (a[attr] !== undefined && Number.isFinite(Number(a[attr]))) d.set(key, Number(a[attr]));
  }
  if (a['caption'] !== undefined) d.set('Cap', a['caption'] === 'yes' || a['caption'] === 'true');
  const callout = nums(a['callout']);
  if (callout?.length) d.set('CL', callout);
  const justification = JUSTIFICATION.indexOf((a['justification'] ?? '').toLowerCase());
  if (justification >= 0) d.set('Q', justification);
  if (a['overlay-text'] !== undefined) d.set('OverlayText', str(a['overlay-text']));
  if (a['repeat'] !== undefined) d.set('Repeat', a['repeat'] === 'true' || a['repeat'] === 'yes');
  if (a['open'] !== undefined && (subtype === 'Text' || subtype === 'Popup')) d.set('Open', a['open'] === 'yes' || a['open'] === 'true');

  const incoming: IncomingAnnotation = { subtype, pageIndex, dict: d, ...(a['name'] ? { name: a['name'] } : {}) };
  if (a['inreplyto']) {
    incoming.inReplyTo = a['inreplyto'];
    if ((a['replyType'] ?? a['replytype'])?.toLowerCase() === 'group') d.set('RT', nm('Group'));
  }
  // Legacy link form (PDFBox writes it): actiontype="URI" target="...".
  if (subtype === 'Link' && a['actiontype']?.toUpperCase() === 'URI' && a['target']) {
    d.set('A', new Map<string, PdfValue>([['S', nm('URI')], ['URI', new PdfString(Uint8Array.from(Buffer.from(a['target'], 'latin1')))]]));
  }
  if (subtype === 'FileAttachment' && a['file']) incoming.file = { name: a['file'], mimeType: a['mimetype'] ?? 'application/octet-stream' };
  for (const child of e.children) {
    const tag = child.tag.toLowerCase();
    if (tag === 'contents') d.set('Contents', str(child.text));
    else if (tag === 'contents-richtext') {
      const xhtml = (child.raw ?? '').trim();
      d.set('RC', str(xhtml));
      if (!d.has('Contents')) d.set('Contents', str(richTextToPlain(xhtml)));
    } else if (tag === 'vertices') d.set('Vertices', nums(child.text) ?? []);
    else if (tag === 'inklist') d.set('InkList', child.children.filter((g) => g.tag.toLowerCase() === 'gesture').map((g) => nums(g.text) ?? []));
    else if (tag === 'defaultappearance') d.set('DA', str(child.text));
    else if (tag === 'defaultstyle') d.set('DS', str(child.text));
    else if (tag === 'popup') {
      const pr = nums(child.attrs['rect']);
      const pd: PdfDict = new Map<string, PdfValue>([['Type', nm('Annot')], ['Subtype', nm('Popup')]]);
      if (pr?.length === 4) pd.set('Rect', pr);
      const pc = colorOf(child.attrs['color']);
      if (pc) pd.set('C', pc);
      if (child.attrs['date']) pd.set('M', str(child.attrs['date']));
      pd.set('Open', child.attrs['open'] === 'yes' || child.attrs['open'] === 'true');
      const pf = flagBits(child.attrs['flags']);
      if (pf !== undefined) pd.set('F', pf);
      if (child.attrs['name']) pd.set('NM', str(child.attrs['name']));
      const page = Number(child.attrs['page'] ?? pageIndex);
      incoming.popup = { pageIndex: Number.isInteger(page) ? page : pageIndex, dict: pd, ...(child.attrs['name'] ? { name: child.attrs['name'] } : {}) };
    } else if (tag === 'data' && subtype === 'FileAttachment') {
      const encoding = (child.attrs['encoding'] ?? 'hex').toLowerCase();
      const body = child.text.replace(/\s+/g, '');
      const bytes = encoding === 'base64' ? Buffer.from(body, 'base64') : encoding === 'hex' ? Buffer.from(body, 'hex') : Buffer.from(child.text, 'latin1');
      incoming.file = { name: a['file'] ?? 'attachment', bytes: Uint8Array.from(bytes), mimeType: a['mimetype'] ?? 'application/octet-stream' };
    } else if (tag === 'appearance') {
      const what = `The <appearance> of <${e.tag}${a['name'] ? ` name="${a['name'].slice(0, 100)}"` : ''}>`;
      const ap = decodeAppearance(child.text, what, notes);
      if (ap) incoming.appearance = ap;
      else delete incoming.appearance;
    } else if (tag === 'onactivation' && subtype === 'Link') {
      const uri = findElement(child, 'uri')?.attrs['Name'];
      if (uri !== undefined) d.set('A', new Map<string, PdfValue>([['S', nm('URI')], ['URI', new PdfString(Uint8Array.from(Buffer.from(uri, 'latin1')))]]));
    } else if (tag === 'dest' && subtype === 'Link') {
      const target = child.children[0];
      if (target && target.tag !== 'Named' && Number.isInteger(Number(target.attrs['Page']))) {
        incoming.destinationPage = Number(target.attrs['Page']);
        const args = (DEST_ARGS[target.tag] ?? []).map((k) => (target.attrs[k] !== undefined ? Number(target.attrs[k]) : null));
        d.set('Dest', [null, nm(target.tag), ...args]); // the page reference is set when written
      } else if (target?.attrs['Name']) {
        d.set('Dest', str(target.attrs['Name']));
      }
    }
  }
  return incoming;
}

function findElement(e: XfdfElement, tag: string): XfdfElement | undefined {
  for (const c of e.children) {
    if (c.tag.toLowerCase() === tag) return c;
    const deeper = findElement(c, tag);
    if (deeper) return deeper;
  }
  return undefined;
}
