import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import { defineStrategy } from '../../../src/engine/strategy/api.js';
import type { StrategyDefinition } from '../../../src/engine/strategy/api.js';
import { Indicators } from '../../../src/engine/strategy/api-indicators.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { KlineUpdated } from '../../../src/model/market-events.js';
import { BTC } from '../backtest-support.js';

const MIN = 60_000;

/**
 * A strategy that buys when the next 1m kline closes higher than this one, and keeps an SMA(3) of the
 * closes. `leaky`: it remembers klines in memory shared by every run in the process (as module-level
 * state is shared by a sweep's runs), so from its second run on it reads the next kline before that
 * kline exists (`peek` says whether it trades on it or feeds it to its indicator). Not leaky: the
 * memory is its run's own, the next kline is never known, and it is honest.
 */
export function peekingStrategy(id: string, options: PeekingOptions): StrategyInstance {
  return { id, symbols: [BTC], definition: peekingDefinition(options), params: {}, limits: {} };
}

export interface PeekingOptions {
  readonly leaky: boolean;
  readonly peek: 'intent' | 'indicator';
}

/** The definition of such a strategy (its shared memory is this definition's). */
export function peekingDefinition(options: PeekingOptions): StrategyDefinition {
  const shared = new Map<number, KlineUpdated>();
  return defineStrategy({
    name: 'peeking',
    description: 'test strategy that reads the next kline through a leak',
    params: z.unknown(),
    create: (ctx) => {
      const memory = options.leaky ? shared : new Map<number, KlineUpdated>();
      const indicators = new Indicators(ctx);
      indicators.sma({ symbol: BTC, interval: '1m', period: 3 });
      return {
        onEvent: (event) => {
          if (event.type !== 'market.kline' || !event.closed) return;
          memory.set(event.openTime, event);
          const next = memory.get(event.openTime + MIN);
          if (options.peek === 'indicator') {
            indicators.onEvent(next ?? event);
            return;
          }
          indicators.onEvent(event);
          if (next !== undefined && next.close.gt(event.close)) {
            ctx.emit({ type: 'place', key: `peek-${event.openTime}`, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: event.close.mul(dec('0.9')).toDecimalPlaces(1), quantity: dec(1), timeInForce: 'GTC' });
          }
        },
      };
    },
  });
}
