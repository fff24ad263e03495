import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { describe, test } from 'node:test';
import { ADMIN, basicAuth, serverForSuite, type TestServer } from '../helpers/server.js';

/** Opens a connection from `localAddress`, sends `data` and then nothing more. Resolves once connected (or refused). */
function stall(server: TestServer, data: string, localAddress = '127.0.0.1'): Promise<net.Socket> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: hostname, localAddress });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(data);
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

/** Waits for the service to close the connection; resolves with what it sent before. */
function closedByService(socket: net.Socket): Promise<string> {
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  return new Promise((resolve) => (socket.closed ? resolve(received) : socket.once('close', () => resolve(received))));
}

/** GET /health over a new connection from `localAddress`: its status, or 0 when the connection failed. */
function health(server: TestServer, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(`${server.api}/health`, { localAddress, agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

/** The service's log line that matches, once it has arrived (it travels by pipe, the close by socket: either may come first). */
async function assertCutLogged(server: TestServer, reason: string): Promise<void> {
  const logged = () => server.output.some((l) => l.includes('"msg":"request body too slow; connection closed"') && l.includes(reason));
  for (let i = 0; i < 200 && !logged(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(logged(), `the cut is logged with ${reason}`);
}

const partialHeaders = 'GET /pdfservice/v1/health HTTP/1.1\r\nHost: pdfservice\r\nX-Slow: ';
const partialLogin = 'POST /pdfservice/v1/sessions HTTP/1.1\r\nHost: pdfservice\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"username":"ad';
const partialUpload =
  `PUT /pdfservice/v1/documents/slow.pdf HTTP/1.1\r\nHost: pdfservice\r\nAuthorization: ${basicAuth(ADMIN.username, ADMIN.password)}\r\n` +
  'Content-Type: application/pdf\r\nContent-Length: 1000000\r\n\r\n%PDF-1.7\n';

describe('stalled bodies are cut', () => {
  const server = serverForSuite({ env: { PDFSERVICE_WORKERS: '1', PDFSERVICE_PUBLIC_BODY_TIMEOUT_MS: '300', PDFSERVICE_BODY_RATE_WINDOW_SECONDS: '2', PDFSERVICE_BODY_MIN_BYTES: '1024' } });

  test('a login body that stalls is cut at the public body deadline', { timeout: 20_000 }, async () => {
    const socket = await stall(server, partialLogin);
    await closedByService(socket);
    await assertCutLogged(server, '"reason":"no login and the body took longer than 300 ms"');
  });

  // The deadline is 300 ms here; the bound is the test's timeout, far above it and below the 10 s and more it took.
  test('an anonymous upload that stalls gets its 401 and is closed at the public body deadline, not held for the drain', { timeout: 8_000 }, async () => {
    // Issue 35 item 18: the refusal went on reading the rest of the body (up to 30 s), whoever sent it.
    const socket = await stall(server, partialUpload.replace(/Authorization: [^\r]*\r\n/, ''));
    const received = await closedByService(socket);
    assert.match(received, /^HTTP\/1\.1 401 /);
  });

  test('an upload that stops delivering is cut by the minimum rate, and nothing is stored', { timeout: 20_000 }, async () => {
    const socket = await stall(server, partialUpload);
    await closedByService(socket);
    await assertCutLogged(server, '"reason":"less than 1024 bytes of body in 2 s"');
    const stored = await fetch(`${server.api}/documents/slow.pdf`, { headers: { authorization: server.adminAuth } });
    assert.equal(stored.status, 404);
  });

  test('an upload that keeps delivering slowly is not cut', { timeout: 30_000 }, async () => {
    // Pieces far above the minimum (1 KiB per 2 s window), a few every window.
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(60_000, 0x20)]);
    const socket = await stall(server, partialUpload.replace('Content-Length: 1000000', `Content-Length: ${body.length}`).replace(/%PDF-1\.7\n$/, ''));
    const answer = closedByService(socket);
    for (let offset = 0; offset < body.length; offset += 12_000) {
      socket.write(body.subarray(offset, offset + 12_000));
      await new Promise((r) => setTimeout(r, 300));
    }
    socket.end();
    // Not a PDF: the service read all of it and answered, rather than cutting the connection.
    assert.match(await answer, /^HTTP\/1\.1 4\d\d /);
  });
});

describe('1,000 stalled connections', () => {
  const limit = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);
  // The service runs with 1,024 descriptors, fewer than it would need to hold every stalled connection;
  // this test process needs more than 1,000 of its own (Node raises its soft limit to the hard one).
  const server = serverForSuite({ openFileLimit: 1024, env: { PDFSERVICE_WORKERS: '1' } });

  test('health keeps answering from another address, and one address is held to its cap', { timeout: 60_000, skip: limit < 2048 ? `ulimit -n is ${limit}; the test needs 2048` : false }, async () => {
    const kinds = [partialHeaders, partialLogin, partialUpload];
    const sockets = await Promise.all(Array.from({ length: 1000 }, (_, i) => stall(server, kinds[i % 3]!)));
    try {
      for (let i = 0; i < 5; i++) assert.equal(await health(server, '127.0.0.2'), 200, `health poll ${i + 1} from 127.0.0.2`);
      // 127.0.0.1 is at its cap (128 by default): a new connection from it is closed unanswered.
      assert.equal(await health(server, '127.0.0.1'), 0);
      // The service closed the rest at once; wait until this process has seen every close.
      let open = sockets.filter((s) => !s.closed);
      for (let i = 0; i < 100 && open.length > 128; i++) {
        await new Promise((r) => setTimeout(r, 50));
        open = sockets.filter((s) => !s.closed);
      }
      assert.ok(open.length <= 128, `${open.length} stalled connections from one address are open`);
      assert.ok(open.length > 0, 'connections under the cap are kept until their deadline');
    } finally {
      for (const s of sockets) s.destroy();
    }
    // Once they are gone, the address is served again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await health(server, '127.0.0.1');
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
  });
});
