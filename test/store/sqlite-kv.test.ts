import { unwrap } from '../../src/core/result.js';
import { StateStore } from '../../src/store/state-file/state-store.js';
import { describeKeyValueContract } from './kv-contract.js';
import { tmpStateDir } from './tmp-state-dir.js';

describeKeyValueContract('strategy key-value store (SQLite, in memory)', () => StateStore.inMemory());

describe('strategy key-value store file', () => {
  it('survives a reopen of the state file', () => {
    const tmp = tmpStateDir();
    try {
      const first = unwrap(StateStore.open(tmp.dir));
      first.keyValue('grid').set('anchor', { price: '64000', at: 1_767_225_600_000 });
      first.close();
      const second = unwrap(StateStore.open(tmp.dir));
      expect(second.keyValue('grid').get('anchor')).toEqual({ price: '64000', at: 1_767_225_600_000 });
      second.close();
    } finally {
      tmp.remove();
    }
  });
});
