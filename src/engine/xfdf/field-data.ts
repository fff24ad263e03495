/**
 * Form field data as XFDF (ISO 19444-1 `<fields>`) and FDF (ISO 32000-1
 * §12.7.8 `/Fields`), both directions. Pure: no MuPDF, so bodies are read
 * without touching a document. Field names are fully qualified ("person.name");
 * both formats nest them by their dots, and a flat dotted name is read the same
 * way as the nested form.
 */
import { EngineError } from '../errors.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';
import { parseFdf, resolveFdf, textString, writeFdf, type FdfFile } from './fdf.js';
import { decodeTextString, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { escapeXml, hasNonXml, nonXmlWarning } from '../syntax/xml-writer.js';
import { isTag, parseXfdf, richTextToPlain, type XfdfElement } from './parse.js';

export type FieldType = 'text' | 'checkbox' | 'radio' | 'combo' | 'list' | 'pushbutton' | 'signature';

/** A value to set: text, a state name ("Yes", "Off"), an export value, or several for a multi-select list. */
export interface FieldValue {
  name: string;
  value: string | string[];
}

/** A field as exported: buttons' values are state names, lists' values arrays. */
export interface ExportedField extends FieldValue {
  type: FieldType;
}

export type FieldDataFormat = 'xfdf' | 'fdf';

export interface ParsedFieldData {
  values: FieldValue[];
  warnings: string[];
}

/** The document a data file belongs to: XFDF `<f href>` / FDF `/F`, and the PDF's /ID pair. */
export interface FieldDataSource {
  fileName?: string | undefined;
  ids?: [Uint8Array, Uint8Array] | undefined;
}

const MAX_DEPTH = 64;

/** A tree of names: "person.name" and "person.email" share the node "person". */
interface NameNode {
  name: string;
  field?: ExportedField;
  kids: NameNode[];
}

function nameTree(fields: ExportedField[]): NameNode[] {
  const roots: NameNode[] = [];
  const index = new Map<string, NameNode>();
  for (const field of fields) {
    let siblings = roots;
    let path = '';
    let node: NameNode | undefined;
    for (const part of field.name.split('.')) {
      path = path ? `${path}.${part}` : part;
      node = index.get(path);
      if (!node) {
        node = { name: part, kids: [] };
        index.set(path, node);
        siblings.push(node);
      }
      siblings = node.kids;
    }
    node!.field = field;
  }
  return roots;
}

// ---------------------------------------------------------------- XFDF

const XFDF_NS = 'http://ns.adobe.com/xfdf/';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/**
 * The fields as XFDF, laid out as Acrobat writes it: `<fields>` first, then
 * `<f href>` and `<ids>`; one element per line, no indentation (with
 * xml:space="preserve", indentation would be content).
 */
function fieldsToXfdf(fields: ExportedField[], source: FieldDataSource = {}): Uint8Array {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<xfdf xmlns="${XFDF_NS}" xml:space="preserve">`];
  const write = (node: NameNode) => {
    lines.push(`<field name="${escapeXml(node.name, true)}">`);
    const value = node.field?.value;
    if (value !== undefined) {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values.length ? values : ['']) lines.push(v === '' ? '<value/>' : `<value>${escapeXml(v)}</value>`);
    }
    node.kids.forEach(write);
    lines.push('</field>');
  };
  const tree = nameTree(fields);
  if (tree.length) {
    lines.push('<fields>');
    tree.forEach(write);
    lines.push('</fields>');
  } else {
    lines.push('<fields/>');
  }
  if (source.fileName !== undefined) lines.push(`<f href="${escapeXml(source.fileName, true)}"/>`);
  if (source.ids) lines.push(`<ids original="${hex(source.ids[0])}" modified="${hex(source.ids[1])}"/>`);
  lines.push('</xfdf>', '');
  return new Uint8Array(Buffer.from(lines.join('\n'), 'utf8'));
}

/** Reads the `<fields>` of an XFDF body (parsed by the one XFDF reader, xfdf/parse.ts) into fully qualified names and values. */
export function parseFieldsXfdf(body: Uint8Array): ParsedFieldData {
  const xfdf = parseXfdf(body);
  const warnings: string[] = [];
  const values: FieldValue[] = [];
  if (xfdf.children.some((c) => isTag(c, 'annots'))) warnings.push('The <annots> of the XFDF were ignored: import annotations at .../annotations/content');

  const walk = (fields: XfdfElement[], prefix: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new EngineError('MALFORMED_XFDF', `Fields nest deeper than ${MAX_DEPTH} levels`);
    for (const field of fields.filter((c) => isTag(c, 'field'))) {
      const partial = field.attrs['name'];
      if (partial === undefined || partial === '') throw new EngineError('MALFORMED_XFDF', 'Every <field> needs a name attribute');
      const name = prefix ? `${prefix}.${partial}` : partial;
      const plain = field.children.filter((c) => isTag(c, 'value'));
      const rich = field.children.find((c) => isTag(c, 'value-richtext'));
      if (plain.length) {
        const texts = plain.map((v) => v.text);
        values.push({ name, value: texts.length === 1 ? texts[0]! : texts });
      } else if (rich) {
        // XFDF allows rich text for text fields; the field gets its plain text (MuPDF draws no rich text).
        values.push({ name, value: richTextToPlain(rich.raw ?? '') });
        warnings.push(`Field ${JSON.stringify(name)}: rich text (value-richtext) was imported as plain text`);
      }
      walk(field.children, name, depth + 1);
    }
  };
  for (const fields of xfdf.children.filter((c) => isTag(c, 'fields'))) walk(fields.children, '', 0);
  return { values, warnings };
}

// ---------------------------------------------------------------- FDF

function fdfValue(field: ExportedField): PdfValue {
  const { type, value } = field;
  if (type === 'checkbox' || type === 'radio') return new PdfName(Array.isArray(value) ? (value[0] ?? 'Off') : value || 'Off');
  if (Array.isArray(value)) return value.length === 1 ? textString(value[0]!) : value.map(textString);
  return textString(value);
}

/** The fields as an FDF file: `/Fields` nested by name, `/F` and `/ID` from the source document. */
function fieldsToFdf(fields: ExportedField[], source: FieldDataSource = {}): Uint8Array {
  const toDict = (node: NameNode): PdfDict => {
    const dict: PdfDict = new Map<string, PdfValue>([['T', textString(node.name)]]);
    if (node.field) dict.set('V', fdfValue(node.field));
    if (node.kids.length) dict.set('Kids', node.kids.map(toDict));
    return dict;
  };
  const root: PdfDict = new Map<string, PdfValue>([['Fields', nameTree(fields).map(toDict)]]);
  return writeFdf({ root, ...(source.fileName !== undefined ? { fileName: source.fileName } : {}), ...(source.ids ? { ids: source.ids } : {}) });
}

/** A /V as a field value; undefined for values that are not form data (a signature dictionary, a stream). */
function valueOf(v: PdfValue | undefined): string | string[] | undefined {
  if (v instanceof PdfString) return decodeTextString(v.bytes);
  if (v instanceof PdfName) return v.name;
  if (Array.isArray(v) && v.every((x) => x instanceof PdfString)) return v.map((x) => decodeTextString((x as PdfString).bytes));
  return undefined;
}

/** Reads the /Fields of a parsed FDF into fully qualified names and values. */
function fieldValuesFromFdf(fdf: FdfFile): ParsedFieldData {
  const warnings = [...fdf.warnings];
  const values: FieldValue[] = [];
  const seen = new Set<number>();
  if (fdf.root.has('Annots')) warnings.push('The /Annots of the FDF were ignored: import annotations at .../annotations/content');

  const walk = (list: PdfValue | undefined, prefix: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new EngineError('MALFORMED_FDF', `Fields nest deeper than ${MAX_DEPTH} levels`);
    const items = resolveFdf(fdf, list);
    if (!Array.isArray(items)) return;
    for (const item of items) {
      // A field object listed twice, or a /Kids loop, is read once.
      if (item instanceof PdfRef) {
        if (seen.has(item.num)) continue;
        seen.add(item.num);
      }
      const field = resolveFdf(fdf, item);
      if (!(field instanceof Map)) continue;
      const t = resolveFdf(fdf, field.get('T'));
      const partial = t instanceof PdfString ? decodeTextString(t.bytes) : undefined;
      const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
      if (field.has('V') && name) {
        const value = valueOf(resolveFdf(fdf, field.get('V')));
        if (value === undefined) warnings.push(`Field ${JSON.stringify(name)}: its /V is not a text, name or list of texts and was ignored`);
        else values.push({ name, value });
      }
      walk(field.get('Kids'), name, depth + 1);
    }
  };
  walk(fdf.root.get('Fields'), '', 0);
  return { values, warnings };
}

function parseFieldsFdf(body: Uint8Array): ParsedFieldData {
  return fieldValuesFromFdf(parseFdf(body));
}

/** The `parseFieldData` task: a request body read without any document (from its staged file when it is large). */
export function parseFieldData(input: { body: PdfSource; format: FieldDataFormat }): ParsedFieldData {
  const body = readAll(input.body);
  return input.format === 'xfdf' ? parseFieldsXfdf(body) : parseFieldsFdf(body);
}

/** The export in the asked format, and what XFDF could not carry as it is (FDF carries every value exactly). */
export function writeFieldData(fields: ExportedField[], format: FieldDataFormat, source: FieldDataSource): { content: Uint8Array; warnings: string[] } {
  if (format === 'fdf') return { content: fieldsToFdf(fields, source), warnings: [] };
  const altered = fields.filter((f) => hasNonXml(f.name) || (Array.isArray(f.value) ? f.value : [f.value]).some(hasNonXml));
  return { content: fieldsToXfdf(fields, source), warnings: nonXmlWarning('field', altered.map((f) => f.name)) };
}
