import { MemoryStore, MemoryVolume } from '../../src/storage/memory-store.js';
import { storeContract } from '../helpers/store-contract.js';

storeContract('MemoryStore', async () => {
  const volume = new MemoryVolume();
  return {
    store: new MemoryStore(volume),
    reopen: async () => new MemoryStore(volume),
    leftovers: async () => volume.staged.size,
    // Its writes happen in one synchronous step: no write can be left half done.
    close: async () => {},
  };
});
