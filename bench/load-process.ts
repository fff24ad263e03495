/**
 * autocannon in a process of its own (bench/annotations.ts `load`): the options as JSON in argv[2], the result as one
 * JSON line on stdout. In the bench's own process the load generator shared its event loop with whatever else that
 * process did (reading the service's log lines from its pipe, a line per request or two), which the bare peer, logging
 * nothing, never asked of it: on 2 cores that made the client slower against the service than against the peer.
 */
import { createRequire } from 'node:module';

/** What `load` asks for (bench/annotations.ts imports the types only: importing this module runs the load). */
export interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}
export interface LoadResult {
  requests: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
// autocannon ships no type declarations: loaded through require, the part used here typed.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: LoadOptions) => PromiseLike<LoadResult> & {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): unknown;
};

const options = JSON.parse(process.argv[2]!) as LoadOptions;
// Latencies from the response events: autocannon's own percentiles are whole milliseconds.
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const instance = autocannon(options);
instance.on('response', (_client, status, _bytes, responseTime) => {
  latencies.push(responseTime);
  if (status >= 300) statuses[status] = (statuses[status] ?? 0) + 1;
});
const result = await instance;
process.stdout.write(`${JSON.stringify({ requests: { average: result.requests.average }, errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, statuses, latencies })}\n`);
