/**
 * The helper thread of regex-budget.ts: runs a client's regular expression
 * over one text and answers the match spans, then wakes the waiting engine
 * worker. It may be terminated in the middle of a match.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { matchSpans } from './match.js';

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

port.on('message', ({ source, flags, text }: { source: string; flags: string; text: string }) => {
  try {
    port.postMessage({ spans: matchSpans(text, new RegExp(source, flags)) });
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

// Listening: the waiting engine worker starts counting the budget from here on.
Atomics.store(signal, 1, 1);
Atomics.notify(signal, 1);
