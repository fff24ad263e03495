import { availableParallelism } from 'node:os';
import { chromiumTool, type ChromiumPoolSettings } from './chromium.js';
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
export function declaredTools(options: { timeoutMs: number; verapdfDir: string; office?: OfficePoolSettings & { timeoutMs?: number }; chromium?: ChromiumPoolSettings; memory?: ToolMemory }): ToolDeclaration[] {
  const { timeoutMs: officeTimeoutMs = options.timeoutMs, ...office } = options.office ?? {};
  const memory = options.memory ?? {};
  return [
    { ...libreOffice(officeTimeoutMs, office), memoryLimitMb: memory.office },
    { ...tesseract(options.timeoutMs), memoryLimitMb: memory.tesseract },
    verapdf({ timeoutMs: options.timeoutMs, dir: options.verapdfDir, heapMb: memory.verapdfHeap }),
    { ...ghostscript(options.timeoutMs, availableParallelism()), memoryLimitMb: memory.ghostscript },
    { ...qpdf(options.timeoutMs, availableParallelism()), memoryLimitMb: memory.qpdf },
    chromiumTool(options.chromium ?? { timeoutMs: options.timeoutMs }),
  ];
}

/** Each tool's memory bound in MB (PDFSERVICE_*_MEMORY_MB, config.ts): an address-space limit, veraPDF's JVM its heap. 0 or absent: none. */
export interface ToolMemory {
  office?: number | undefined;
  tesseract?: number | undefined;
  ghostscript?: number | undefined;
  qpdf?: number | undefined;
  verapdfHeap?: number | undefined;
}
