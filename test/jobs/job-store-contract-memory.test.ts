import { MemoryJobStore } from '../../src/operations/jobs/memory-store.js';
import { jobStoreContract } from '../helpers/job-store-contract.js';

jobStoreContract('MemoryJobStore', async () => ({ store: new MemoryJobStore(), close: async () => {} }));
