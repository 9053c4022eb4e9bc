import { dec } from '../src/core/decimal.js';
import { SimExchange } from '../src/sim/engine/sim-exchange.js';
import type { MarketEvent } from '../src/sim/market-stream/events.js';
import { MarketGenerator } from '../src/sim/market-stream/generator.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../src/sim/market-stream/instruments.js';
import { StepGrid } from '../src/sim/market-stream/ticks.js';
import type { BenchResult } from './bench-result.js';

const START = 1_767_225_600_000;

/** Market events per second through the engine's matching, with 100 resting orders on the book. */
export function benchEngineMatching(eventCount = 1_000_000): BenchResult {
  const instruments = [BTC_SWAP_USDT, ETH_SWAP_USDT];
  const generator = new MarketGenerator({ seed: 7, startTime: START, instruments });
  const events: MarketEvent[] = [];
  while (events.length < eventCount) events.push(generator.next());
  const ex = new SimExchange({ startTime: START, instruments, users: [{ userId: '1', email: 'bench@sim.local', balances: { FUTURES: { USDT: '100000000' } } }] });
  // Warm the market up so resting orders go in around real prices.
  let i = 0;
  for (; i < 5000; i++) {
    const e = events[i];
    if (e !== undefined) ex.applyMarketEvent(e);
  }
  const account = { userId: '1', category: 'USDT' } as const;
  let resting = 0;
  for (const instrument of instruments) {
    const grid = new StepGrid(instrument.tickSize);
    const last = grid.toUnits(ex.lastPrice(instrument.symbol) ?? instrument.initialPrice);
    for (let n = 1; n <= 50; n++) {
      const buy = n % 2 === 0;
      const offset = Math.round(last * 0.0004 * n);
      const price = grid.toText(buy ? last - offset : last + offset);
      const placed = ex.placeOrder(account, { symbol: instrument.symbol, side: buy ? 'BUY' : 'SELL', positionSide: buy ? 'LONG' : 'SHORT', type: 'LIMIT', price: dec(price), quantity: dec(instrument.minQuantity).mul(10), priceType: 'INPUT', timeInForce: 'GTC', clientOrderId: `b${instrument.symbol}${n}`, generation: 'v2' });
      if (placed.ok) resting++;
    }
  }
  const measured = events.length - i;
  const started = process.hrtime.bigint();
  for (; i < events.length; i++) {
    const e = events[i];
    if (e !== undefined) ex.applyMarketEvent(e);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const stillResting = ex.openOrders(account, { limit: 1000 }).length;
  return {
    name: 'engine: market events through matching',
    figures: { events: measured, restingAtStart: resting, restingAtEnd: stillResting, seconds: Number(seconds.toFixed(3)), eventsPerSecond: Math.round(measured / seconds) },
    target: 'eventsPerSecond >= 500000 on one core',
  };
}
