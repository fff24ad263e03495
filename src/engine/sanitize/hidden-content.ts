/**
 * Hidden optional content (SanitizeAction's `hiddenContent`): the layers (OCGs) that the document's default
 * configuration shows OFF, and the marked content, form XObjects, images and annotations that belong to them.
 * Pure over MuPDF objects: `hiddenGroups` decides what is hidden, `stripHidden` removes a content stream's hidden
 * marked-content sections (`/OC /name BDC ... EMC`, nesting kept) and counts them.
 */
import type * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';
import { contentTokens } from '../syntax/content-tokens.js';

/** Object numbers of the OCGs and OCMDs hidden in the default configuration (/OCProperties /D). */
export function hiddenGroups(doc: mupdf.PDFDocument): Set<number> {
  const hidden = new Set<number>();
  const props = deref(deref(doc.getTrailer().get('Root')).get('OCProperties'));
  if (!props.isDictionary()) return hidden;
  const config = deref(props.get('D'));
  const refs = (list: mupdf.PDFObject): number[] => {
    const array = deref(list);
    const out: number[] = [];
    if (array.isArray()) for (let i = 0; i < array.length; i++) if (array.get(i).isIndirect()) out.push(array.get(i).asIndirect());
    return out;
  };
  const all = refs(props.get('OCGs'));
  const off = config.isDictionary() ? new Set(refs(config.get('OFF'))) : new Set<number>();
  const on = config.isDictionary() ? new Set(refs(config.get('ON'))) : new Set<number>();
  const baseOff = config.isDictionary() && name(config.get('BaseState')) === 'OFF';
  for (const g of all) if (baseOff ? !on.has(g) : off.has(g)) hidden.add(g);
  for (const g of off) hidden.add(g);
  return hidden;
}

/**
 * Whether a visibility expression (an OCMD's /VE, ISO 32000-2 8.11.2.2) shows its content: `[/And e ...]`,
 * `[/Or e ...]`, `[/Not e]`, each `e` an OCG (shown unless hidden) or another expression. One that cannot be read
 * (an unknown operator, nesting past 50) is taken as shown: left alone, not guessed at.
 */
function expressionShows(ve: mupdf.PDFObject, hidden: ReadonlySet<number>, depth = 0): boolean {
  if (ve.isIndirect() && !deref(ve).isArray()) return !hidden.has(ve.asIndirect());
  const array = deref(ve);
  if (!array.isArray() || array.length < 2 || depth > 50) return true;
  const args: boolean[] = [];
  for (let i = 1; i < array.length; i++) args.push(expressionShows(array.get(i), hidden, depth + 1));
  switch (name(array.get(0))) {
    case 'And':
      return args.every((a) => a);
    case 'Or':
      return args.some((a) => a);
    case 'Not':
      return args.length === 1 ? !args[0] : true;
    default:
      return true;
  }
}

/**
 * Whether an /OC value (an OCG or an OCMD, by reference) is hidden. An OCMD with a visibility expression (/VE) is
 * hidden when the expression hides it (the expression takes precedence over /OCGs and /P, as ISO 32000 says);
 * otherwise it follows its /P policy over its /OCGs (AnyOn by default).
 */
export function isHidden(oc: mupdf.PDFObject, hidden: ReadonlySet<number>): boolean {
  if (oc.isIndirect() && hidden.has(oc.asIndirect())) return true;
  const dict = deref(oc);
  if (!dict.isDictionary() || name(dict.get('Type')) !== 'OCMD') return false;
  if (!dict.get('VE').isNull()) return !expressionShows(dict.get('VE'), hidden);
  const ocgs = deref(dict.get('OCGs'));
  const members: boolean[] = [];
  if (ocgs.isArray()) for (let i = 0; i < ocgs.length; i++) members.push(ocgs.get(i).isIndirect() && hidden.has(ocgs.get(i).asIndirect()));
  else if (dict.get('OCGs').isIndirect()) members.push(hidden.has(dict.get('OCGs').asIndirect()));
  if (!members.length) return false;
  switch (name(dict.get('P')) ?? 'AnyOn') {
    case 'AllOn':
      return members.some((h) => h);
    case 'AnyOff':
      return members.every((h) => !h);
    case 'AllOff':
      return members.some((h) => !h);
    default:
      return members.every((h) => h);
  }
}

/**
 * The names in a resources' /XObject dictionary of the images and form XObjects whose own /OC is hidden: what they
 * draw is hidden wherever they are drawn (`/name Do`).
 */
export function hiddenXObjects(xobjects: mupdf.PDFObject, hidden: ReadonlySet<number>): Set<string> {
  const names = new Set<string>();
  const dict = deref(xobjects);
  if (!dict.isDictionary()) return names;
  dict.forEach((value, key) => {
    const oc = deref(value).isDictionary() ? deref(value).get('OC') : undefined;
    if (oc && !oc.isNull() && isHidden(oc, hidden)) names.add(String(key));
  });
  return names;
}

/**
 * A content stream with the marked-content sections of hidden groups removed (from the `/OC` operand to the
 * matching `EMC`), and the invocations (`/name Do`) of the XObjects named in `xobjects` (hiddenXObjects), and how many
 * sections: `content` undefined when nothing was cut. `properties`: the resources' /Properties.
 */
export function stripHidden(content: Uint8Array, properties: mupdf.PDFObject, hidden: ReadonlySet<number>, xobjects: ReadonlySet<string> = new Set()): { content?: Uint8Array; sections: number } {
  // Cheap test first: no BDC, no optional content section, and no hidden XObject to look for.
  if (!xobjects.size && Buffer.from(content.buffer, content.byteOffset, content.length).indexOf('BDC') < 0) return { sections: 0 };
  const props = deref(properties);
  const cut: [number, number][] = [];
  // Operands since the last operator, and the open marked-content sections: whether each is a hidden one, where it began.
  let operands: { kind: string; value?: string; start: number }[] = [];
  const open: { hidden: boolean; start: number }[] = [];
  let depth = 0;
  for (const t of contentTokens(content)) {
    if (t.kind === 'array-open' || t.kind === 'dict-open') depth++;
    else if (t.kind === 'array-close' || t.kind === 'dict-close') depth = Math.max(0, depth - 1);
    if (depth > 0 || t.kind === 'array-close' || t.kind === 'dict-close') {
      if (depth === 0) operands.push({ kind: 'group', start: t.start });
      continue;
    }
    if (t.kind !== 'operator') {
      operands.push({ kind: t.kind, value: t.kind === 'name' ? t.value : undefined, start: t.start });
      continue;
    }
    if (t.value === 'BDC' || t.value === 'BMC') {
      const tag = operands[operands.length - (t.value === 'BDC' ? 2 : 1)];
      const prop = operands[operands.length - 1];
      let isHiddenSection = false;
      if (t.value === 'BDC' && tag?.value === 'OC' && prop?.kind === 'name' && props.isDictionary()) isHiddenSection = isHidden(props.get(prop.value!), hidden);
      // Inside a hidden section everything goes with it; only the outermost is cut.
      open.push({ hidden: isHiddenSection && !open.some((o) => o.hidden), start: tag?.start ?? t.start });
    } else if (t.value === 'EMC') {
      const section = open.pop();
      if (section?.hidden) cut.push([section.start, t.end]);
    } else if (t.value === 'Do' && !open.some((o) => o.hidden)) {
      const xobject = operands[operands.length - 1];
      if (xobject?.kind === 'name' && xobjects.has(xobject.value!)) cut.push([xobject.start, t.end]);
    }
    operands = [];
  }
  // A hidden section left open at the end of the stream goes to the end.
  const unclosed = open.find((o) => o.hidden);
  if (unclosed) cut.push([unclosed.start, content.length]);
  if (!cut.length) return { sections: 0 };
  const parts: Buffer[] = [];
  let from = 0;
  for (const [a, b] of cut.sort((x, y) => x[0] - y[0])) {
    parts.push(Buffer.from(content.buffer, content.byteOffset + from, a - from), Buffer.from(' '));
    from = b;
  }
  parts.push(Buffer.from(content.buffer, content.byteOffset + from, content.length - from));
  return { content: Buffer.concat(parts), sections: cut.length };
}
