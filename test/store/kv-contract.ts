import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import type { KeyValueStore } from '../../src/model/journal.js';

/** What the strategies' key-value stores must do (SQLite's and the in-memory one of backtests run these). */
export function describeKeyValueContract(name: string, open: () => { keyValue(strategyId: string): KeyValueStore; close(): void }): void {
  describe(name, () => {
    let store: { keyValue(strategyId: string): KeyValueStore; close(): void };
    beforeEach(() => {
      store = open();
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
      // Scalars read back as JSON gives them: −0 as 0, a number JSON cannot hold as null; a scalar overwrites an object and back.
      kv.set('zero', -0);
      expect(Object.is(kv.get('zero'), 0)).toBe(true);
      kv.set('zero', Number.NaN);
      expect(kv.get('zero')).toBeNull();
      kv.set('levels', 7);
      expect(kv.get('levels')).toBe(7);
      kv.set('levels', [1, 2, 3]);
      kv.set('zero', 0);
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

    it('lists keys in byte order of their UTF-8 text', () => {
      const kv = store.keyValue('grid');
      for (const key of ['b', 'B', 'a-1', 'a', '\u00e9', '\u{1f600}', '\uff5e']) kv.set(key, 1);
      expect(kv.keys()).toEqual(['B', 'a', 'a-1', 'b', '\u00e9', '\uff5e', '\u{1f600}']);
    });
  });
}
