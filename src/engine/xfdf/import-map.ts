/** XFDF elements read into annotation dictionaries: the import half of the mapping in export-map.ts. */
import { decodeAppearance, type ApDict } from './appearance-xml.js';
import { PdfName, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { richTextToPlain, type XfdfElement } from './parse.js';
import { DEST_ARGS, JUSTIFICATION, STYLE_FROM_XFDF, XFDF_ELEMENTS, XFDF_FLAGS } from './export-map.js';

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
export const str = (s: string) => {
  // ASCII (nearly every name, date and author) byte by byte: Buffer.from and the copy out of its pool cost more than
  // the string for text this short, and an import makes several per annotation.
  const ascii = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code > 0x7f) return new PdfString(new Uint8Array(Buffer.from(`\ufeff${s}`, 'utf16le').swap16()));
    ascii[i] = code;
  }
  return new PdfString(ascii);
};
const nm = (s: string) => new PdfName(s);
/** The finite numbers of a list separated by white space, commas or semicolons, in one pass (no arrays between). */
const nums = (s: string | undefined) => {
  if (s === undefined) return undefined;
  const out: number[] = [];
  for (const part of s.split(/[\s,;]+/)) {
    if (part === '') continue;
    const n = Number(part);
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
};
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
