import type * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import { validateUpload } from '../core/inspect.js';
import { deref } from '../core/mupdf-objects.js';
import type { OpenFile } from '../../open-file.js';
import type { OutputFile } from '../core/pdf-source.js';
import { saveFullTo } from '../core/save.js';
import { EngineError } from '../errors.js';
import { parseXmp, PDFA_EXTENSION_NS, replaceDescriptions, serializeXmp } from '../metadata/xmp.js';
import { pdfaHeader } from '../pdfa/finish.js';
import { safeXmlParser } from '../../safe-xml.js';
import { escapeXml } from '../syntax/xml-writer.js';
import { embedAttachment } from './attachments.js';
import { FACTURX_FILE_NAME, FACTURX_PROFILES, type AfRelationship, type FacturxProfile } from './model.js';

/** The namespace of UN/CEFACT's Cross Industry Invoice (D16B), the syntax of Factur-X and ZUGFeRD 2. */
const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
/** Factur-X 1.0's XMP schema (ZUGFeRD 2.1 and later use the same). */
const FX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
/** XRechnung's guideline ids (CIUS of EN 16931): urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_<version>. */
const XRECHNUNG_ID = /^urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_/;

/** Deepest element nesting read in an invoice (CII nests about ten levels). */
const MAX_DEPTH = 64;
const parse = safeXmlParser({ maxDepth: MAX_DEPTH, references: 'kept', shape: { ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: false, parseTagValue: false } });

const invalid = (message: string): never => {
  throw new EngineError('INVOICE_XML_INVALID', message);
};

/** The profile a guideline id names, if any. */
function profileOfId(id: string): FacturxProfile | undefined {
  if (XRECHNUNG_ID.test(id)) return 'xrechnung';
  for (const [profile, { ids }] of Object.entries(FACTURX_PROFILES)) if ((ids as readonly string[]).includes(id)) return profile as FacturxProfile;
  return undefined;
}

/**
 * The `inspectInvoiceXml` task: the invoice must be well-formed XML without a DTD whose root is a CII
 * rsm:CrossIndustryInvoice; its profile is read from ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID.
 * `profile` given: it must agree with the XML's (an unknown or missing id is accepted then). 422 INVOICE_XML_INVALID otherwise.
 */
export function inspectInvoiceXml(input: { xml: Uint8Array; profile?: FacturxProfile | undefined }): { profile: FacturxProfile; guideline?: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(input.xml);
  } catch {
    return invalid('The invoice XML is not UTF-8 (Factur-X requires UTF-8)');
  }
  const tree = parse(text, (refusal) => {
    if (refusal.reason === 'dtd') return invalid('The invoice XML may not contain a DOCTYPE or entity declarations');
    if (refusal.reason === 'malformed') return invalid(`The invoice XML is not well-formed (line ${refusal.line}: ${refusal.message})`);
    return invalid(refusal.reason === 'too-deep' ? `The invoice XML is refused: elements are nested deeper than ${MAX_DEPTH} levels` : 'The invoice XML cannot be read');
  }) as Record<string, unknown>;
  const rootName = Object.keys(tree).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = rootName ? (tree[rootName] as Record<string, unknown>) : undefined;
  const prefix = rootName?.includes(':') ? rootName.slice(0, rootName.indexOf(':')) : '';
  const local = (qname: string) => qname.slice(qname.indexOf(':') + 1);
  if (!rootName || local(rootName) !== 'CrossIndustryInvoice' || typeof root !== 'object' || root[prefix ? `@xmlns:${prefix}` : '@xmlns'] !== CII_NS) {
    invalid(`The invoice XML's root must be CrossIndustryInvoice in the namespace ${CII_NS} (a Factur-X / ZUGFeRD 2 invoice), not ${JSON.stringify(rootName ?? '')}`);
  }
  const child = (node: unknown, name: string): unknown => {
    if (!node || typeof node !== 'object') return undefined;
    const key = Object.keys(node).find((k) => !k.startsWith('@') && local(k) === name);
    const value = key === undefined ? undefined : (node as Record<string, unknown>)[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const idNode = child(child(child(root, 'ExchangedDocumentContext'), 'GuidelineSpecifiedDocumentContextParameter'), 'ID');
  const id = typeof idNode === 'string' ? idNode.trim() : typeof idNode === 'object' && idNode && typeof (idNode as Record<string, unknown>)['#text'] === 'string' ? String((idNode as Record<string, unknown>)['#text']).trim() : undefined;
  const read = id === undefined ? undefined : profileOfId(id);
  if (input.profile !== undefined) {
    if (read !== undefined && read !== input.profile) invalid(`The invoice XML's guideline ${JSON.stringify(id)} is the profile ${read}, not ${input.profile}`);
    return { profile: input.profile, ...(id ? { guideline: id } : {}) };
  }
  if (read === undefined) invalid(id === undefined ? 'The invoice XML names no guideline (ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID): give the profile' : `The invoice XML's guideline ${JSON.stringify(id.slice(0, 200))} is no Factur-X profile the service knows: give the profile`);
  return { profile: read!, guideline: id! };
}

/** The XMP the Factur-X specification asks for: the fx properties and the PDF/A extension schema that describes them (PDF/A-3 6.6.2.3). */
function facturxDescriptions(level: string): string {
  const property = (name: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType>` +
    `<pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  return (
    `<rdf:Description rdf:about="" xmlns:pdfaExtension="${PDFA_EXTENSION_NS}" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">\n` +
    '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">' +
    `<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix>` +
    '<pdfaSchema:property><rdf:Seq>' +
    property('DocumentFileName', 'The name of the embedded XML document') +
    property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER') +
    property('Version', 'The actual version of the standard applying to the embedded XML document') +
    property('ConformanceLevel', 'The conformance level of the embedded XML document') +
    '</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas>\n</rdf:Description>\n' +
    `<rdf:Description rdf:about="" xmlns:fx="${FX_NS}">\n<fx:DocumentType>INVOICE</fx:DocumentType>\n<fx:DocumentFileName>${FACTURX_FILE_NAME}</fx:DocumentFileName>\n` +
    `<fx:Version>1.0</fx:Version>\n<fx:ConformanceLevel>${escapeXml(level)}</fx:ConformanceLevel>\n</rdf:Description>\n`
  );
}

function setXmp(doc: mupdf.PDFDocument, level: string): void {
  const catalog = deref(doc.getTrailer().get('Root'));
  const stream = catalog.get('Metadata');
  if (!stream.isStream()) throw new EngineError('PROCESSING_FAILED', 'The PDF/A output has no XMP metadata');
  const buffer = stream.readStream();
  let text: string;
  try {
    text = new TextDecoder().decode(buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
  const packet = parseXmp(text.replace(/^<\?xpacket[^>]*\?>\s*/, '').replace(/\s*<\?xpacket end=[^>]*\?>\s*$/, ''));
  replaceDescriptions(packet, [FX_NS, PDFA_EXTENSION_NS], facturxDescriptions(level));
  const xmp = `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n${serializeXmp(packet)}\n${' '.repeat(2000)}\n<?xpacket end="w"?>`;
  // Unfiltered, as PDF/A-1 requires of metadata and as the conversion writes it.
  catalog.put('Metadata', doc.addStream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' }));
}

/**
 * The `facturxFinish` task, FacturXAction's step on the PDF/A-3 output before veraPDF judges it: the invoice XML
 * attached as factur-x.xml (text/xml, the profile's AFRelationship, listed in /AF; one of that name replaced) and the
 * fx XMP properties with their extension schema. Written to `out` (another file than `pdf`'s, which MuPDF may still be
 * reading), with the conversion's header rule; answers the size and the output's summary.
 */
export function facturxFinish(input: { pdf: OpenFile; out: OutputFile; xml: Uint8Array; level: string; relationship: AfRelationship }): { size: number; summary: ReturnType<typeof validateUpload> } {
  return withPdf({ pdf: input.pdf }, 'view', (doc) => {
    embedAttachment(doc, { name: FACTURX_FILE_NAME, fileName: FACTURX_FILE_NAME, mediaType: 'text/xml', description: 'Factur-X invoice', relationship: input.relationship, file: input.xml, replace: true });
    setXmp(doc, input.level);
    const size = saveFullTo(doc, input.out, { extra: 'encrypt=none', patch: pdfaHeader });
    return { size, summary: validateUpload({ pdf: { fd: input.out.fd, size } }) };
  });
}
