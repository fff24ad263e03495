/** The JobBackend contract against the embedded backend: one process, no shared queue, nothing sealed. */
import { EmbeddedJobBackend } from '../../src/operations/jobs/embedded-backend.js';
import { jobBackendContract, oneProcess } from '../helpers/job-backend-contract.js';

jobBackendContract('EmbeddedJobBackend', () => {
  const backend = new EmbeddedJobBackend();
  return Promise.resolve({ ...oneProcess(backend), sharedQueue: false, seals: false, close: () => backend.close() });
});
