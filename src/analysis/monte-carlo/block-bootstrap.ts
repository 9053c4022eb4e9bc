import { InvariantError } from '../../core/errors.js';
import type { MarketEvent } from '../../sim/market-stream/events.js';
import type { Prng } from '../../sim/market-stream/prng.js';
import { ParsedRecording } from '../../recording/parsed-recording.js';
import { ReferencePrices } from './reference-prices.js';
import type { SymbolGrids } from './scaled-event.js';
import { gridsOf, scaledEvent } from './scaled-event.js';

/** How synthetic paths are cut from the recording. */
export interface BlockOptions {
  /** Length of one block of the recording's time, ms. */
  readonly blockMs: number;
  /** Blocks may start at any multiple of this after the recording's first event (moving blocks), ms. */
  readonly strideMs: number;
}

/**
 * The recording read once, ready to be re-assembled into synthetic recordings (moving-block bootstrap
 * of its market returns). A synthetic recording spans the same time as the original, in consecutive
 * slots of `blockMs`; each slot holds a block of the original's events drawn at random (its start
 * any multiple of `strideMs` from which a whole block fits), re-timed into the slot. Each symbol's
 * prices in a block are multiplied by one factor so that the block starts where the synthetic path
 * stood at the end of the slot before: the path's returns are the drawn blocks' returns, one after the
 * other, and it starts at the recording's opening price. All symbols take the same blocks, so their
 * co-movement is kept. Funding events are not drawn: the recorded funding series stays at its own times.
 */
export class BlockBootstrap {
  private readonly first: number;
  private readonly last: number;
  private readonly times: Float64Array;
  private readonly starts: number;
  private readonly prices: ReferencePrices;
  private readonly grids: ReadonlyMap<string, SymbolGrids>;
  private readonly funding: ReadonlyArray<{ readonly event: MarketEvent; readonly source: number }>;

  private constructor(
    private readonly base: ParsedRecording,
    private readonly events: readonly MarketEvent[],
    private readonly sourceOf: Uint32Array,
    private readonly options: BlockOptions,
  ) {
    this.first = events[0]!.ts;
    this.last = events.at(-1)!.ts;
    this.times = Float64Array.from(events, (e) => e.ts);
    this.starts = Math.floor((this.last + 1 - this.first - options.blockMs) / options.strideMs) + 1;
    this.prices = ReferencePrices.of(events);
    this.grids = gridsOf(base.instruments);
    this.funding = events.flatMap((event, i) => (event.type === 'funding' ? [{ event, source: sourceOf[i]! }] : []));
  }

  /** The bootstrap of `base`, or why it cannot be cut into blocks. */
  static of(base: ParsedRecording, options: BlockOptions): BlockBootstrap | string {
    const parts = base.parts();
    const first = parts.events[0]?.ts;
    const last = parts.events.at(-1)?.ts;
    if (first === undefined || last === undefined) return 'the recording holds no events to bootstrap';
    if (!(options.blockMs > 0) || !(options.strideMs > 0)) return 'the block length and stride must be positive';
    const span = last + 1 - first;
    if (options.blockMs > span) return `a block of ${options.blockMs} ms is longer than the recording (${span} ms): choose a shorter block`;
    return new BlockBootstrap(base, parts.events, parts.sourceOf, options);
  }

  /** Slots of a synthetic recording, and the block starts each can draw from. */
  get shape(): { readonly slots: number; readonly starts: number } {
    return { slots: Math.ceil((this.last + 1 - this.first) / this.options.blockMs), starts: this.starts };
  }

  /** One synthetic recording, drawn with `prng` (the scenario's own stream). */
  synthetic(prng: Prng): ParsedRecording {
    const { blockMs, strideMs } = this.options;
    const { slots } = this.shape;
    const levels = new Map<string, number>();
    for (const symbol of this.prices.symbols) levels.set(symbol, this.prices.at(symbol, this.first)!);
    const drawn: MarketEvent[] = [];
    const drawnSource: number[] = [];
    for (let slot = 0; slot < slots; slot++) {
      const start = this.first + prng.int(0, this.starts - 1) * strideMs;
      const slotStart = this.first + slot * blockMs;
      const factors = new Map<string, number>();
      for (const symbol of this.prices.symbols) {
        const level = levels.get(symbol)!;
        const from = this.prices.at(symbol, start)!;
        factors.set(symbol, level / from);
        levels.set(symbol, level * (this.prices.at(symbol, start + blockMs - 1)! / from));
      }
      for (let i = this.lowerBound(start); i < this.events.length && this.times[i]! < start + blockMs; i++) {
        const event = this.events[i]!;
        const ts = slotStart + (event.ts - start);
        if (ts > this.last) break;
        if (event.type === 'funding') continue;
        drawn.push(scaledEvent(event, ts, factors.get(event.symbol) ?? 1, this.grids.get(event.symbol)));
        drawnSource.push(this.sourceOf[i]!);
      }
    }
    const { events, sourceOf } = this.withFunding(drawn, drawnSource);
    const parts = this.base.parts();
    return ParsedRecording.fromParts({ headers: parts.headers, events, sourceOf: Uint32Array.from(sourceOf), warnings: [], to: parts.to });
  }

  /** The drawn events and the recorded funding events merged in time order (funding first on a tie). */
  private withFunding(drawn: readonly MarketEvent[], drawnSource: readonly number[]): { events: MarketEvent[]; sourceOf: number[] } {
    const events: MarketEvent[] = [];
    const sourceOf: number[] = [];
    let f = 0;
    for (let d = 0; d < drawn.length; d++) {
      const event = drawn[d]!;
      while (f < this.funding.length && this.funding[f]!.event.ts <= event.ts) {
        events.push(this.funding[f]!.event);
        sourceOf.push(this.funding[f++]!.source);
      }
      events.push(event);
      sourceOf.push(drawnSource[d]!);
    }
    for (; f < this.funding.length; f++) {
      events.push(this.funding[f]!.event);
      sourceOf.push(this.funding[f]!.source);
    }
    for (let i = 1; i < events.length; i++) if (events[i]!.ts < events[i - 1]!.ts) throw new InvariantError('BOOTSTRAP_ORDER', 'a synthetic recording went back in time');
    return { events, sourceOf };
  }

  /** Index of the first event at or after `time`. */
  private lowerBound(time: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.times[mid]! < time) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
