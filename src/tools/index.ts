import { availableParallelism } from 'node:os';
import { ghostscript } from './ghostscript.js';
import { libreOffice, type OfficePoolSettings } from './libreoffice.js';
import { qpdf } from './qpdf.js';
import { tesseract } from './tesseract.js';
import type { ToolDeclaration } from './tool.js';
import { verapdf } from './verapdf.js';

export { ToolSupervisor, type ToolRun } from './supervisor.js';
export type { ToolDeclaration, ToolStatus } from './tool.js';

/**
 * Every external program the service runs: adding one is one declaration here
 * (tool.ts says what it holds) plus the module that uses it through
 * `ToolSupervisor.run` (as libreoffice.ts does).
 */
export function declaredTools(options: { timeoutMs: number; verapdfDir: string; office?: OfficePoolSettings & { timeoutMs?: number } }): ToolDeclaration[] {
  const { timeoutMs: officeTimeoutMs = options.timeoutMs, ...office } = options.office ?? {};
  return [
    libreOffice(officeTimeoutMs, office),
    tesseract(options.timeoutMs),
    verapdf({ timeoutMs: options.timeoutMs, dir: options.verapdfDir }),
    ghostscript(options.timeoutMs, availableParallelism()),
    qpdf(options.timeoutMs, availableParallelism()),
  ];
}
