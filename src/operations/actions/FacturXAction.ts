import type { FromSchema } from 'json-schema-to-ts';
import { AF_RELATIONSHIPS, FACTURX_FILE_NAME, FACTURX_PROFILES, type AfRelationship, type FacturxProfile } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { ScratchFile } from '../../scratch-file.js';
import { runPdfaConversion } from './PDFAConvertAction.js';
import type { ActionDefinition, ActionFile } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    profile: {
      type: 'string',
      enum: Object.keys(FACTURX_PROFILES) as FacturxProfile[],
      description: 'The Factur-X / ZUGFeRD profile (minimum, basicwl, basic, en16931, extended, xrechnung); absent: read from the XML\'s guideline id. Given, it must agree with that id',
    },
    relationship: {
      type: 'string',
      enum: ['Alternative', 'Data', 'Source'] satisfies AfRelationship[],
      description: 'The XML\'s AFRelationship; absent: Data for minimum and basicwl, Alternative for the others (as Factur-X 1.0 says)',
    },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/** The invoice part: the one named `file` (or `invoice`: a one-shot conversion's input is its `file`), or the only file sent. */
function invoicePart(files: ActionFile[]): ActionFile {
  const file = files.find((f) => f.field === 'file') ?? files.find((f) => f.field === 'invoice') ?? (files.length === 1 ? files[0] : undefined);
  if (!file) throw new ServiceError('MALFORMED_MULTIPART', 'FacturXAction needs the invoice XML in a multipart part named "file", beside the action JSON in "pageAction" (or "action"); as a step of a one-shot conversion (POST /convert, whose "file" is the document), in a part named "invoice"');
  return file;
}

/**
 * FacturXAction (docs/attachments.md, "Factur-X and ZUGFeRD"): makes the document a Factur-X 1.0 / ZUGFeRD 2 invoice:
 * converted to PDF/A-3b by PDFAConvertAction's pipeline, with the invoice XML attached as factur-x.xml (text/xml, the
 * profile's AFRelationship, listed in /AF) and the fx XMP properties with their extension schema, added to the output
 * before veraPDF validates it: only a document veraPDF finds PDF/A-3b is written.
 */
export const FacturXAction: ActionDefinition<Params> = {
  name: 'FacturXAction',
  target: 'document',
  need: 'owner',
  long: true,
  summary:
    'Makes the document a Factur-X / ZUGFeRD invoice (multipart: this JSON in part "pageAction", the invoice XML, a UN/CEFACT CII CrossIndustryInvoice, in part "file"): ' +
    'converted to PDF/A-3b (as PDFAConvertAction), the XML attached as factur-x.xml with AFRelationship Alternative (Data for minimum and basicwl) and the fx XMP ' +
    'extension schema (DocumentType INVOICE, DocumentFileName, Version 1.0, ConformanceLevel); validated by veraPDF before it is written. The profile is read from ' +
    'the XML\'s guideline id unless given. 422 INVOICE_XML_INVALID for XML that is not such an invoice, 422 PDFA_CONVERSION_FAILED as PDFAConvertAction. ' +
    'Runs as a background job unless Prefer: wait=N. See docs/attachments.md.',
  schema,
  async prepare({ files }) {
    invoicePart(files);
    return undefined;
  },
  async execute(input) {
    const { params, engine } = input;
    const xml = new Uint8Array(await invoicePart(input.files).content.read());
    // Checked before anything is converted: an XML that is no invoice costs no conversion.
    const { profile, guideline } = await engine.run('inspectInvoiceXml', { xml, profile: params.profile as FacturxProfile | undefined });
    const { level, relationship: byProfile } = FACTURX_PROFILES[profile];
    const relationship = (params.relationship ?? byProfile) as AfRelationship;
    if (!(AF_RELATIONSHIPS as readonly string[]).includes(relationship)) throw new ServiceError('VALIDATION_FAILED', `relationship ${relationship} is not an AFRelationship`);
    const outputs: ScratchFile[] = [];
    try {
      const pdfa = { profile: 'pdfa3b', unsupportedAnnots: 0, embeddedFiles: 0, transparency: 2, appendReport: false, addAnnots: false, namingMode: params.namingMode } as const;
      const result = await runPdfaConversion({ ...input, params: pdfa }, async (output) => {
        // Its own file: MuPDF may still read the output it changes.
        const file = await ScratchFile.create();
        outputs.push(file);
        const done = await engine.run('facturxFinish', { pdf: output, out: { fd: file.fd }, xml, level, relationship });
        return { output: { fd: file.fd, size: done.size }, summary: done.summary };
      });
      const facturx = { profile, conformanceLevel: level, relationship, fileName: FACTURX_FILE_NAME, version: '1.0', ...(guideline ? { guideline } : {}) };
      return result.kind === 'document' ? { ...result, report: { ...(result.report as object), facturx } } : result;
    } finally {
      await Promise.all(outputs.map((f) => f.close()));
    }
  },
};
