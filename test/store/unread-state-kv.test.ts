import { UnreadStateStore } from '../../src/store/unread-state-kv.js';
import { describeKeyValueContract } from './kv-contract.js';

// The backtest's store of the ledgers' state (written after every fill, read by no restart): the same contract.
describeKeyValueContract('unread state store (memory, kept as handed over)', () => {
  const stores = new Map<string, UnreadStateStore>();
  const keyValue = (id: string): UnreadStateStore => {
    let store = stores.get(id);
    if (store === undefined) {
      store = new UnreadStateStore(id);
      stores.set(id, store);
    }
    return store;
  };
  return { keyValue, close: () => undefined };
});

test('a read is a copy: changing it changes nothing stored', () => {
  const store = new UnreadStateStore('@ledgers');
  store.set('state', { fills: ['1', '2'] });
  const read = store.get('state') as { fills: string[] };
  read.fills.push('3');
  expect(store.get('state')).toEqual({ fills: ['1', '2'] });
});
