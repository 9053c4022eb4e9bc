import { statSync } from 'node:fs';
import { join } from 'node:path';
import { dec } from '../../src/core/decimal.js';
import { unwrap } from '../../src/core/result.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import { CHECKPOINT_EVERY_COMMITS } from '../../src/store/state-file/deferred-checkpoints.js';
import { STATE_FILE, StateStore } from '../../src/store/state-file/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

const T = 1_767_225_600_000;

function place(clientOrderId: string): PlaceOrderCommand {
  return { type: 'place-order', clientOrderId, symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('65000.1'), quantity: dec('0.5'), timeInForce: 'GTC' };
}

describe('the daemon state\'s log checkpoints: after the turn that made the commits, never inside an order\'s commit', () => {
  const tmp = tmpStateDir();
  afterAll(() => tmp.remove());

  it.each(['disk', 'os'] as const)('durability %s: commits well past SQLite\'s 1000-page threshold leave the file as it was until the deferred checkpoint runs', async (durability) => {
    const dir = join(tmp.dir, durability);
    const deferred: Array<() => void> = [];
    const store = unwrap(StateStore.open(dir, { durability, defer: (work) => deferred.push(work) }));
    const file = join(dir, STATE_FILE);
    const journal = store.journal();
    const sizeAtOpen = statSync(file).size;
    // Each commit as the executor's: an order journaled, then its state changed (a few pages each).
    for (let i = 0; i < 2 * CHECKPOINT_EVERY_COMMITS; i++) {
      journal.atomically(() => journal.append({ id: `o-${i}`, strategyId: 'grid', intentKey: `k-${i}`, command: place(`o-${i}`), time: T + i, state: 'sent' }));
      journal.update(`o-${i}`, { state: 'accepted', time: T + i, exchangeOrderId: String(900_000_000_000 + i) });
    }
    // No commit copied the log into the file: SQLite's automatic checkpoint would have, several times.
    expect(statSync(file).size).toBe(sizeAtOpen);
    for (const work of deferred.splice(0)) work();
    expect(statSync(file).size).toBeGreaterThan(sizeAtOpen);
    await store.groupCommit?.durable();
    store.close();
    const reopened = unwrap(StateStore.open(dir, { durability }));
    expect(reopened.journal().get(`o-${2 * CHECKPOINT_EVERY_COMMITS - 1}`)?.state).toBe('accepted');
    reopened.close();
  });
});
