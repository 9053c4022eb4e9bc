import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { dec } from '../../src/core/decimal.js';
import type { HandlerContext } from '../../src/engine/strategy/api.js';
import { defineStrategy } from '../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { BusEvent } from '../../src/model/bus-events.js';
import type { Intent } from '../../src/model/intents.js';
import type { BacktestAccount } from '../../src/backtest/types.js';
import type { MarketEvent, PriceLevel } from '../../src/sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../src/sim/market-stream/format.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from '../../src/sim/market-stream/format.js';
import { MarketGenerator } from '../../src/sim/market-stream/generator.js';
import type { SimInstrument } from '../../src/sim/market-stream/instruments.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../src/sim/market-stream/instruments.js';
import { MarketStreamWriter } from '../../src/sim/market-stream/writer.js';

export const T0 = 1_767_225_600_000;
export const BTC = 'BTC-SWAP-USDT';
export const ACCOUNT: BacktestAccount = { userId: '879141111', futures: { USDT: '100000' } };

/** A temporary directory, removed by the returned function. */
export function tempDir(): { readonly dir: string; readonly path: (name: string) => string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-backtest-'));
  return { dir, path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function header(instruments: readonly SimInstrument[] = [BTC_SWAP_USDT], startTime = T0): MarketStreamHeader {
  return {
    format: MARKET_STREAM_FORMAT,
    version: MARKET_STREAM_VERSION,
    symbols: instruments.map((i) => i.symbol),
    channels: ['depth', 'trade', 'mark', 'index', 'funding'],
    instruments,
    startTime,
    source: 'recorder',
  };
}

/** Writes a recording of hand-made events. */
export async function writeRecording(path: string, events: readonly MarketEvent[], head: MarketStreamHeader = header()): Promise<string> {
  const writer = MarketStreamWriter.open(path, head, { flush: 'buffered' });
  for (const event of events) writer.write(event);
  await writer.close();
  return path;
}

/** Writes `minutes` of the seeded synthetic market (BTC and ETH by default). */
export async function writeGenerated(path: string, seed: number, minutes: number, instruments: readonly SimInstrument[] = [BTC_SWAP_USDT, ETH_SWAP_USDT]): Promise<string> {
  const generator = new MarketGenerator({ seed, startTime: T0, instruments, depthLevels: 20 });
  const writer = MarketStreamWriter.open(path, generator.header(), { flush: 'buffered' });
  for (const event of generator.eventsUntil(T0 + minutes * 60_000)) writer.write(event);
  await writer.close();
  return path;
}

// ---------------------------------------------------------------- hand-made market events

let tradeIds = 0;
export const depth = (ts: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[], symbol = BTC): MarketEvent => ({ type: 'depth', ts, symbol, bids, asks });
/** A public trade; `takerSide` SELL prints through resting bids (the buyer was the maker). */
export const trade = (ts: number, price: string, qty: string, takerSide: 'BUY' | 'SELL', symbol = BTC): MarketEvent => ({
  type: 'trade',
  ts,
  symbol,
  id: String(++tradeIds),
  price,
  qty,
  buyerIsMaker: takerSide === 'SELL',
});
export const mark = (ts: number, price: string, symbol = BTC): MarketEvent => ({ type: 'mark', ts, symbol, price });

/** bids 99999.9 (5), 99999.8 (10); asks 100000.0 (2), 100000.1 (3), 100000.5 (50); a trade and the mark at 100000. */
export function standardMarket(ts = T0): MarketEvent[] {
  return [
    depth(
      ts,
      [
        ['99999.9', '5'],
        ['99999.8', '10'],
      ],
      [
        ['100000', '2'],
        ['100000.1', '3'],
        ['100000.5', '50'],
      ],
    ),
    trade(ts, '100000', '0.1', 'BUY'),
    mark(ts, '100000'),
  ];
}

// ---------------------------------------------------------------- test strategies

export interface Seen {
  /** Virtual time when the strategy received it. */
  readonly at: number;
  readonly event: BusEvent;
}

export interface Scripted {
  readonly instance: StrategyInstance;
  readonly seen: Seen[];
  /** Intents emitted with the virtual time of emission. */
  readonly emitted: Array<{ readonly at: number; readonly intent: Intent }>;
}

/**
 * A handler strategy driven by `react`: called for every event with the context and the event; what it
 * returns is emitted then. Records what it saw and when.
 */
export function scripted(id: string, react: (ctx: HandlerContext<unknown>, event: BusEvent, seen: readonly Seen[]) => readonly Intent[] = () => [], symbols: readonly string[] = [BTC]): Scripted {
  const seen: Seen[] = [];
  const emitted: Array<{ at: number; intent: Intent }> = [];
  const definition = defineStrategy({
    name: `test-${id}`,
    description: 'scripted backtest strategy',
    params: z.unknown(),
    create: (ctx) => ({
      onEvent: (event) => {
        seen.push({ at: ctx.clock.now(), event });
        for (const intent of react(ctx, event, seen)) {
          emitted.push({ at: ctx.clock.now(), intent });
          ctx.emit(intent);
        }
      },
    }),
  });
  return { instance: { id, symbols, definition, params: {}, limits: {} }, seen, emitted };
}

/** Acts once, on the first event of `type` at or after `time`. */
export function once(time: number, intent: Intent, type: BusEvent['type'] = 'market.book'): (ctx: HandlerContext<unknown>, event: BusEvent) => readonly Intent[] {
  let done = false;
  return (ctx, event) => {
    if (done || event.type !== type || ctx.clock.now() < time) return [];
    done = true;
    return [intent];
  };
}

export function limitBuy(price: string, quantity = '1', symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'BUY', orderType: 'LIMIT', price: dec(price), quantity: dec(quantity) };
}

export function marketBuy(quantity = '1', symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'BUY', orderType: 'MARKET', quantity: dec(quantity) };
}
