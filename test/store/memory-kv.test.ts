import { MemoryKeyValueStores } from '../../src/store/memory-kv.js';
import { describeKeyValueContract } from './kv-contract.js';

// Backtests and sweeps keep the strategies' state in memory: the same contract as the SQLite store.
describeKeyValueContract('strategy key-value store (memory)', () => {
  const stores = new MemoryKeyValueStores();
  return { keyValue: (id: string) => stores.keyValue(id), close: () => undefined };
});
