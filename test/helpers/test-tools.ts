import type { ToolDeclaration } from '../../src/tools/index.js';

/** A per-run tool that runs `sh` (the supervisor's tests): one run at a time, 10 s to run, unless `overrides` say otherwise. */
export function shTool(overrides: Partial<ToolDeclaration> = {}): ToolDeclaration {
  return {
    name: 'test-sh',
    command: 'sh',
    debianPackage: 'dash',
    purpose: 'Test run',
    versionProbe: { args: ['-c', 'echo "Test shell 9.8.7"'], pattern: /^Test shell (\S+)/ },
    concurrency: 1,
    timeoutMs: 10_000,
    lifetime: { kind: 'per-run' },
    scratch: 'sh-scratch',
    ...overrides,
  };
}
