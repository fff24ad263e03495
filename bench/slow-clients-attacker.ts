/**
 * The attacker of bench/slow-clients.ts, run in its own process on its own core (taskset): anonymous uploads that
 * send their headers and then one byte a second, from many loopback addresses, each address keeping `perAddress`
 * connections open and opening a new one whenever the service closes one, for `seconds`. Prints one JSON line:
 * connections opened, and how many the service closed.
 * Usage: node dist/bench/slow-clients-attacker.js PORT SECONDS ADDRESSES PER_ADDRESS
 */
import net from 'node:net';

const [port, seconds, addresses, perAddress] = process.argv.slice(2).map(Number) as [number, number, number, number];
const head = 'PUT /pdfservice/v1/documents/slow/upload.pdf HTTP/1.1\r\nHost: pdfservice\r\nContent-Type: application/pdf\r\nContent-Length: 100000000\r\n\r\n%';
const end = Date.now() + seconds * 1000;
let opened = 0;
let closed = 0;
const sockets = new Set<net.Socket>();

function open(localAddress: string): void {
  if (Date.now() >= end) return;
  opened++;
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  sockets.add(socket);
  socket.on('error', () => {});
  socket.on('data', () => {});
  socket.once('connect', () => socket.write(head));
  socket.once('close', () => {
    sockets.delete(socket);
    closed++;
    // A new connection in its place, as a client that retries does (a little later, so a refused one does not spin).
    setTimeout(() => open(localAddress), 100).unref();
  });
}

for (let a = 0; a < addresses; a++) for (let i = 0; i < perAddress; i++) open(`127.0.${Math.floor(a / 250) + 10}.${(a % 250) + 1}`);
const drip = setInterval(() => {
  for (const socket of sockets) if (!socket.destroyed && socket.writable) socket.write('x');
}, 1000);
setTimeout(() => {
  clearInterval(drip);
  const stillOpen = sockets.size;
  for (const socket of sockets) socket.destroy();
  console.log(JSON.stringify({ opened, closedByService: closed, stillOpenAtEnd: stillOpen }));
  process.exit(0);
}, seconds * 1000);
