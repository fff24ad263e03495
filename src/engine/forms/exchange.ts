/** The field data tasks: the form's values exported as XFDF or FDF, and values imported into it. */
import type * as mupdf from 'mupdf';
import { writeFieldData, type FieldDataFormat, type FieldValue } from '../xfdf/field-data.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { formFacts } from '../core/inspect.js';
import { deref } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';
import { exportFieldValues } from './field-tree.js';
import { importFieldValues } from './field-values.js';

/** The document's /ID pair, when it has one. */
function documentIds(doc: mupdf.PDFDocument): [Uint8Array, Uint8Array] | undefined {
  const id = deref(doc.getTrailer().get('ID'));
  if (!id.isArray() || id.length < 2) return undefined;
  const first = deref(id.get(0));
  const second = deref(id.get(1));
  return first.isString() && second.isString() ? [first.asByteString(), second.asByteString()] : undefined;
}

/** The `exportFields` task: the field values as XFDF or FDF, naming the document and its /ID. */
export function exportFields(input: { pdf: PdfSource; password?: string | undefined; format: FieldDataFormat; exportEmptyFields: boolean; fileName: string }): { content: Uint8Array; warnings: string[] } {
  return withPdf(input, 'view', (doc) => {
    const fields = exportFieldValues(doc, { exportEmptyFields: input.exportEmptyFields });
    return writeFieldData(fields, input.format, { fileName: input.fileName, ids: documentIds(doc) });
  });
}

export interface FieldsImport {
  set: string[];
  unknown: string[];
  warnings: string[];
}

/**
 * The `importFields` task: sets the values and saves (incrementally when the
 * document is signed). No bytes come back when nothing changed.
 */
export function importFields(input: { pdf: PdfSource; password?: string | undefined; values: FieldValue[] }): FieldsImport & { bytes?: Uint8Array } {
  return editPdf(input, 'form', (doc, { save }) => {
    const warnings = formFacts(doc).hasXfa ? ['The document also has an XFA form: viewers that show XFA ignore the AcroForm values set here'] : [];
    const { set, unknown, changed } = importFieldValues(doc, input.values);
    if (!changed) return { set, unknown, warnings };
    return { set, unknown, warnings, bytes: save({ appendable: true }) };
  });
}
