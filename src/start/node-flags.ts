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
 *
 * --max-semi-space-size=2: a request body reaches the main thread as chunks Node copies out of the socket (64 KiB
 * each, memory outside V8's heap), freed only by a collection. A scavenge of the young generation frees them for
 * little, but the service allocates so little on the heap per request that with V8's default, larger young
 * generation one scavenge ran in 80 uploads of 4.3 MB: the bodies' memory was freed by full mark-compacts of the main
 * thread's 26 MB heap instead, one every two to four such uploads, 30 to 150 ms each at load 8, and V8's helper
 * threads spent 5 to 16 ms of CPU per upload, more than the engine's check of it. With 2 MB semi-spaces (4 MB did not
 * do it) a scavenge runs every few requests and frees them: one mark-compact in 40 uploads, the helper threads 1 to 5
 * ms per upload (bench/results/issue38-upload-s17-2026-11-30.md). It applies to the engine's worker threads too,
 * whose heaps hold small wrappers of MuPDF's objects; their CPU per upload did not change.
 */
export const NODE_FLAGS: readonly string[] = ['--no-memory-protection-keys', '--max-semi-space-size=2'];

/** What a start without each flag risks, as its warning says. */
const RISKS: Record<string, string> = {
  '--no-memory-protection-keys': 'V8 may abort the process when an engine worker is replaced',
  '--max-semi-space-size=2': "uploads' bodies are freed by full collections of the main thread's heap (slower uploads)",
};

/** Those of NODE_FLAGS this process was started without (the service warns in its log). */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** Logs, once at start, the flags the process lacks and what that risks. */
export function warnMissingNodeFlags(log: { warn: (obj: object, msg: string) => void }): void {
  const missing = missingNodeFlags();
  if (missing.length) {
    log.warn({ missing, command: `node ${NODE_FLAGS.join(' ')} dist/src/main.js` }, `started without the Node.js options the service needs: ${missing.map((flag) => RISKS[flag] ?? flag).join('; ')} (src/start/node-flags.ts)`);
  }
}
