import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Recorder } from '../../src/recording/recorder/recorder.js';
import type { RecorderOptions, RecorderMarketView } from '../../src/recording/recorder/options.js';
import { hintsFromSimInstruments } from '../../src/recording/recorder/instruments.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import type { Instrument } from '../../src/model/instrument.js';
import type { MarketEvent as ModelMarketEvent } from '../../src/model/market-events.js';
import type { MarketEvent as StreamEvent } from '../../src/sim/market-stream/events.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../src/sim/market-stream/instruments.js';
import type { MarketStreamWarning } from '../../src/sim/market-stream/stream-error.js';
import { MarketStreamReader } from '../../src/sim/market-stream/reader.js';
import type { MarketStreamHeader } from '../../src/sim/market-stream/format.js';
import { instrumentOf } from '../../src/sim/port/instruments.js';

/** Shared by the recorder tests: a temp directory, model instruments and events, reading back. */

export const T0 = 1_767_225_600_000;
export const BTC = 'BTC-SWAP-USDT';
export const ETH = 'ETH-SWAP-USDT';
export const SIM_INSTRUMENTS = [BTC_SWAP_USDT, ETH_SWAP_USDT];
export const INSTRUMENTS: readonly Instrument[] = SIM_INSTRUMENTS.map(instrumentOf);

export function tempDir(): { readonly dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-recorder-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The kernel cache's part the recorder reads: instruments only (prices come from the recorded events). */
export function marketView(instruments: readonly Instrument[] = INSTRUMENTS): RecorderMarketView {
  const bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
  return { instrument: (s) => bySymbol.get(s), markPrice: () => undefined, midPrice: () => undefined, lastPrice: () => undefined };
}

export function openRecorder(clock: VirtualClock, options: Partial<RecorderOptions> & { readonly out: string }): Recorder {
  const opened = Recorder.open({
    symbols: [BTC, ETH],
    market: marketView(),
    hints: hintsFromSimInstruments(SIM_INSTRUMENTS),
    time: clock,
    logger: silentLogger,
    ...options,
  });
  if (!opened.ok) throw opened.error;
  return opened.value;
}

export function book(symbol: string, time: number, bids: ReadonlyArray<readonly [string, string]>, asks: ReadonlyArray<readonly [string, string]>): ModelMarketEvent {
  const levels = (side: ReadonlyArray<readonly [string, string]>) => side.map(([price, qty]) => ({ price: dec(price), qty: dec(qty) }));
  return { type: 'market.book', symbol, time, bids: levels(bids), asks: levels(asks) };
}

export function trade(symbol: string, time: number, tradeId: string, price: string, qty: string, takerSide: 'BUY' | 'SELL'): ModelMarketEvent {
  return { type: 'market.trade', symbol, time, tradeId, price: dec(price), qty: dec(qty), takerSide };
}

export function mark(symbol: string, time: number, price: string): ModelMarketEvent {
  return { type: 'market.markPrice', symbol, time, price: dec(price) };
}

export function index(symbol: string, time: number, price: string): ModelMarketEvent {
  return { type: 'market.indexPrice', symbol, time, price: dec(price) };
}

export function funding(symbol: string, time: number, rate: string, nextFundingTime: number): ModelMarketEvent {
  return { type: 'market.fundingRate', symbol, time, rate: dec(rate), nextFundingTime };
}

/** A steady market of `count` events a `stepMs` apart from `start`, cycling through depth, trade and mark of both symbols. */
export function steadyMarket(start: number, count: number, stepMs: number): ModelMarketEvent[] {
  const events: ModelMarketEvent[] = [];
  for (let i = 0; i < count; i++) {
    const time = start + i * stepMs;
    const symbol = i % 2 === 0 ? BTC : ETH;
    const base = symbol === BTC ? 111_000 : 4_400;
    const price = (base + (i % 17) / 10).toFixed(1);
    switch (i % 3) {
      case 0:
        events.push(book(symbol, time, [[price, String(10 + (i % 7))]], [[(Number(price) + 0.1).toFixed(1), '5']]));
        break;
      case 1:
        events.push(trade(symbol, time, `t${i}`, price, String(1 + (i % 4)), i % 2 === 0 ? 'BUY' : 'SELL'));
        break;
      default:
        events.push(mark(symbol, time, price));
    }
  }
  return events;
}

export interface ReadBack {
  readonly header: MarketStreamHeader;
  readonly events: StreamEvent[];
  readonly warnings: MarketStreamWarning[];
}

export async function readBack(path: string): Promise<ReadBack> {
  const warnings: MarketStreamWarning[] = [];
  const reader = await MarketStreamReader.open(path, { onWarning: (w) => warnings.push(w) });
  const events: StreamEvent[] = [];
  for await (const event of reader) events.push(event);
  return { header: reader.header, events, warnings };
}

/** Advances virtual time in steps, letting the recorder's flushes (file I/O promises) settle between them. */
export async function runFor(clock: VirtualClock, ms: number, stepMs = 500): Promise<void> {
  const end = clock.now() + ms;
  while (clock.now() < end) {
    clock.advanceTo(Math.min(end, clock.now() + stepMs));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export { VirtualClock };
