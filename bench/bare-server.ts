/** The HTTP ceiling: a bare Fastify route, no logging, for comparison in the same run. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
// A ready-made body of any size, for the HTTP ceiling of routes that answer large documents.
const bodies = new Map<number, Buffer>();
app.get<{ Params: { size: string } }>('/bytes/:size', async (request, reply) => {
  const size = Math.min(Number(request.params.size) || 0, 64 * 1024 * 1024);
  if (!bodies.has(size)) bodies.set(size, Buffer.alloc(size, 32));
  return reply.type('application/json').send(bodies.get(size));
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ msg: 'listening', url })}\n`);
