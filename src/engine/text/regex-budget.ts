/**
 * Client regular expressions run under a time budget. JavaScript cannot
 * interrupt a RegExp, and a pattern with catastrophic backtracking (`(a+)+b`
 * on a line of a's) runs for longer than the age of the universe, holding an
 * engine worker until the task timeout (504). So an engine task hands each
 * text to a small helper thread and waits for it synchronously (Atomics.wait
 * with the budget left); a helper past the budget is terminated and the
 * search refused as the client's error: 400 INVALID_SEARCH. One helper per
 * engine worker, started on first use (about 20 ms), reused afterwards.
 * The budget counts the time the expression runs only: not the helper's start
 * nor the text extraction between texts, which on a loaded machine took more
 * than the budget before a simple pattern ran (a CI failure at load 35).
 */
import { MessageChannel, receiveMessageOnPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import type { WorkerSettings } from '../worker.js';

/**
 * Time the regular expression of one request may take over all the texts it searches: PDFSERVICE_REGEX_BUDGET_MS, as
 * the pool gives it to its workers (config/engine.ts; 5 s by default, shorter in some test files, which each wait it out).
 */
const REGEX_BUDGET_MS = (workerData as Partial<WorkerSettings> | null)?.regexBudgetMs ?? 5_000;

interface Helper {
  worker: Worker;
  port: MessagePort;
  /** [0]: set by the helper when a match is done; [1]: set once when it listens. */
  signal: Int32Array;
}

/** How long a helper may take to start (module load) before the search fails as the engine's fault, not the client's. */
const START_LIMIT_MS = 60_000;

let helper: Helper | null = null;

function startHelper(): Helper {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL('./regex-worker.js', import.meta.url), { workerData: { port: port2, signal }, transferList: [port2] });
  worker.unref();
  if (Atomics.wait(signal, 1, 0, START_LIMIT_MS) === 'timed-out') {
    void worker.terminate();
    throw new Error('the regular expression helper thread did not start');
  }
  return { worker, port: port1, signal };
}

/** A budget shared by every text one request searches. */
export class RegexBudget {
  /** What is left of the budget, in ms. */
  private left: number;
  constructor(
    private readonly source: string,
    private readonly flags: string,
    budgetMs = REGEX_BUDGET_MS,
  ) {
    this.left = budgetMs;
  }

  /** [start, end) of every non-empty match in `text`, in order; throws INVALID_SEARCH past the budget. */
  spans(text: string): Int32Array {
    helper ??= startHelper();
    const h = helper;
    Atomics.store(h.signal, 0, 0);
    const started = performance.now();
    h.port.postMessage({ source: this.source, flags: this.flags, text });
    const woke = this.left > 0 ? Atomics.wait(h.signal, 0, 0, this.left) : 'timed-out';
    this.left -= performance.now() - started;
    const reply = woke === 'timed-out' ? undefined : receiveMessageOnPort(h.port);
    if (!reply) {
      helper = null;
      void h.worker.terminate();
      h.port.close();
      throw new EngineError('INVALID_SEARCH', `The regular expression takes longer than ${REGEX_BUDGET_MS / 1000} s over this document's text (catastrophic backtracking?); simplify it`);
    }
    const message = reply.message as { spans?: Int32Array; error?: string };
    if (message.error !== undefined) throw new EngineError('INVALID_SEARCH', `searchText is not a valid regular expression: ${message.error}`);
    return message.spans!;
  }
}
