import { MemoryProfileStore } from '../../src/operations/optimize/store.js';
import { profileStoreContract } from '../helpers/profile-store-contract.js';

profileStoreContract('MemoryProfileStore', async () => ({ store: new MemoryProfileStore(), close: async () => {} }));
