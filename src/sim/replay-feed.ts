import type { MarketEvent } from './market-stream/events.js';
import { eventAt } from './market-stream/events.js';
import type { SimInstrument } from './market-stream/instruments.js';
import { MarketStreamReader } from './market-stream/reader.js';
import type { MarketFeed } from './engine/sim-exchange.js';

/**
 * A recorded market stream as a feed, shifted in time so that its first event happens at `startTime`
 * (paper trading replays yesterday's market as if it were now). Loaded whole: recordings served by the
 * simulator are hours, not months.
 */
export class ReplayFeed implements MarketFeed {
  private cursor = 0;

  private constructor(
    private readonly events: readonly MarketEvent[],
    private readonly shift: number,
    readonly instruments: readonly SimInstrument[],
  ) {}

  static async load(path: string, startTime: number): Promise<ReplayFeed> {
    const reader = await MarketStreamReader.open(path);
    const events: MarketEvent[] = [];
    for await (const event of reader) events.push(event);
    const first = events[0]?.ts ?? reader.header.startTime;
    return new ReplayFeed(events, startTime - first, reader.header.instruments);
  }

  peekTime(): number | undefined {
    const next = this.events[this.cursor];
    return next === undefined ? undefined : next.ts + this.shift;
  }

  next(): MarketEvent {
    const event = this.events[this.cursor++];
    if (event === undefined) throw new RangeError('replay feed exhausted');
    if (this.shift === 0) return event;
    return event.type === 'funding' ? { ...event, ts: event.ts + this.shift, nextFundingTime: event.nextFundingTime + this.shift } : eventAt(event, event.ts + this.shift);
  }
}
