import { dec } from '../../../../src/core/decimal.js';
import { Cache } from '../../../../src/engine/cache.js';
import { Protections } from '../../../../src/engine/risk/protections/protections.js';
import type { BusEvent } from '../../../../src/model/bus-events.js';
import type { ProtectionSpec } from '../../../../src/model/protections.js';
import { MemoryKeyValueStores } from '../../../../src/store/memory-kv.js';

const T0 = 1_767_225_600_000;
const COOLDOWN: ProtectionSpec = { kind: 'cooldown', name: 'cooldown', action: 'block-entries', scope: 'strategy', resumeAfterMs: 3_600_000 };
const SPECS: readonly ProtectionSpec[] = [COOLDOWN];

const exitFill = (time: number): BusEvent => ({
  type: 'account.fill',
  source: 'stream',
  time,
  fill: {
    symbol: 'BTC-SWAP-USDT',
    tradeId: '1',
    orderId: '11',
    clientOrderId: 'trader-7',
    side: 'SELL',
    positionSide: 'LONG',
    price: dec('100000'),
    qty: dec('1'),
    fee: dec('0.06'),
    feeAsset: 'USDT',
    isMaker: false,
    realizedPnl: dec('-3'),
    time,
  },
});

function protections(stores: MemoryKeyValueStores): Protections {
  return new Protections({ specs: SPECS, strategyIds: ['trader', 'other'], cache: new Cache(), ownerOf: (id) => (id.startsWith('trader-') ? 'trader' : undefined), store: stores.keyValue('@protections') });
}

test('a tripped protection is journaled: after a restart it still holds until its resume time, then resumes', () => {
  const stores = new MemoryKeyValueStores();
  const before = protections(stores);
  const tripped = before.onEvent(exitFill(T0), T0);
  expect(tripped.map((c) => [c.protection, c.scopeKey, c.tripped, c.resumeAt])).toEqual([['cooldown', 'trader', true, T0 + 3_600_000]]);

  // A new engine on the same store (the restart).
  const after = protections(stores);
  expect(after.restored().map((c) => [c.protection, c.scopeKey, c.tripped, c.resumeAt])).toEqual([['cooldown', 'trader', true, T0 + 3_600_000]]);
  expect(after.gate('trader', T0 + 60_000)).toMatch(/protection cooldown tripped/);
  expect(after.gate('other', T0 + 60_000)).toBeUndefined();
  expect(after.onEvent({ type: 'timer', time: T0 + 3_599_999, name: 'tick' }, T0 + 3_599_999)).toEqual([]);
  const resumed = after.onEvent({ type: 'timer', time: T0 + 3_600_000, name: 'tick' }, T0 + 3_600_000);
  expect(resumed.map((c) => [c.scopeKey, c.tripped])).toEqual([['trader', false]]);
  expect(after.gate('trader', T0 + 3_600_000)).toBeUndefined();

  // Resumed is journaled too: a further restart finds nothing tripped.
  expect(protections(stores).restored()).toEqual([]);
});

test('trips of a protection no longer configured are dropped at start', () => {
  const stores = new MemoryKeyValueStores();
  protections(stores).onEvent(exitFill(T0), T0);
  const renamed = new Protections({ specs: [{ ...COOLDOWN, name: 'other-name' }], strategyIds: ['trader'], cache: new Cache(), ownerOf: () => 'trader', store: stores.keyValue('@protections') });
  expect(renamed.restored()).toEqual([]);
  expect(stores.keyValue('@protections').keys()).toEqual([]);
});
