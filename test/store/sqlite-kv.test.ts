import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import { unwrap } from '../../src/core/result.js';
import { StateStore } from '../../src/store/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

describe('strategy key-value store', () => {
  let store: StateStore;
  beforeEach(() => {
    store = StateStore.inMemory();
  });
  afterEach(() => store.close());

  it('sets, reads, overwrites and deletes JSON values; a missing key is undefined', () => {
    const kv = store.keyValue('grid');
    expect(kv.get('levels')).toBeUndefined();
    kv.set('levels', { prices: ['100.5', '101'], count: 2, armed: true, note: null });
    expect(kv.get('levels')).toEqual({ prices: ['100.5', '101'], count: 2, armed: true, note: null });
    kv.set('levels', [1, 2, 3]);
    expect(kv.get('levels')).toEqual([1, 2, 3]);
    kv.set('zero', 0);
    kv.set('empty', '');
    expect([kv.get('zero'), kv.get('empty')]).toEqual([0, '']);
    expect(kv.keys()).toEqual(['empty', 'levels', 'zero']);
    kv.delete('levels');
    kv.delete('never-set');
    expect(kv.get('levels')).toBeUndefined();
    expect(kv.keys()).toEqual(['empty', 'zero']);
  });

  it('keeps each strategy to its own keys', () => {
    store.keyValue('a').set('k', 'from a');
    store.keyValue('b').set('k', 'from b');
    expect(store.keyValue('a').get('k')).toBe('from a');
    expect(store.keyValue('b').get('k')).toBe('from b');
    store.keyValue('a').delete('k');
    expect(store.keyValue('a').keys()).toEqual([]);
    expect(store.keyValue('b').keys()).toEqual(['k']);
  });

  it('stores a Decimal as its text and refuses a value JSON cannot hold', () => {
    const kv = store.keyValue('grid');
    kv.set('price', dec('65000.125'));
    expect(kv.get('price')).toBe('65000.125');
    expect(() => kv.set('nothing', undefined)).toThrow(InvariantError);
    expect(() => kv.set('fn', () => 1)).toThrow(InvariantError);
    expect(kv.keys()).toEqual(['price']);
  });

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
