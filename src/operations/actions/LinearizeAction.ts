import { ServiceError } from '../../errors.js';
import { linearize } from '../../tools/qpdf.js';
import { checkToolOutput } from '../tool-output.js';
import type { ActionDefinition, OutputParams } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/** What the answer's `report` says. */
export interface LinearizeReport {
  /** Sizes in bytes: linearizing adds hint tables and may drop unreferenced objects, so the size moves a little either way. */
  bytesBefore: number;
  bytesAfter: number;
  /** The output keeps the source's encryption. */
  encrypted: boolean;
  /** What qpdf repaired as it read the file, if anything. */
  warnings: string[];
}

/**
 * LinearizeAction (docs/optimize.md#linearizeaction): writes the document
 * linearized ("fast web view": the first page and the cross-reference data
 * for it at the start, hint tables for the rest), with Debian's qpdf through
 * the tool supervisor (tools/qpdf.ts says why qpdf and not its WASM build).
 * MuPDF first checks the password and the permission to change the document,
 * and refuses a signed document (409 DOCUMENT_SIGNED: a linearized file is a
 * full rewrite, so signatures could not survive it). Nothing else changes:
 * objects, object streams and encryption stay as they were.
 */
export const LinearizeAction: ActionDefinition<OutputParams> = {
  name: 'LinearizeAction',
  target: 'document',
  need: 'edit',
  summary:
    'Writes the document linearized ("fast web view", ISO 32000-1 Annex F) with qpdf; content, object streams and encryption are kept (an encrypted ' +
    'document needs its password, and a user password only when its permissions allow changes). A signed document is refused (409 DOCUMENT_SIGNED). ' +
    'The answer\'s report gives the sizes before and after. See docs/optimize.md.',
  schema: {
    type: 'object',
    properties: OUTPUT_PARAM_SCHEMAS,
    additionalProperties: false,
  },
  async execute({ source, engine, ctx, tools, exec }) {
    // `password`: the one the engine opened the document with (SASLprep'd where that was what opened it), which qpdf
    // must get as well, else it refuses a password every read accepts.
    const { encrypted, filesEncryptedApart, pageCount, password } = await engine.run('linearizeCheck', { pdf: source.pdf, password: ctx.documentPassword });
    const bytes = await source.bytes();
    // qpdf's exit status 3 ("succeeded with warnings") may be a file nobody can open: only the check decides.
    const attempt = async (input: Uint8Array) => {
      const output = await linearize(tools, { pdf: input, password, signal: exec.signal, restream: filesEncryptedApart });
      const summary = await checkToolOutput(engine, { program: 'qpdf', pdf: output.pdf, warnings: output.warnings }, { password, pageCount, encrypted });
      return { ...output, summary };
    };
    let output;
    try {
      output = await attempt(bytes);
    } catch (err) {
      if (!(err instanceof ServiceError && (err.code === 'PROCESSING_FAILED' || err.code === 'OUTPUT_CHECK_FAILED'))) throw err;
      // qpdf could not read the file as stored (damaged beyond its repair, an object number used twice), or read it
      // otherwise than MuPDF does (a damaged file whose /Encrypt only MuPDF's repair finds: qpdf wrote the encrypted
      // strings and streams as plain ones): MuPDF, which stored it, writes it in full, repaired, and qpdf linearizes that,
      // as qpdf's own advice for such files says. Its output is checked the same way; failing again, the first answer stands.
      const { pdf: rewritten } = await engine.run('linearizeRewrite', { pdf: source.pdf, password: ctx.documentPassword });
      try {
        output = await attempt(rewritten);
      } catch {
        throw err;
      }
      output.warnings.unshift(`${err.message}; linearized from the document as MuPDF repaired and rewrote it`);
    }
    const { pdf, warnings, summary } = output;
    const report: LinearizeReport = { bytesBefore: bytes.length, bytesAfter: pdf.length, encrypted, warnings };
    return { kind: 'document', bytes: pdf, report, summary };
  },
};
