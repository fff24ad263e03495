import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type * as mupdf from 'mupdf';
import { deref, text } from '../core/mupdf-objects.js';
import { isoSeconds, isoToPdfDate, pdfDateToIso } from '../syntax/dates.js';
import { escapeXml } from '../syntax/xml-writer.js';
import type { PdfaPart } from './model.js';

/** The sRGB profile of Debian's icc-profiles-free: the output intent of every conversion (Ghostscript's path uses the same file). */
const SRGB_ICC = '/usr/share/color/icc/sRGB.icc';
let icc: Uint8Array | undefined;

/**
 * PDFAConvertAction's MuPDF path (docs/pdfa.md), the last step of the task
 * pdfaPrepare on the document it prepared, when every font is embedded (by
 * the document or by the preparation): it adds what the parts require and
 * leaves the content as it is: the sRGB output intent, XMP metadata with
 * pdfaid and the Info entries mirrored (dates in one form in both), and a
 * trailer ID (MuPDF writes none of its own). Streams are written as they
 * are: images and page content keep their bytes, form fields stay fields.
 * Whether that is enough (glyph widths, CMYK colour without a CMYK
 * intent...) is veraPDF's to say; the action falls back to Ghostscript when
 * it is not. Measured: 10-60 ms for the corpus files against Ghostscript's
 * 0.1-1 s. Done on the prepared document itself, not on its saved bytes
 * reopened: one save, not two (issue 35: a 100 MB image document peaked at
 * 965 MB in the service with two).
 */
export function finishPdfa(doc: mupdf.PDFDocument, part: PdfaPart, conformance: 'B' | 'U'): void {
  const trailer = doc.getTrailer();
  const catalog = deref(trailer.get('Root'));
  icc ??= new Uint8Array(readFileSync(SRGB_ICC));
  const profile = doc.addStream(icc, { N: 3 });
  const intent = doc.addObject(doc.newDictionary());
  intent.put('Type', doc.newName('OutputIntent'));
  intent.put('S', doc.newName('GTS_PDFA1'));
  intent.put('OutputConditionIdentifier', doc.newString('sRGB IEC61966-2.1'));
  intent.put('Info', doc.newString('sRGB IEC61966-2.1'));
  intent.put('RegistryName', doc.newString('http://www.color.org'));
  intent.put('DestOutputProfile', profile);
  const intents = doc.newArray();
  intents.push(intent);
  catalog.put('OutputIntents', intents);

  let info = deref(trailer.get('Info'));
  if (!info.isDictionary()) {
    info = doc.addObject(doc.newDictionary());
    doc.getTrailer().put('Info', info);
  }
  const now = new Date();
  const modified = isoSeconds(now);
  const created = pdfDateToIso(text(info.get('CreationDate'))) ?? modified;
  // One form of each date in Info and XMP (an explicit +00'00' zone: PDFBox Preflight misreads Z00'00').
  info.put('CreationDate', doc.newString(isoToPdfDate(created) ?? created));
  info.put('ModDate', doc.newString(isoToPdfDate(modified) ?? modified));
  info.put('Producer', doc.newString(`${text(info.get('Producer')) ?? ''}${text(info.get('Producer')) ? '; ' : ''}pdfservice`));
  // Trapped has no XMP counterpart in PDF/A-1's schemas: it goes rather than be mirrored wrongly.
  info.delete('Trapped');
  const xmp = xmpPacket({
    part,
    conformance,
    title: text(info.get('Title')),
    author: text(info.get('Author')),
    subject: text(info.get('Subject')),
    keywords: text(info.get('Keywords')),
    creator: text(info.get('Creator')),
    producer: text(info.get('Producer')),
    created,
    modified,
  });
  const metadata = doc.addStream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' });
  catalog.put('Metadata', metadata);

  const id = doc.newByteString(randomBytes(16));
  const ids = doc.newArray();
  ids.push(id);
  ids.push(id);
  // The trailer asked for again: once objects are added, MuPDF writes a new one, and entries put into the object
  // read before are lost (a file without an ID came out without one: PDF/A-1 6.1.3-1).
  doc.getTrailer().put('ID', ids);
}

/**
 * MuPDF writes the version the document had; PDF/A (19005-1 and -2, 6.1.2) wants a %PDF-1.n header, and a PDF 2.0
 * file made PDF/A uses nothing beyond 1.7 (veraPDF checks). One character for one: no offset moves.
 */
export function pdfaHeader(bytes: Uint8Array): void {
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 8)) === '%PDF-2.0') bytes.set(new TextEncoder().encode('%PDF-1.7'), 0);
}

interface XmpFields {
  part: PdfaPart;
  conformance: 'B' | 'U';
  title: string | undefined;
  author: string | undefined;
  subject: string | undefined;
  keywords: string | undefined;
  creator: string | undefined;
  producer: string | undefined;
  created: string;
  modified: string;
}

function xmpPacket(f: XmpFields): string {
  const x = (value: string) => escapeXml(value.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, ' '));
  const lines = [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">',
    `<pdfaid:part>${f.part}</pdfaid:part>`,
    `<pdfaid:conformance>${f.conformance}</pdfaid:conformance>`,
    '</rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<dc:format>application/pdf</dc:format>',
    ...(f.title !== undefined ? [`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${x(f.title)}</rdf:li></rdf:Alt></dc:title>`] : []),
    ...(f.author !== undefined ? [`<dc:creator><rdf:Seq><rdf:li>${x(f.author)}</rdf:li></rdf:Seq></dc:creator>`] : []),
    ...(f.subject !== undefined ? [`<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${x(f.subject)}</rdf:li></rdf:Alt></dc:description>`] : []),
    '</rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    `<xmp:CreateDate>${f.created}</xmp:CreateDate>`,
    `<xmp:ModifyDate>${f.modified}</xmp:ModifyDate>`,
    `<xmp:MetadataDate>${f.modified}</xmp:MetadataDate>`,
    ...(f.creator !== undefined ? [`<xmp:CreatorTool>${x(f.creator)}</xmp:CreatorTool>`] : []),
    '</rdf:Description>',
    '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">',
    ...(f.producer !== undefined ? [`<pdf:Producer>${x(f.producer)}</pdf:Producer>`] : []),
    ...(f.keywords !== undefined ? [`<pdf:Keywords>${x(f.keywords)}</pdf:Keywords>`] : []),
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
  ];
  // Room for editors that update the packet in place, as the XMP specification suggests.
  return `${lines.join('\n')}\n${' '.repeat(2000)}\n<?xpacket end="w"?>`;
}

