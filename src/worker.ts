/**
 * `npm run worker`: a process that runs background jobs only (no HTTP), from
 * the queue the instances share through Redis (PDFSERVICE_REDIS_URL), with
 * the same configuration, engine pool and stores as the service (docs/jobs.md).
 */
import { runMain } from './main.js';

await runMain('worker');
