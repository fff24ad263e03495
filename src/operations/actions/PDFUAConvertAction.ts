import type { FromSchema } from 'json-schema-to-ts';
import type { TagReport } from '../../engine/models.js';
import { validatePdfa, type FailedRule } from '../../tools/verapdf.js';
import { throwIfStopped } from '../execution.js';
import { accessibilityReport, type AccessibilityReport } from '../matterhorn.js';
import type { ActionDefinition } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    lang: { type: 'string', minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$', description: 'The document language, a BCP 47 tag (en-US). Default: the document\'s own /Lang; none is guessed' },
    title: { type: 'string', minLength: 1, maxLength: 1000, description: 'The document title (Info and XMP dc:title). Default: the document\'s own title, else its first heading, else the stored document\'s name' },
    retag: { type: 'boolean', default: false, description: 'Replace the structure tree of a document that is tagged already (default: such a document is kept as it is, nothing written)' },
    figures: {
      type: 'array',
      maxItems: 10000,
      description: 'Alternate text of figures: index is the figure\'s 0-based position among the Figure elements of the tagged document in depth-first order (an index past the last figure is 400)',
      items: {
        type: 'object',
        properties: { index: { type: 'integer', minimum: 0 }, alt: { type: 'string', minLength: 1, maxLength: 10000 } },
        required: ['index', 'alt'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/** The action's report (the answer's `report`). */
export interface PdfuaConversionReport extends TagReport {
  /** veraPDF's PDF/UA-1 verdict on the tagged document (absent when it was kept). */
  compliant?: boolean;
  validator?: { name: string; version: string };
  /** The failed rules, as the pdfua1 preflight lists them, and grouped by Matterhorn checkpoint in `accessibility`. */
  rules?: FailedRule[];
  accessibility?: AccessibilityReport;
}

/**
 * PDFUAConvertAction (docs/accessibility.md, "Tagging an untagged document"): an untagged born-digital document tagged
 * by the engine (engine/pdfua/tag.ts: the export model's reading of the pages as the structure, every piece of content
 * marked or an artifact, title, language, the PDF/UA identification), then checked with veraPDF's PDF/UA-1 profile
 * in the warm helper the preflight uses. The tagged document is written either way, since it is more accessible than
 * before; it claims PDF/UA-1 (pdfuaid in its XMP) only when veraPDF passed it, and otherwise the claim is taken out
 * and the answer lists what is left, as the pdfua1 preflight reports it.
 */
export const PDFUAConvertAction: ActionDefinition<Params> = {
  name: 'PDFUAConvertAction',
  target: 'document',
  need: 'edit',
  long: true,
  summary:
    'Tags an untagged document for accessibility (PDF/UA-1): headings, paragraphs, lists, tables with header cells, figures and links in a structure tree in ' +
    'reading order, running headers, footers, page numbers and decoration as artifacts, the language, title and XMP metadata set. The result is checked with ' +
    'veraPDF and claims PDF/UA-1 only when it passes; the report gives the verdict, the failed rules grouped by Matterhorn checkpoint, and the figures that ' +
    'still need alternate text (figures gives it by index). A tagged document is kept unless retag. Signed documents are refused (409 DOCUMENT_SIGNED), ' +
    'a document without text is 422 NO_TEXT (OCRAction first). Runs as a background job unless Prefer: wait=N. See docs/accessibility.md.',
  schema,
  async execute({ params, source, sourcePath, engine, ctx, exec, tools }) {
    const password = ctx.documentPassword;
    const progress = (done: number, stage: string) => exec.progress?.({ done, total: 3, unit: 'steps', stage });
    progress(0, 'tag');
    const fallbackTitle = sourcePath?.name.replace(/\.pdf$/i, '');
    const tagged = await engine.run('tagForPdfua', { pdf: source.pdf, password, lang: params.lang, title: params.title, retag: params.retag, figures: params.figures, fallbackTitle });
    const summary = tagged.summary ? { summary: tagged.summary } : {};
    const report: PdfuaConversionReport = { ...tagged.report };
    if (!tagged.bytes) return { kind: 'unchanged', report, ...summary };
    throwIfStopped(exec);
    progress(1, 'validate');
    const verdict = await validatePdfa(tools, { pdf: tagged.bytes, profile: 'pdfua1', password, signal: exec.signal });
    Object.assign(report, { compliant: verdict.compliant, validator: verdict.validator, rules: verdict.rules, accessibility: accessibilityReport(verdict, true) });
    if (verdict.compliant) return { kind: 'document', bytes: tagged.bytes, report, ...summary };
    // Not PDF/UA: the document keeps its tags, not the claim.
    throwIfStopped(exec);
    progress(2, 'finish');
    const unclaimed = await engine.run('withoutPdfuaIdentification', { pdf: tagged.bytes, password });
    report.pdfuaIdentified = false;
    // Its summary is read from the written bytes by the runner (the metadata's dates changed again).
    return { kind: 'document', bytes: unclaimed.bytes, report };
  },
};
