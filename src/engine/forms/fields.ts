/**
 * The fields resource: every terminal field as a FieldModel, setting one
 * field's value, and resetting every field to its default. Values go through
 * the same checks and appearance regeneration as field data imports
 * (field-values.ts).
 */
import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import type { FieldType } from '../xfdf/field-data.js';
import type { Rectangle } from '../syntax/geometry.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { formFacts } from '../core/inspect.js';
import { deref, inheritable } from '../core/mupdf-objects.js';
import { buttonStates, choiceOptions, currentValue, emptyValue, FIELD_FLAGS, readFormFields, valueOf, type FormField } from './field-tree.js';
import { importFieldValues } from './field-values.js';
import type { PdfSource } from '../core/pdf-source.js';

export interface FieldOption {
  exportValue: string;
  displayText: string;
}

export interface FieldWidget {
  pageIndex: number;
  rectangle?: Rectangle;
}

/** One terminal field (docs/fields.md). */
export interface FieldModel {
  name: string;
  type: FieldType;
  /** Text, the chosen option's export value, a button's state ("Off" when off), or a list's selection; absent for push buttons and signatures. */
  value?: string | string[];
  defaultValue?: string | string[];
  /** Choices: each option's export value and display text. Checkboxes and radio buttons: each on-state, with its export value (/Opt) when there is one. */
  options?: FieldOption[];
  readOnly: boolean;
  required: boolean;
  noExport: boolean;
  multiline?: boolean;
  password?: boolean;
  comb?: boolean;
  maxLength?: number;
  multiSelect?: boolean;
  editable?: boolean;
  /** Signature fields: whether a signature is in it. */
  signed?: boolean;
  tooltip?: string;
  widgets: FieldWidget[];
}

export interface FieldsModel {
  fields: FieldModel[];
  /** The document also has an XFA form; its values are not read or written (the AcroForm part is). */
  hasXfa: boolean;
}

function number(obj: mupdf.PDFObject): number | undefined {
  const r = deref(obj);
  return r.isNumber() ? r.asNumber() : undefined;
}

function rectOf(obj: mupdf.PDFObject): Rectangle | undefined {
  const r = deref(obj);
  if (!r.isArray() || r.length !== 4) return undefined;
  const v = [0, 1, 2, 3].map((i) => number(r.get(i)) ?? 0) as [number, number, number, number];
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { x: round(Math.min(v[0], v[2])), y: round(Math.min(v[1], v[3])), width: round(Math.abs(v[2] - v[0])), height: round(Math.abs(v[3] - v[1])) };
}

/** Object number of each annotation listed on a page -> that page's index. */
export function annotationPages(doc: mupdf.PDFDocument): Map<number, number> {
  const pages = new Map<number, number>();
  const count = doc.countPages();
  for (let p = 0; p < count; p++) {
    const annots = deref(doc.findPage(p).get('Annots'));
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      const a = annots.get(i);
      if (a.isIndirect() && !pages.has(a.asIndirect())) pages.set(a.asIndirect(), p);
    }
  }
  return pages;
}

function fieldModel(f: FormField, pages: Map<number, number>): FieldModel {
  const flag = (bit: number) => (f.flags & bit) !== 0;
  const model: Omit<FieldModel, 'widgets'> = {
    name: f.name,
    type: f.type,
    readOnly: flag(FIELD_FLAGS.readOnly),
    required: flag(FIELD_FLAGS.required),
    noExport: flag(FIELD_FLAGS.noExport),
  };
  const empty = emptyValue(f.type);
  if (empty !== undefined) {
    model.value = currentValue(f) ?? empty;
    const dv = valueOf(f, inheritable(f.field, 'DV'));
    if (dv !== undefined) model.defaultValue = dv;
  }
  if (f.type === 'text') {
    model.multiline = flag(FIELD_FLAGS.multiline);
    model.password = flag(FIELD_FLAGS.password);
    model.comb = flag(FIELD_FLAGS.comb);
    const maxLength = number(inheritable(f.field, 'MaxLen'));
    if (maxLength !== undefined) model.maxLength = maxLength;
  }
  if (f.type === 'combo' || f.type === 'list') {
    const { exports, displays } = choiceOptions(f.field);
    model.options = exports.map((exportValue, i) => ({ exportValue, displayText: displays[i] ?? exportValue }));
    model.multiSelect = flag(FIELD_FLAGS.multiSelect);
    if (f.type === 'combo') model.editable = flag(FIELD_FLAGS.edit);
  }
  if (f.type === 'checkbox' || f.type === 'radio') {
    model.options = buttonStates(f).map((s) => ({ exportValue: s.exportValue, displayText: s.state }));
  }
  if (f.type === 'signature') model.signed = deref(f.field.get('V')).isDictionary();
  const tooltip = deref(inheritable(f.field, 'TU'));
  if (tooltip.isString()) model.tooltip = tooltip.asString();
  const widgets = f.widgets.map((w) => {
    const widget: FieldWidget = { pageIndex: w.isIndirect() ? (pages.get(w.asIndirect()) ?? -1) : -1 };
    const rect = rectOf(deref(w).get('Rect'));
    if (rect) widget.rectangle = rect;
    return widget;
  });
  return { ...model, widgets };
}

function fieldsModel(doc: mupdf.PDFDocument): FieldsModel {
  const pages = annotationPages(doc);
  return { fields: readFormFields(doc).map((f) => fieldModel(f, pages)), hasXfa: formFacts(doc).hasXfa };
}

/** The `listFields` task: the FieldsModel. Viewing is enough. */
export function listFields(input: { pdf: PdfSource; password?: string | undefined }): FieldsModel {
  return withPdf(input, 'view', (doc) => fieldsModel(doc));
}

/**
 * The `setFieldValue` task: one field's value by its fully qualified name,
 * with the checks of an import (404 FIELD_NOT_FOUND, 409 FIELD_READ_ONLY,
 * 400 naming the allowed values). Answers the field as it is afterwards.
 */
export function setFieldValue(input: { pdf: PdfSource; password?: string | undefined; name: string; value: string | string[] }): { bytes?: Uint8Array; field: FieldModel } {
  return editPdf(input, 'form', (doc, { save }) => {
    if (!readFormFields(doc).some((f) => f.name === input.name)) {
      throw new EngineError('FIELD_NOT_FOUND', `No field named ${JSON.stringify(input.name)}`);
    }
    const { changed } = importFieldValues(doc, [{ name: input.name, value: input.value }]);
    const field = fieldsModel(doc).fields.find((f) => f.name === input.name)!;
    return changed ? { bytes: save({ appendable: true }), field } : { field };
  });
}

/**
 * The `resetFields` task: every field that holds data goes back to its
 * default value (/DV; none: empty, or "Off" for buttons), read-only fields
 * included, as a form's reset does. A default the field could not take (an
 * option it no longer has) is reported and the field is emptied instead.
 */
export function resetFields(input: { pdf: PdfSource; password?: string | undefined }): { bytes?: Uint8Array; fields: FieldsModel; warnings: string[] } {
  return editPdf(input, 'form', (doc, { save }) => {
    const warnings: string[] = [];
    const values = [];
    for (const f of readFormFields(doc)) {
      const empty = emptyValue(f.type);
      if (empty === undefined) continue;
      values.push({ name: f.name, value: valueOf(f, inheritable(f.field, 'DV')) ?? empty });
    }
    const { changed } = importFieldValues(doc, values, { reset: true, warnings });
    const fields = fieldsModel(doc);
    // Not appendable: a reset clears what was filled in, which an appended update would keep in the file (saveEdited).
    return changed ? { bytes: save(), fields, warnings } : { fields, warnings };
  });
}
