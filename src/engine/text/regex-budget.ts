/**
 * Client regular expressions run under a time budget. JavaScript cannot
 * interrupt a RegExp, and a pattern with catastrophic backtracking (`(a+)+b`
 * on a line of a's) runs for longer than the age of the universe, holding an
 * engine worker until the task timeout (504). So an engine task hands each
 * text to a small helper thread and waits for it synchronously (Atomics.wait
 * with the budget left); a helper past the budget is terminated and the
 * search refused as the client's error: 400 INVALID_SEARCH. One helper per
 * engine worker, started on first use (about 20 ms), reused afterwards.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../errors.js';

/** Time the regular expression of one request may take over all the texts it searches. */
const REGEX_BUDGET_MS = 5_000;

interface Helper {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

let helper: Helper | null = null;

function startHelper(): Helper {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./regex-worker.js', import.meta.url), { workerData: { port: port2, signal }, transferList: [port2] });
  worker.unref();
  return { worker, port: port1, signal };
}

/** A budget shared by every text one request searches. */
export class RegexBudget {
  private readonly deadline: number;
  constructor(
    private readonly source: string,
    private readonly flags: string,
    budgetMs = REGEX_BUDGET_MS,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  /** [start, end) of every non-empty match in `text`, in order; throws INVALID_SEARCH past the budget. */
  spans(text: string): Int32Array {
    helper ??= startHelper();
    const h = helper;
    Atomics.store(h.signal, 0, 0);
    h.port.postMessage({ source: this.source, flags: this.flags, text });
    const left = this.deadline - Date.now();
    const woke = left > 0 ? Atomics.wait(h.signal, 0, 0, left) : 'timed-out';
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
