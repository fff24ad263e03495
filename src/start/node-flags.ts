/**
 * The Node.js options the service and its job worker are started with (`node <flags> dist/src/main.js`): scripts/env.sh
 * holds the same list as PDFSERVICE_NODE_FLAGS for the scripts, and the Containerfile and the systemd units write it
 * out (test/api/node-flags.test.ts checks they agree). V8 takes them only on the command line, not in NODE_OPTIONS.
 *
 * --no-memory-protection-keys: on a CPU with memory protection keys (PKU, most x86 servers), V8 tracks the pages of
 * JIT and WebAssembly code in a table shared by every thread, and a worker thread that starts or ends while others
 * compile can find it out of step: the process aborts with "Check failed: jit_page.has_value()" (SIGTRAP). The engine
 * replaces a worker after a timeout, a crash or a large WebAssembly memory, each new one compiling MuPDF again; a
 * fresh-clone CI run of the hostile-files suite lost the service so (29 Nov), as others report with WebAssembly in
 * worker threads (nodejs/node issue 64500). Without the keys V8 protects code pages as it does on CPUs that have
 * none (docs/architecture.md, Decisions).
 */
export const NODE_FLAGS: readonly string[] = ['--no-memory-protection-keys'];

/** Those of NODE_FLAGS this process was started without (the service warns in its log). */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** Logs, once at start, the flags the process lacks and what that risks. */
export function warnMissingNodeFlags(log: { warn: (obj: object, msg: string) => void }): void {
  const missing = missingNodeFlags();
  if (missing.length) {
    log.warn({ missing, command: `node ${NODE_FLAGS.join(' ')} dist/src/main.js` }, 'started without the Node.js options the service needs: V8 may abort the process when an engine worker is replaced (src/start/node-flags.ts)');
  }
}
