/** The HTTP ceiling: a bare Fastify route, no logging, for comparison in the same run. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ msg: 'listening', url })}\n`);
