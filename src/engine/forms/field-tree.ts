/**
 * The form's fields read from a document (AcroForm): found by walking the
 * AcroForm field tree, then the pages' widgets it does not reach, so every
 * terminal field is seen once with its fully qualified name; with their
 * types, options, states and values. Writing values is field-values.ts.
 */
import type * as mupdf from 'mupdf';
import { decodeTextString } from '../syntax/parser.js';
import { type ExportedField, type FieldType } from '../xfdf/field-data.js';
import { deref, inheritable } from '../core/mupdf-objects.js';

/** Field flags (ISO 32000-1 tables 221, 226, 228, 230). */
export const FIELD_FLAGS = {
  readOnly: 1 << 0,
  required: 1 << 1,
  noExport: 1 << 2,
  multiline: 1 << 12,
  password: 1 << 13,
  comb: 1 << 24,
  noToggleToOff: 1 << 14,
  radio: 1 << 15,
  pushbutton: 1 << 16,
  combo: 1 << 17,
  edit: 1 << 18,
  multiSelect: 1 << 21,
} as const;
const FF = FIELD_FLAGS;

const MAX_FIELD_NODES = 100_000;
const MAX_DEPTH = 64;

/** One terminal field: the dictionary that holds its value, and the widgets that show it (as references where they are indirect). */
export interface FormField {
  name: string;
  type: FieldType;
  flags: number;
  field: mupdf.PDFObject;
  widgets: mupdf.PDFObject[];
}

function fieldType(field: mupdf.PDFObject, flags: number): FieldType | undefined {
  const ft = deref(inheritable(field, 'FT'));
  switch (ft.isName() ? ft.asName() : '') {
    case 'Tx':
      return 'text';
    case 'Btn':
      return flags & FF.pushbutton ? 'pushbutton' : flags & FF.radio ? 'radio' : 'checkbox';
    case 'Ch':
      return flags & FF.combo ? 'combo' : 'list';
    case 'Sig':
      return 'signature';
    default:
      return undefined;
  }
}

function partialName(obj: mupdf.PDFObject): string | undefined {
  const t = deref(obj.get('T'));
  return t.isString() ? t.asString() : undefined;
}

/** The items of an array object (none for anything else). */
function itemsOf(list: mupdf.PDFObject): mupdf.PDFObject[] {
  const items = deref(list);
  const out: mupdf.PDFObject[] = [];
  if (items.isArray()) for (let i = 0; i < items.length; i++) out.push(items.get(i));
  return out;
}

/** The fully qualified name of a field node: the partial names up its /Parent chain (loop-safe, bounded). */
export function qualifiedName(node: mupdf.PDFObject): string {
  const parts: string[] = [];
  const chain = new Set<number>();
  for (let n = node, steps = 0; steps < MAX_DEPTH; steps++) {
    const d = deref(n);
    if (!d.isDictionary()) break;
    const partial = partialName(d);
    if (partial !== undefined) parts.unshift(partial);
    const parent = d.get('Parent');
    if (!parent.isIndirect() || chain.has(parent.asIndirect())) break;
    chain.add(parent.asIndirect());
    n = parent;
  }
  return parts.join('.');
}

/** The widget annotations of every page's /Annots, in page order. */
function pageWidgets(doc: mupdf.PDFDocument): mupdf.PDFObject[] {
  const out: mupdf.PDFObject[] = [];
  const count = doc.countPages();
  for (let p = 0; p < count; p++) {
    for (const a of itemsOf(doc.findPage(p).get('Annots'))) {
      const subtype = deref(a).isDictionary() ? deref(deref(a).get('Subtype')) : undefined;
      if (subtype?.isName() && subtype.asName() === 'Widget') out.push(a);
    }
  }
  return out;
}

/**
 * The terminal fields in field-tree order. A kid with /T is a field; kids
 * without are the field's widgets (a field without kids is its own widget).
 * Loops and shared nodes are visited once; the walk is bounded. Then, as qpdf
 * does, the widgets on pages that the tree does not reach (a field its
 * creator left out of /AcroForm /Fields, or out of its parent's /Kids): each
 * is read from its highest ancestor the walk has not seen, named by the
 * ancestors above that.
 */
export function readFormFields(doc: mupdf.PDFDocument): FormField[] {
  const acroForm = deref(deref(doc.getTrailer().get('Root')).get('AcroForm'));
  if (!acroForm.isDictionary()) return [];
  const out: FormField[] = [];
  const seen = new Set<number>();
  let visited = 0;
  const walk = (items: mupdf.PDFObject[], prefix: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const item of items) {
      if (++visited > MAX_FIELD_NODES) return;
      if (item.isIndirect()) {
        if (seen.has(item.asIndirect())) continue;
        seen.add(item.asIndirect());
      }
      const node = deref(item);
      if (!node.isDictionary()) continue;
      const partial = partialName(node);
      const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
      const kidList = itemsOf(node.get('Kids'));
      const childFields = kidList.filter((k) => partialName(deref(k)) !== undefined);
      if (childFields.length > 0) {
        walk(kidList, name, depth + 1);
        continue;
      }
      const flagsObj = deref(inheritable(node, 'Ff'));
      const flags = flagsObj.isNumber() ? flagsObj.asNumber() : 0;
      const type = fieldType(node, flags);
      if (!type || !name) continue;
      const widgets = kidList.length > 0 ? kidList.filter((k) => deref(k).isDictionary()) : [item];
      for (const w of widgets) if (w.isIndirect()) seen.add(w.asIndirect());
      // The reference, not the resolved dictionary: MuPDF may move an object to a new copy when the
      // widget API edits it, and a resolved handle taken before would then write to the stale copy.
      out.push({ name, type, flags, field: item, widgets });
    }
  };
  walk(itemsOf(acroForm.get('Fields')), '', 0);
  for (const widget of pageWidgets(doc)) {
    if (visited > MAX_FIELD_NODES) break;
    if (widget.isIndirect() && seen.has(widget.asIndirect())) continue;
    let top = widget;
    let prefix = '';
    const chain = new Set<number>(widget.isIndirect() ? [widget.asIndirect()] : []);
    for (let steps = 0; steps < MAX_DEPTH; steps++) {
      const parent = deref(top).get('Parent');
      if (!parent.isIndirect() || chain.has(parent.asIndirect()) || !deref(parent).isDictionary()) break;
      if (seen.has(parent.asIndirect())) {
        prefix = qualifiedName(parent);
        break;
      }
      chain.add(parent.asIndirect());
      top = parent;
    }
    walk([top], prefix, 0);
  }
  return out;
}

/**
 * Breaks loops in the field tree before MuPDF's form code walks it: a kid
 * that is its own ancestor (or already seen elsewhere) leaves /Kids, and a
 * /Parent chain that comes back to itself is cut. MuPDF recurses through
 * such trees until the stack overflows. Only documents that have loops are
 * changed, and only there.
 */
export function breakFieldLoops(doc: mupdf.PDFDocument): void {
  const acroForm = deref(deref(doc.getTrailer().get('Root')).get('AcroForm'));
  if (!acroForm.isDictionary()) return;
  const seen = new Set<number>();
  let visited = 0;
  const walk = (list: mupdf.PDFObject, ancestors: number[], depth: number) => {
    const items = deref(list);
    if (!items.isArray()) return;
    for (let i = items.length - 1; i >= 0; i--) {
      if (++visited > MAX_FIELD_NODES) return;
      const item = items.get(i);
      const num = item.isIndirect() ? item.asIndirect() : undefined;
      if (num !== undefined && (seen.has(num) || ancestors.includes(num) || depth > MAX_DEPTH)) {
        items.delete(i);
        continue;
      }
      if (num !== undefined) seen.add(num);
      const node = deref(item);
      if (!node.isDictionary()) continue;
      const kids = node.get('Kids');
      if (!kids.isNull()) walk(kids, num === undefined ? ancestors : [...ancestors, num], depth + 1);
    }
  };
  walk(acroForm.get('Fields'), [], 0);
  // /Parent chains: from every node reached, follow /Parent; a chain that returns to a node on it is cut there.
  for (const start of seen) {
    const chain = new Set<number>([start]);
    let node = doc.newIndirect(start);
    for (let steps = 0; steps < MAX_DEPTH; steps++) {
      const parent = deref(node).isDictionary() ? deref(node).get('Parent') : undefined;
      if (!parent || !parent.isIndirect()) break;
      if (chain.has(parent.asIndirect())) {
        deref(node).delete('Parent');
        break;
      }
      chain.add(parent.asIndirect());
      node = parent;
    }
  }
}

/** The states a button widget can show, from its normal appearances, "Off" left out. */
export function onStates(widget: mupdf.PDFObject): string[] {
  const ap = deref(deref(widget).get('AP'));
  // A missing key is MuPDF's shared Null, whose get() throws: a button without appearances has no states of its own.
  if (!ap.isDictionary()) return [];
  const normal = deref(ap.get('N'));
  const states: string[] = [];
  if (normal.isDictionary()) normal.forEach((_v, key) => {
    if (typeof key === 'string' && key !== 'Off') states.push(key);
  });
  return states;
}

/** /Opt of a choice field as export values and display texts ([export display] pairs or plain texts). */
export function choiceOptions(field: mupdf.PDFObject): { exports: string[]; displays: string[] } {
  const opt = deref(inheritable(field, 'Opt'));
  const exports: string[] = [];
  const displays: string[] = [];
  if (opt.isArray()) {
    for (let i = 0; i < opt.length; i++) {
      const entry = deref(opt.get(i));
      if (entry.isArray() && entry.length >= 2) {
        exports.push(deref(entry.get(0)).asString());
        displays.push(deref(entry.get(1)).asString());
      } else if (entry.isString()) {
        exports.push(entry.asString());
        displays.push(entry.asString());
      }
    }
  }
  return { exports, displays };
}

/** A button field's /Opt (export values by widget index), when it has one. */
export function buttonExports(field: mupdf.PDFObject): string[] | undefined {
  const opt = deref(field.get('Opt'));
  if (!opt.isArray()) return undefined;
  const out: string[] = [];
  for (let i = 0; i < opt.length; i++) {
    const o = deref(opt.get(i));
    out.push(o.isString() ? o.asString() : '');
  }
  return out;
}

/** A button field's on-states, each with the value it exports (its /Opt entry, or the state name). */
export function buttonStates(f: FormField): { state: string; exportValue: string }[] {
  const exports = buttonExports(f.field);
  const seen = new Set<string>();
  const out: { state: string; exportValue: string }[] = [];
  f.widgets.forEach((w, index) => {
    for (const state of onStates(w)) {
      if (seen.has(state)) continue;
      seen.add(state);
      out.push({ state, exportValue: exports?.[index] || state });
    }
  });
  return out;
}

/** The field's value (/V), absent when it has none. */
export function currentValue(f: FormField): string | string[] | undefined {
  return valueOf(f, inheritable(f.field, 'V'));
}

/** The option indexes a list box has selected (its /V matched against its export values). */
export function selectedIndexes(f: FormField): number[] {
  const value = currentValue(f);
  if (value === undefined) return [];
  const { exports } = choiceOptions(f.field);
  return (Array.isArray(value) ? value : [value]).map((v) => exports.indexOf(v)).filter((i) => i >= 0).sort((a, b) => a - b);
}

/**
 * A value object (/V or /DV, as the field has it: a reference is followed
 * here) as the field's type reads it; undefined when empty. A text field's
 * value may be a text stream instead of a string (ISO 32000-1, 12.7.4.3),
 * as long texts are (corpus: pdfbox/forms/AcroFormsBasicFields.pdf).
 */
export function valueOf(f: FormField, value: mupdf.PDFObject): string | string[] | undefined {
  // Only the reference knows it is a stream (core/mupdf-objects.ts).
  if (f.type === 'text' && value.isStream()) {
    const text = decodeTextString(value.readStream().asUint8Array());
    return text === '' ? undefined : text;
  }
  const v = deref(value);
  if (f.type === 'checkbox' || f.type === 'radio') {
    if (!v.isName()) return undefined;
    const state = v.asName();
    if (state === 'Off') return undefined;
    // With /Opt, the state names are indexes ("0", "1") and the exported value is the option text.
    const exports = buttonExports(f.field);
    const index = f.widgets.findIndex((w) => onStates(w).includes(state));
    return exports && index >= 0 && exports[index] ? exports[index] : state;
  }
  if (v.isString()) {
    const s = v.asString();
    if (s === '') return undefined;
    // A list box's value is an array, single-select too (docs/forms.md): one type per field type for clients.
    return f.type === 'list' ? [s] : s;
  }
  if (v.isArray() && (f.type === 'list' || f.type === 'combo')) {
    const items: string[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = deref(v.get(i));
      if (item.isString()) items.push(item.asString());
    }
    if (items.length === 0) return undefined;
    return f.type === 'list' ? items : items[0];
  }
  return undefined;
}

const EMPTY: Partial<Record<FieldType, string | string[]>> = { text: '', checkbox: 'Off', radio: 'Off', combo: '', list: [] };

/** The empty value of a field type; undefined for the types that hold no data (push buttons, signatures). */
export function emptyValue(type: FieldType): string | string[] | undefined {
  return EMPTY[type];
}

/**
 * The values of the document's terminal fields. Push buttons and signature
 * fields hold no data and are never exported (as Acrobat does). A field
 * without a value (a button that is Off) is left out unless
 * `exportEmptyFields`, then it has an empty value ("Off" for buttons).
 */
export function exportFieldValues(doc: mupdf.PDFDocument, options: { exportEmptyFields: boolean }): ExportedField[] {
  const out: ExportedField[] = [];
  for (const f of readFormFields(doc)) {
    const empty = EMPTY[f.type];
    if (empty === undefined) continue;
    const value = currentValue(f);
    if (value !== undefined) out.push({ name: f.name, type: f.type, value });
    else if (options.exportEmptyFields) out.push({ name: f.name, type: f.type, value: empty });
  }
  return out;
}
