import { VirtualClock } from '../../../src/core/virtual-time.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { RateBudget, RateCost } from '../../../src/venue/rate-governor.js';
import { DEFAULT_RATE_BUDGET, RateGovernor } from '../../../src/venue/rate-governor.js';
import { laneOf } from '../../../src/venue/rate/index.js';

const FULL: RateBudget = { ...DEFAULT_RATE_BUDGET, share: 1 };

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Queues one request per label and records the order in which the governor lets them through. */
function queue(governor: RateGovernor, requests: ReadonlyArray<readonly [string, RateCost]>, granted: string[]): void {
  for (const [label, cost] of requests) {
    void governor.acquire(cost).then((r) => {
      if (r.ok) granted.push(label);
    });
  }
}

describe('rate budget lanes', () => {
  it('under a saturated weight budget lets cancels go first, then new orders, then market data', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const granted: string[] = [];
    // Saturate the minute's weight with downloads; more downloads wait behind them.
    queue(governor, [['fill', { weight: 3000, orders: 0, lane: 'data' }]], granted);
    await settle();
    queue(
      governor,
      [
        ['download-1', { weight: 10, orders: 0, lane: 'data' }],
        ['order-1', { weight: 1, orders: 1, lane: 'trade' }],
        ['download-2', { weight: 10, orders: 0, lane: 'data' }],
        ['cancel-1', { weight: 1, orders: 0, lane: 'protect' }],
        ['order-2', { weight: 1, orders: 1, lane: 'trade' }],
        ['reduce-1', { weight: 1, orders: 1, lane: 'protect' }],
      ],
      granted,
    );
    await settle();
    expect(granted).toEqual(['fill']);
    expect(governor.snapshot().queuedByLane).toEqual({ protect: 2, trade: 2, data: 2 });
    clock.advanceBy(60_000);
    await settle();
    expect(granted).toEqual(['fill', 'cancel-1', 'reduce-1', 'order-1', 'order-2', 'download-1', 'download-2']);
    expect(governor.snapshot().queued).toBe(0);
  });

  it('after a 429 pause grants the waiting cancel before the orders and data queued ahead of it', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const granted: string[] = [];
    governor.onRateLimited('weight', clock.now() + 5_000);
    queue(
      governor,
      [
        ['klines', { weight: 1, orders: 0, lane: 'data' }],
        ['order', { weight: 1, orders: 1, lane: 'trade' }],
        ['cancel', { weight: 1, orders: 0, lane: 'protect' }],
      ],
      granted,
    );
    clock.advanceBy(4_999);
    await settle();
    expect(granted).toEqual([]);
    clock.advanceBy(1);
    await settle();
    expect(granted).toEqual(['cancel', 'order', 'klines']);
  });

  it('holds every lane during a 418 ban, cancels included', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    governor.onBanned(clock.now() + 120_000);
    const refused = await governor.acquire({ weight: 1, orders: 0, lane: 'protect' });
    expect(refused.ok).toBe(false);
    clock.advanceBy(120_000);
    expect((await governor.acquire({ weight: 1, orders: 0, lane: 'protect' })).ok).toBe(true);
  });

  it('files cancels and reduce-only orders under protect, new orders under trade, market data under data', () => {
    expect(laneOf(ENDPOINTS.orderV2Cancel, { query: [['symbol', 'BTC-SWAP-USDT']] })).toBe('protect');
    expect(laneOf(ENDPOINTS.batchCancelV2, {})).toBe('protect');
    expect(laneOf(ENDPOINTS.orderV1Create, { form: [['side', 'SELL_CLOSE'], ['quantity', '1']] })).toBe('protect');
    expect(laneOf(ENDPOINTS.orderV2Create, { json: { side: 'SELL', reduceOnly: true } })).toBe('protect');
    expect(laneOf(ENDPOINTS.orderV2Create, { json: { side: 'BUY', positionSide: 'LONG' } })).toBe('trade');
    expect(laneOf(ENDPOINTS.orderV2Create, { json: { side: 'SELL', positionSide: 'LONG', type: 'MARKET' } })).toBe('protect');
    expect(laneOf(ENDPOINTS.orderV2Create, { json: { side: 'SELL', positionSide: 'SHORT' } })).toBe('trade');
    expect(laneOf(ENDPOINTS.batchOrdersV2, { json: [{ side: 'SELL', reduceOnly: 'true' }, { side: 'BUY' }] })).toBe('trade');
    expect(laneOf(ENDPOINTS.batchOrdersV2, { json: [{ side: 'SELL', reduceOnly: 'true' }, { side: 'BUY', closePosition: true }] })).toBe('protect');
    expect(laneOf(ENDPOINTS.orderV1Update, { form: [['side', 'SELL_CLOSE']] })).toBe('trade');
    expect(laneOf(ENDPOINTS.positions, {})).toBe('trade');
    expect(laneOf(ENDPOINTS.klines, { query: [['symbol', 'BTC-SWAP-USDT']] })).toBe('data');
    expect(laneOf(ENDPOINTS.depth, {})).toBe('data');
  });
});
