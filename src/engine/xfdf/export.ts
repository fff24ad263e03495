/** Annotations exported as XFDF (the `exportAnnotationsXfdf` task), with the embedded files of FileAttachments. */
import * as mupdf from 'mupdf';
import { annotationEntries, entryObject, ObjectReader, pageObjectNumbers, type AnnotationEntry } from '../annotations/read.js';
import { AppearanceReader } from './appearance-objects.js';
import { mediaTypeOf } from '../annotations/attachments.js';
import { encodeAppearance } from './appearance-xml.js';
import { withPdf } from '../core/document-task.js';
import { isDict, name, ref, text } from '../syntax/readers.js';
import { PdfString } from '../syntax/parser.js';
import { deref } from '../core/mupdf-objects.js';
import { toXfdfElement, type EmbeddedFile, type ExportContext } from './export-map.js';
import { nonXmlWarning, treeHasNonXml, writeXml, type XmlNode } from '../syntax/xml-writer.js';
import { type PdfSource } from '../core/pdf-source.js';

/** The document's /ID pair as hex, for <ids original modified>. */
function documentIds(doc: mupdf.PDFDocument, reader: ObjectReader): [string, string] | undefined {
  const id = reader.parse(doc.getTrailer().get('ID'));
  if (!Array.isArray(id) || id.length !== 2 || !(id[0] instanceof PdfString) || !(id[1] instanceof PdfString)) return undefined;
  return [Buffer.from(id[0].bytes).toString('hex').toUpperCase(), Buffer.from(id[1].bytes).toString('hex').toUpperCase()];
}

/** The embedded file of a FileAttachment annotation (name, bytes, media type), when it carries one. */
export function embeddedFile(doc: mupdf.PDFDocument, reader: ObjectReader, e: AnnotationEntry): (EmbeddedFile & { name: string }) | undefined {
  const fs = deref(entryObject(doc, e).get('FS'));
  if (!fs.isDictionary()) return undefined;
  const contents = doc.getEmbeddedFileContents(fs);
  if (!contents) return undefined;
  const bytes = contents.asUint8Array().slice();
  contents.destroy();
  const fileName = text(reader.parse(fs.get('UF'))) ?? text(reader.parse(fs.get('F'))) ?? 'attachment';
  const streamDict = reader.parse(deref(fs.get('EF')).get('F'));
  const mimeType = mediaTypeOf(isDict(streamDict) ? name(streamDict.get('Subtype')) : undefined);
  return { name: fileName, bytes, ...(mimeType ? { mimeType } : {}) };
}

function exportContext(doc: mupdf.PDFDocument, reader: ObjectReader, entries: AnnotationEntry[]): ExportContext {
  const nameByObject = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e.name]));
  let pages: Map<number, number> | undefined;
  return {
    resolve: (v) => reader.resolve(v),
    nameOf: (num) => nameByObject.get(num),
    pageOf: (num) => (pages ??= pageObjectNumbers(doc)).get(num),
  };
}

/** The `exportAnnotationsXfdf` task: every annotation XFDF can carry, as Acrobat writes the file. */
export function exportAnnotationsXfdf(input: { pdf: PdfSource; password?: string | undefined; fileName: string }): { xfdf: string; skipped: string[]; warnings: string[] } {
  return withPdf(input, 'view', (doc) => {
    const entries = annotationEntries(doc);
    const reader = new ObjectReader(doc);
    const ctx = exportContext(doc, reader, entries);
    const byObject = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e]));
    const nested = new Set<AnnotationEntry>();
    for (const e of entries) {
      const popupRef = ref(e.dict.get('Popup'));
      const popup = popupRef !== undefined ? byObject.get(popupRef) : undefined;
      if (popup && name(popup.dict.get('Subtype')) === 'Popup') nested.add(popup);
    }
    const annots: XmlNode[] = [];
    const skipped: string[] = [];
    const altered: string[] = [];
    let appearances: AppearanceReader | undefined;
    for (const e of entries) {
      if (nested.has(e)) continue; // written inside its parent
      const subtype = name(e.dict.get('Subtype'))!;
      const popupRef = ref(e.dict.get('Popup'));
      const popup = popupRef !== undefined ? byObject.get(popupRef) : undefined;
      const nestedPopup = popup && nested.has(popup) ? { pageIndex: popup.pageIndex, name: popup.name, dict: popup.dict } : undefined;
      const file = subtype === 'FileAttachment' ? embeddedFile(doc, reader, e) : undefined;
      // Acrobat carries the appearance of stamps (custom stamps are images); other subtypes are drawn from their entries.
      let appearance: string | undefined;
      if (subtype === 'Stamp' && e.dict.has('AP')) {
        appearances ??= new AppearanceReader(doc, reader, new Set([...byObject.keys(), ...pageObjectNumbers(doc).keys()]));
        const ap = appearances.read(e.dict.get('AP'));
        appearance = ap && encodeAppearance(ap);
      }
      const node = toXfdfElement(subtype, e.pageIndex, e.name, e.dict, ctx, nestedPopup, file, appearance);
      if (node) annots.push(node);
      else skipped.push(e.name);
      if (node && treeHasNonXml(node)) altered.push(e.name);
    }
    const ids = documentIds(doc, reader);
    const root: XmlNode = {
      tag: 'xfdf',
      attrs: [['xmlns', 'http://ns.adobe.com/xfdf/'], ['xml:space', 'preserve']],
      children: [
        { tag: 'annots', children: annots },
        { tag: 'f', attrs: [['href', input.fileName]] },
        ...(ids ? [{ tag: 'ids', attrs: [['original', ids[0]], ['modified', ids[1]]] as [string, string][] }] : []),
      ],
    };
    return { xfdf: `<?xml version="1.0" encoding="UTF-8"?>\n${writeXml(root)}`, skipped, warnings: nonXmlWarning('annotation', altered) };
  });
}
