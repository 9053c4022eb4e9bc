import { daemonJobs, JOURNAL_RETENTION_MS } from '../../src/app/daemon/jobs.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Kernel } from '../../src/engine/kernel.js';
import type { ExchangeCommand } from '../../src/model/commands.js';
import { StateStore } from '../../src/store/state-file/state-store.js';

const DAY = 86_400_000;
const NOW = 1_767_225_600_000 + 30 * DAY;
const NEVER = '0 0 29 2 *';

function place(id: string): ExchangeCommand {
  return { type: 'place-order', clientOrderId: id, symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('100'), quantity: dec('1'), timeInForce: 'GTC' };
}

describe('the daily reset job', () => {
  it('starts a new PnL day and purges settled journal entries older than a week; open and recent ones stay', async () => {
    const store = StateStore.inMemory();
    const journal = store.journal();
    const entry = (id: string, state: 'done' | 'rejected' | 'accepted', time: number): void => {
      journal.append({ id, strategyId: 's', command: place(id), time });
      journal.update(id, { state, time });
    };
    entry('old-done', 'done', NOW - JOURNAL_RETENTION_MS - 1);
    entry('old-rejected', 'rejected', NOW - 10 * DAY);
    entry('old-open', 'accepted', NOW - 10 * DAY);
    entry('recent-done', 'done', NOW - 6 * DAY);
    let newDays = 0;
    const kernel = { startNewDay: () => void (newDays += 1), ingest: () => undefined } as unknown as Kernel;
    const jobs = daemonJobs({
      schedules: { listenKeyKeepalive: NEVER, exchangeInfoRefresh: NEVER, reconcile: NEVER, dailyReset: NEVER },
      kernel,
      sessions: [],
      journal,
      clock: { now: () => NOW },
      logger: silentLogger,
    });
    expect((await jobs.runNow('dailyReset')).status).toBe('ok');
    await jobs.stop();
    expect(newDays).toBe(1);
    expect(journal.get('old-done')).toBeUndefined();
    expect(journal.get('old-rejected')).toBeUndefined();
    expect(journal.get('old-open')?.state).toBe('accepted');
    expect(journal.get('recent-done')?.state).toBe('done');
    expect(store.journalCounts()).toEqual({ open: 1, settled: 1 });
    store.close();
  });
});
