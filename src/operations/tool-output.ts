import { ServiceError } from '../errors.js';
import type { PdfSource, TaskInput, TaskOutput } from '../engine/models.js';
import type { Engine } from './execution.js';

/** What an external program wrote, and what it said while writing it. */
export interface ToolOutput {
  /** The program, as the problem names it ("qpdf", "Ghostscript", "LibreOffice"). */
  program: string;
  /** Its bytes, or the file they were put in (a large output: PDFAConvertAction's ScratchFile). */
  pdf: PdfSource;
  /** What it warned about (qpdf's exit status 3, Ghostscript's notes): reported with a failed check. */
  warnings?: readonly string[] | undefined;
}

/** What the output must be: opened with the password the source opened with, the source's pages, its encryption kept. */
export type OutputExpectation = Omit<TaskInput<'checkOutput'>, 'pdf'>;

/**
 * The one check of every external program's output before it replaces
 * anything (docs/errors.md, OUTPUT_CHECK_FAILED): the engine's `checkOutput`
 * task opens it as the service will (with `expected.password`, the one the
 * source opened with: programPassword), and it must keep the page count and
 * the encryption it is expected to. A program's exit status and warnings do
 * not make an output good; only this does. Answers the output's summary
 * (validateUpload's shape), which the action runner uses as the written
 * version's, so the output is opened once. 422 OUTPUT_CHECK_FAILED otherwise,
 * with what the check found and what the program warned: nothing is written.
 */
export async function checkToolOutput(engine: Engine, output: ToolOutput, expected: OutputExpectation = {}): Promise<TaskOutput<'validateUpload'>> {
  const verdict = await engine.run('checkOutput', { pdf: output.pdf, ...expected });
  if (verdict.ok) return verdict.summary;
  const warnings = output.warnings?.length ? { warnings: output.warnings.slice(0, 20) } : {};
  throw new ServiceError('OUTPUT_CHECK_FAILED', `${output.program}'s output failed the service's check, so nothing was written: ${verdict.problem}`, {
    program: output.program,
    problem: verdict.problem,
    ...warnings,
  });
}
