import type { MarketEvent } from '../src/sim/market-stream/events.js';
import { MarketStreamReader } from '../src/sim/market-stream/reader.js';
import { MarketStreamWriter } from '../src/sim/market-stream/writer.js';

const HOUR_MS = 3_600_000;

/**
 * Writes to `target` a recording of `copies` copies of `source`'s events, one after another: copy k's
 * times (and funding events' next funding times) shifted by k × the source's span rounded up to whole
 * hours, and numeric trade ids prefixed with k so they stay distinct. For a replay long enough that its
 * steady rate, not its set-up, is measured. Returns the number of events written.
 */
export async function writeRepeatedRecording(source: string, target: string, copies: number): Promise<number> {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be a positive integer, got ${copies}`);
  const reader = await MarketStreamReader.open(source);
  const header = reader.header;
  const events: MarketEvent[] = [];
  for await (const event of reader) events.push(event);
  const last = events.at(-1)?.ts ?? header.startTime;
  const shift = Math.ceil((last - header.startTime + 1) / HOUR_MS) * HOUR_MS;
  const writer = MarketStreamWriter.open(target, header, { flush: 'buffered' });
  for (let copy = 0; copy < copies; copy++) {
    const by = copy * shift;
    for (const event of events) {
      if (!writer.write(shifted(event, by, copy))) await writer.drain();
    }
  }
  await writer.close();
  return events.length * copies;
}

function shifted(event: MarketEvent, by: number, copy: number): MarketEvent {
  if (copy === 0) return event;
  const ts = event.ts + by;
  switch (event.type) {
    case 'trade':
      return { ...event, ts, id: /^\d+$/.test(event.id) ? `${copy}${event.id.padStart(12, '0')}` : event.id };
    case 'funding':
      return { ...event, ts, nextFundingTime: event.nextFundingTime + by };
    default:
      return { ...event, ts };
  }
}
