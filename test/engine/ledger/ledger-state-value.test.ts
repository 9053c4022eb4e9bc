import { dec } from '../../../src/core/decimal.js';
import { decodeLedgerState, encodeLedgerState, ledgerStateValue } from '../../../src/engine/ledger/codec.js';
import type { LedgerRecord } from '../../../src/engine/ledger/book.js';
import { MemoryKeyValueStore } from '../../../src/store/memory-kv.js';
import { UnreadStateStore } from '../../../src/store/unread-state-kv.js';

const record: LedgerRecord = {
  positions: [{ owner: 'alpha', symbol: 'BTC-SWAP-USDT', positionSide: 'LONG', qty: dec('0.003'), avgPrice: dec('43125.5'), realizedPnl: dec('-1.25'), fees: dec('0.0517506'), funding: dec('0'), updateTime: 1_700_000_000_000 }],
  fills: ['11', '12'],
  chunks: [0],
};

test('the ledger state a store is handed reads back as its encoding, from a store that serializes at once and from one that keeps it unread', () => {
  const expected = JSON.parse(JSON.stringify(encodeLedgerState(record))) as unknown;
  for (const store of [new MemoryKeyValueStore('@ledgers'), new UnreadStateStore('@ledgers')]) {
    store.set('state', ledgerStateValue(record));
    const stored = store.get('state');
    expect(stored).toEqual(expected);
    expect(decodeLedgerState(stored, () => ['1', '2'], 2)?.positions[0]?.avgPrice.toFixed()).toBe('43125.5');
  }
});
