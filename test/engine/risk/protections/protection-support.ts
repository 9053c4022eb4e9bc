import { dec } from '../../../../src/core/decimal.js';
import type { HandlerContext } from '../../../../src/engine/strategy/api.js';
import type { BusEvent } from '../../../../src/model/bus-events.js';
import type { Intent } from '../../../../src/model/intents.js';
import type { ProtectionChanged } from '../../../../src/model/kernel-events.js';
import type { MarketEvent } from '../../../../src/sim/market-stream/events.js';
import type { Seen } from '../../../backtest/backtest-support.js';
import { BTC, depth, mark, trade } from '../../../backtest/backtest-support.js';

/** A book around `price` (deep on both sides), its mark and a trade at it. */
export function market(ts: number, price: number): MarketEvent[] {
  const p = (x: number): string => x.toFixed(1);
  return [
    depth(
      ts,
      [
        [p(price - 0.1), '500'],
        [p(price - 0.2), '500'],
      ],
      [
        [p(price), '500'],
        [p(price + 0.1), '500'],
      ],
    ),
    trade(ts, p(price), '0.1', 'BUY'),
    mark(ts, p(price)),
  ];
}

export const buy = (quantity: string): Intent => ({ type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(quantity) });
export const sell = (quantity: string): Intent => ({ type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', quantity: dec(quantity), reduceOnly: true });
export const restingBuy = (price: string, key: string): Intent => ({ type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec(price), quantity: dec('1') });

/** Emits each intent once, on the first book at or after its time. */
export function plan(steps: ReadonlyArray<readonly [number, Intent]>): (ctx: HandlerContext<unknown>, event: BusEvent) => readonly Intent[] {
  const done = new Set<number>();
  return (ctx, event) => {
    if (event.type !== 'market.book') return [];
    const due: Intent[] = [];
    steps.forEach(([at, intent], i) => {
      if (!done.has(i) && ctx.clock.now() >= at) {
        done.add(i);
        due.push(intent);
      }
    });
    return due;
  };
}

/** Denial codes the strategy saw, with the virtual time. */
export function denials(seen: readonly Seen[]): Array<readonly [number, string]> {
  return seen.flatMap((s) => (s.event.type === 'intent.denied' ? [[s.at, s.event.denial.code] as const] : []));
}

export function protectionEvents(seen: readonly Seen[]): ProtectionChanged[] {
  return seen.flatMap((s) => (s.event.type === 'risk.protection' ? [s.event] : []));
}
