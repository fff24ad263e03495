import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: its path, headers and raw body. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request to a path: a status (with headers), or never (a receiver that hangs). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  /** The receiver's base URL (http://127.0.0.2:port). */
  url: string;
  received: Received[];
  /** What each path answers, in turn: the n-th request to a path gets the n-th answer (the last one repeats); 200 by default. */
  answers: Map<string, Answer[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback for the tests: it records every request and answers what the test set per path. It
 * listens on 127.0.0.2 (Linux routes all of 127/8 to the loopback interface), so that a test service can list that
 * address in PDFSERVICE_WEBHOOK_ALLOWLIST while 127.0.0.1, where `localhost` resolves, stays unlisted.
 */
export async function startWebhookReceiver(host = '127.0.0.2'): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers = new Map<string, Answer[]>();
  const counts = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const seen = counts.get(path) ?? 0;
      counts.set(path, seen + 1);
      const list = answers.get(path) ?? [];
      const answer = list[Math.min(seen, list.length - 1)] ?? { status: 200 };
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers ?? {}).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    received,
    answers,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
