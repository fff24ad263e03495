import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { openFileStream, type OpenFile } from '../../open-file.js';
import { ScratchFile } from '../../scratch-file.js';
import type { PageTextLoss, PdfaFinding, PdfaPart, TaskOutput } from '../../engine/models.js';
import { convertToPdfa } from '../../tools/ghostscript.js';
import { validatePdfa, type PdfaProfile, type ValidationReport } from '../../tools/verapdf.js';
import { throwIfStopped } from '../execution.js';
import { checkToolOutput } from '../tool-output.js';
import type { StagedUpload } from '../../storage/store.js';
import type { ActionDefinition, ActionOutput, ExecuteInput } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/** The profiles a document can be converted to, and the PDF/A part each is written as. */
const PROFILES = { pdfa1b: 1, pdfa2b: 2, pdfa3b: 3, pdfa2u: 2, pdfa3u: 3 } as const satisfies Partial<Record<PdfaProfile, PdfaPart>>;
type ConvertProfile = keyof typeof PROFILES;

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    profile: {
      type: 'string',
      enum: Object.keys(PROFILES) as ConvertProfile[],
      default: 'pdfa2b',
      description: 'PDF/A flavour to convert to (default pdfa2b: allows transparency and JPEG 2000, read by every archive system)',
    },
    unsupportedAnnots: { type: 'integer', enum: [0, 1], default: 0, description: 'Annotations the profile forbids (3D, Sound, Movie, Screen, RichMedia, unknown types): 0 delete them (default), 1 fail' },
    embeddedFiles: { type: 'integer', enum: [0, 1], default: 0, description: 'Embedded files and file attachment annotations in PDF/A-1 and -2: 0 delete them (default), 1 fail. PDF/A-3 keeps them (with AFRelationship)' },
    transparency: { type: 'integer', enum: [1, 2], default: 2, description: 'Transparency in PDF/A-1: 1 fail, 2 make it opaque (default). PDF/A-2 and -3 keep it' },
    appendReport: { type: 'boolean', default: false, description: 'When the conversion fails: write the document as it was with pages listing the failed rules appended (not PDF/A), and answer 200/201 with the report, instead of 422' },
    addAnnots: { type: 'boolean', default: false, description: 'When the conversion fails: write the document as it was with a note on each page where a rule failed (not PDF/A), and answer 200/201 with the report, instead of 422' },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/** The action's report (the answer's `report`), whether it converted or not. */
export interface PdfaConversionReport {
  profile: ConvertProfile;
  /** True: the written document is PDF/A (veraPDF said so). False: nothing was converted (422), or the report was marked in the document. */
  compliant: boolean;
  /** What the conversion changed, in words with counts (deleted annotations, removed actions...). */
  changes: string[];
  /** What Ghostscript said it changed or dropped. */
  warnings: string[];
  /** How the output was made: MuPDF alone (the document kept as it is), or Ghostscript's rewrite. */
  pipeline?: 'mupdf' | 'ghostscript';
  /** Why the MuPDF path was skipped or did not pass, when Ghostscript's was taken. */
  attempts: string[];
  /** The validator that judged the output (absent when the options refused the document first). */
  validator?: { name: string; version: string };
  passedChecks?: number;
  failedChecks?: number;
  /** The failed rules: veraPDF's of the converted output, or the options' findings before converting. */
  rules: PdfaFinding[];
  /** With appendReport/addAnnots after a failure: pages and notes added to the document written. */
  marked?: { pagesAdded: number; notesAdded: number };
}

/**
 * PDFAConvertAction (docs/pdfa.md): converts a document to PDF/A-1b, -2b,
 * -2u, -3b or -3u. MuPDF first (engine task pdfaPrepare): decrypts, applies
 * the options to annotations, embedded files and transparency, removes
 * forbidden actions, draws missing appearances, embeds substitutes for the
 * standard 14 fonts. Then, when every font is embedded, MuPDF alone (in the same task, engine/pdfa/finish.ts: output intent, XMP, trailer ID; the
 * document otherwise as it was); when not, or when veraPDF rejects that,
 * Ghostscript pdfwrite (tools/ghostscript.ts: embeds fonts, converts colours,
 * writes XMP and ID), whose output must keep every page's text. veraPDF
 * (tools/verapdf.ts) validates the output: only a document it finds compliant
 * is written as PDF/A. Otherwise 422 PDFA_CONVERSION_FAILED with the failed
 * rules, or, with appendReport/addAnnots, the source with the report in it.
 */
export const PDFAConvertAction: ActionDefinition<Params> = {
  name: 'PDFAConvertAction',
  target: 'document',
  need: 'owner',
  long: true,
  summary:
    'Converts the document to PDF/A (profile pdfa1b, pdfa2b (default), pdfa2u, pdfa3b or pdfa3u): fonts embedded, sRGB output intent, XMP with pdfaid, ' +
    'no encryption (an encrypted document needs its owner password), annotations, actions, embedded files and transparency made what the profile allows ' +
    '(or refused, per the options). The output is validated with veraPDF and written only when it is compliant; otherwise 422 PDFA_CONVERSION_FAILED ' +
    'with the failed rules and nothing written, or with appendReport/addAnnots the document as it was with the report in it. The answer\'s report lists ' +
    'what was changed and the validator\'s verdict. Runs as a background job unless Prefer: wait=N. See docs/pdfa.md.',
  schema,
  // The prepared document, and the MuPDF path's output, go to a scratch file straight from the worker's MuPDF memory
  // (engine/core/save.ts, saveFullTo): veraPDF, Ghostscript and the store read them from there, so a 100 MB document's
  // output is never a copy in the worker, nor in the main thread (issue 35, item 8; docs/pdfa.md, "Memory").
  execute: (input) => runPdfaConversion(input),
};

/**
 * A step on the PDF/A output before veraPDF judges it (FacturXAction attaches the invoice and its XMP there): it writes
 * the changed output to a file of its own and answers where, with the summary of what it wrote.
 */
export type PdfaOutputStep = (output: OpenFile) => Promise<{ output: OpenFile; summary: TaskOutput<'validateUpload'> }>;

/** The parameters of a conversion, as PDFAConvertAction's schema gives them (FacturXAction converts with its own). */
export type PdfaConvertParams = Params;

/** The conversion (PDFAConvertAction's execute), with `step` run on the output before each validation. */
export async function runPdfaConversion(input: ExecuteInput<Params, unknown>, step?: PdfaOutputStep): Promise<ActionOutput> {
  const { documents, ctx } = input;
  const out = await ScratchFile.create();
  try {
    // Staged in the store from the file (a streamed copy): the runner writes it as it writes an upload.
    return await convert({ ...input, password: ctx.documentPassword }, out, (file) => documents.stage(openFileStream(file), file.size, ctx), step);
  } finally {
    await out.close();
  }
}

/**
 * A converter's printed PDF (an HTML or Markdown upload's `pdfa` option, docs/html.md) converted as the action converts
 * a document, with its default options (forbidden annotations and PDF/A-1 transparency made allowed, nothing
 * marked): the PDF/A bytes with what the engine found of them, or 422 PDFA_CONVERSION_FAILED with the report.
 */
export async function convertPdfToPdfa(pdf: Uint8Array, profile: 'pdfa1b' | 'pdfa2b' | 'pdfa3b', deps: { engine: ExecuteInput<Params, unknown>['engine']; tools: ExecuteInput<Params, unknown>['tools']; signal?: AbortSignal | undefined }): Promise<Uint8Array> {
  const params: Params = { profile, unsupportedAnnots: 0, embeddedFiles: 0, transparency: 2, appendReport: false, addAnnots: false, namingMode: 0 };
  const source = { pdf, bytes: async () => pdf };
  const out = await ScratchFile.create();
  try {
    // The output is small (one printed page set): read back whole from the scratch file.
    const stage = async (file: OpenFile) => Buffer.concat(await openFileStream(file).toArray() as Buffer[]);
    const result = await convert({ params, source, engine: deps.engine, tools: deps.tools, exec: { signal: deps.signal }, password: undefined }, out, stage);
    if (result.kind !== 'document' || !(result.bytes instanceof Uint8Array)) throw new Error('The PDF/A conversion of a printed PDF answered no bytes');
    return result.bytes;
  } finally {
    await out.close();
  }
}

/** What one conversion needs: the action's input without the store, and where its compliant output goes. */
type ConvertInput = Pick<ExecuteInput<Params, unknown>, 'params' | 'source' | 'engine' | 'exec' | 'tools'> & { password: string | undefined };

async function convert({ params, source, engine, exec, tools, password }: ConvertInput, out: ScratchFile, stage: (file: OpenFile) => Promise<StagedUpload | Uint8Array>, step?: PdfaOutputStep): Promise<ActionOutput> {
  const profile = params.profile as ConvertProfile;
  const part = PROFILES[profile];
  const conformance = profile.endsWith('u') ? 'U' : 'B';
  const progress = (done: number, stage: string) => exec.progress?.({ done, total: 4, unit: 'steps', stage });
  progress(0, 'prepare');
  const prepareInput = {
    pdf: source.pdf,
    password,
    part,
    unsupportedAnnots: params.unsupportedAnnots as 0 | 1,
    embeddedFiles: params.embeddedFiles as 0 | 1,
    transparency: params.transparency as 1 | 2,
  };
  // The MuPDF path keeps the document as it is (images, fields, content bytes): when pdfaPrepare has every font
  // embedded (it embeds substitutes for the standard 14, engine/pdfa/fonts.ts), it finishes the document in the same
  // task (one save, engine/pdfa/finish.ts). Other fonts without a program, and whatever veraPDF finds it cannot fix
  // (glyph widths, colour spaces), go to Ghostscript's path. Measured on the 200-page bench document (Helvetica not
  // embedded, 4,000 annotations): prepare 0.2-0.3 s, finish 0.1-0.15 s, veraPDF 1.3-2.4 s warm (about 4 s on the first
  // large document a fresh JVM sees), against Ghostscript's 1.6-2.2 s alone; the 20-page scan 0.2-0.3 s in all.
  let prepared = await engine.run('pdfaPrepare', { ...prepareInput, out: { fd: out.fd }, finish: conformance });
  const report: PdfaConversionReport = { profile, compliant: false, changes: prepared.changes, warnings: [], attempts: [], rules: prepared.findings };
  if (prepared.findings.length) return failed({ params, report, source, engine, password });
  if (prepared.finished) {
    progress(1, 'validate');
    throwIfStopped(exec);
    const stepped = step ? await step({ fd: out.fd, size: prepared.size }) : { output: { fd: out.fd, size: prepared.size }, summary: prepared.summary };
    const verdict = await validatePdfa(tools, { pdf: stepped.output, profile, signal: exec.signal });
    if (verdict.compliant) return succeeded(report, 'mupdf', await stage(stepped.output), verdict, stepped.summary);
    report.attempts.push(`mupdf: ${verdict.rules.length} rule(s) failed (${verdict.rules.slice(0, 5).map((r) => `${r.clause}-${r.testNumber}`).join(', ')}); converted with Ghostscript instead`);
    // Prepared again for Ghostscript, without the MuPDF path's additions, into the same file: that costs another
    // preparation only when the MuPDF path failed.
    prepared = await engine.run('pdfaPrepare', { ...prepareInput, out: { fd: out.fd } });
  } else {
    report.attempts.push(`mupdf: skipped, ${prepared.fontsNotEmbedded} font(s) not embedded`);
  }
  progress(2, 'convert');
  const before = prepared.pageText ?? [];
  // Ghostscript's output replaces its input in the scratch file, copied in blocks and edited on the way (its dates, a
  // level-U claim), never held whole: the check, the text check, veraPDF and the store read that file, so no task gets
  // a copy of it (measured: a 100 MB image document peaked at 861 MB in the service with the output handed to each as
  // bytes, and the output read back whole for its edits was 100 MB more; issue 35 item 8).
  const converted = await convertToPdfa(tools, { pdf: { fd: out.fd, size: prepared.size }, part, into: { fd: out.fd }, ...(conformance === 'U' ? { edit: conformanceU } : {}), signal: exec.signal });
  report.warnings = converted.warnings;
  const output = { fd: out.fd, size: converted.size };
  await checkToolOutput(engine, { program: 'Ghostscript', pdf: output, warnings: converted.warnings }, { pageCount: prepared.pageCount, encrypted: false });
  throwIfStopped(exec);
  progress(3, 'validate');
  // The output's text first, then veraPDF's verdict.
  const checked = await engine.run('pdfaTextLoss', { pdf: output, before });
  const lost = lostText(checked.pages);
  if (lost) {
    Object.assign(report, { pipeline: 'ghostscript', rules: [lost] });
    return failed({ params, report, source, engine, password });
  }
  const stepped = step ? await step(output) : { output, summary: checked.summary };
  const verdict = await validatePdfa(tools, { pdf: stepped.output, profile, signal: exec.signal });
  if (!verdict.compliant) {
    Object.assign(report, { pipeline: 'ghostscript', validator: verdict.validator, passedChecks: verdict.passedChecks, failedChecks: verdict.failedChecks, rules: verdict.rules });
    return failed({ params, report, source, engine, password });
  }
  return succeeded(report, 'ghostscript', await stage(stepped.output), verdict, stepped.summary);
}

function succeeded(report: PdfaConversionReport, pipeline: 'mupdf' | 'ghostscript', pdf: StagedUpload | Uint8Array, verdict: ValidationReport, summary: TaskOutput<'validateUpload'> | undefined): ActionOutput {
  Object.assign(report, { compliant: true, pipeline, validator: verdict.validator, passedChecks: verdict.passedChecks, failedChecks: verdict.failedChecks, rules: verdict.rules });
  return { kind: 'document', bytes: pdf, report, ...(summary ? { summary } : {}) };
}

/**
 * The pages of Ghostscript's output that lost text (engine task pdfaTextLoss, docs/pdfa.md "Text check": every page,
 * whatever its length) as a finding of the service's own; undefined when no page did.
 */
function lostText(pages: PageTextLoss[]): PdfaFinding | undefined {
  if (!pages.length) return undefined;
  return {
    specification: 'pdfservice',
    clause: 'text',
    testNumber: 1,
    description: 'The conversion would lose text: after Ghostscript the page has characters the service can no longer extract (they read as U+FFFD or as other characters, or are gone: a font whose Unicode map was lost or not kept, glyphs the substitute font lacks, or a page drawn as an image)',
    failedChecks: pages.length,
    locations: pages.slice(0, 10).map((page) => ({
      pageIndex: page.pageIndex,
      context: `${page.lost} of ${page.before} characters lost (${page.missing.map((ch) => JSON.stringify(ch)).join(' ')})`,
    })),
  };
}

/** A conversion that did not reach PDF/A: 422 with the report, or the source with the report marked in it. */
async function failed(
  input: Pick<ConvertInput, 'params' | 'source' | 'engine'> & { report: PdfaConversionReport; password: string | undefined },
): Promise<{ kind: 'document'; bytes: Uint8Array; report: PdfaConversionReport }> {
  const { params, report, engine, password } = input;
  const rules = report.rules.length;
  if (!params.appendReport && !params.addAnnots) {
    throw new ServiceError('PDFA_CONVERSION_FAILED', `The document could not be made ${report.profile}: ${rules} rule${rules === 1 ? '' : 's'} failed (see report); nothing was written`, { report });
  }
  const marked = await engine.run('pdfaMark', {
    pdf: input.source.pdf,
    password,
    profile: report.profile,
    findings: report.rules,
    appendReport: params.appendReport === true,
    addAnnots: params.addAnnots === true,
  });
  report.marked = { pagesAdded: marked.pagesAdded, notesAdded: marked.notesAdded };
  return { kind: 'document', bytes: marked.bytes.length ? marked.bytes : await input.source.bytes(), report };
}

/**
 * Ghostscript writes conformance B for every part. A -2u/-3u output is the
 * same file (it always writes ToUnicode maps) claiming level U, which veraPDF
 * then checks (every glyph mapped to Unicode). The claim is changed in place,
 * one letter for one, so no offset of the file moves; `out` is a window of the
 * output (tools' copyOutput), and a changed claim no longer matches.
 */
function conformanceU(out: Buffer): void {
  for (const [from, to] of [
    ['<pdfaid:conformance>B</pdfaid:conformance>', '<pdfaid:conformance>U</pdfaid:conformance>'],
    ["pdfaid:conformance='B'", "pdfaid:conformance='U'"],
    ['pdfaid:conformance="B"', 'pdfaid:conformance="U"'],
  ] as const) {
    let at = out.indexOf(from);
    while (at >= 0) {
      out.write(to, at, 'latin1');
      at = out.indexOf(from, at + from.length);
    }
  }
}
