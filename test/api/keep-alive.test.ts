import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startServer();
  await putPdf(server, 'ka/doc.pdf', makePdf());
});
after(async () => {
  await server.stop();
});

/**
 * One keep-alive connection: sends `first`, reads its response, then (unless
 * the service closed the connection, which tells a client to open another)
 * sends GET /health on the same connection. Resolves with what happened.
 */
function twoRequests(first: Buffer): Promise<{ firstStatus: number; second: 'answered' | 'closed' | 'hung' }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    let firstStatus = 0;
    let stage: 'first' | 'second' = 'first';
    let timer: NodeJS.Timeout | undefined;
    const done = (second: 'answered' | 'closed' | 'hung') => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ firstStatus, second });
    };
    socket.on('error', () => (stage === 'second' ? done('closed') : reject(new Error('connection failed before the first answer'))));
    socket.on('close', () => (stage === 'second' ? done('closed') : undefined));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const text = buffer.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      buffer = buffer.subarray(end + 4 + length);
      if (stage === 'first') {
        firstStatus = status;
        stage = 'second';
        if (/\r\nconnection: close/i.test(text.slice(0, end))) return; // the close event follows
        socket.write(`GET /pdfservice/v1/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
        timer = setTimeout(() => done('hung'), 5000);
      } else {
        done(status === 200 ? 'answered' : 'closed');
      }
    });
    socket.write(first, () => undefined);
  });
}

function multipartRequest(annotationPartBytes: number): Buffer {
  const boundary = 'robustboundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="annotation"; filename="a.json"\r\nContent-Type: application/json\r\n\r\n`),
    Buffer.alloc(annotationPartBytes, '['),
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`),
  ]);
  const head = `POST /pdfservice/v1/documents/ka/doc.pdf/annotations HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.adminAuth}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

test('a request refused before its body was read: the rest is discarded and the keep-alive connection serves the next request (found by the robustness suite)', async () => {
  // The annotation part passes PDFSERVICE_MAX_BODY_BYTES (4 MiB): 413 while the rest of the body is unread.
  const refused = await twoRequests(multipartRequest(5 * 1024 * 1024));
  assert.equal(refused.firstStatus, 413);
  assert.equal(refused.second, 'answered', 'the next request on the connection was answered');
  // A JSON body past the limit, refused by Fastify's parser before it reads it: the same.
  const json = Buffer.concat([Buffer.from('{"CopyAction":{"savePath":"'), Buffer.alloc(5 * 1024 * 1024, 'x'), Buffer.from('"}}')]);
  const head = `POST /pdfservice/v1/documents/ka/doc.pdf HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.adminAuth}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`;
  const tooLarge = await twoRequests(Buffer.concat([Buffer.from(head, 'latin1'), json]));
  assert.equal(tooLarge.firstStatus, 413);
  assert.equal(tooLarge.second, 'answered');
  // A request the service read completely keeps its connection usable.
  const read = await twoRequests(multipartRequest(10));
  assert.equal(read.firstStatus, 400);
  assert.equal(read.second, 'answered');
});
