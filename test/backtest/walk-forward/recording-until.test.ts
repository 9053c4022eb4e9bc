import { appendFileSync } from 'node:fs';
import { ParsedRecording } from '../../../src/recording/parsed-recording.js';
import { PreparedRecording } from '../../../src/recording/prepared/index.js';
import type { RecordingFeed, RecordingReplay } from '../../../src/recording/feed.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { eventAt } from '../../../src/sim/market-stream/events.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import { depth, header, mark, T0, tempDir, trade, writeRecording } from '../backtest-support.js';

/** `until(to)` — a walk-forward window's cut of a recording held in memory — is what reading it with that `to` gives. */
const tmp = tempDir();
afterAll(() => tmp.remove());
const ETH = 'ETH-SWAP-USDT';

async function drain(feed: RecordingFeed): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  await feed.load(Number.POSITIVE_INFINITY);
  // Each event's fields read by name (a prepared depth event's sides are accessors): the plain event.
  while (feed.peekTime() !== undefined) {
    const event = feed.next();
    events.push(eventAt(event, event.ts));
  }
  return events;
}

async function expectSame(actual: RecordingReplay, expected: RecordingReplay): Promise<void> {
  expect(actual.to).toBe(expected.to);
  expect(actual.size).toBe(expected.size);
  expect(actual.lastTime).toBe(expected.lastTime);
  expect(actual.warnings).toEqual(expected.warnings);
  const a = actual.replay();
  const e = expected.replay();
  expect(await drain(a)).toEqual(await drain(e));
  expect(a.counts()).toEqual(e.counts());
}

test('a parsed or prepared recording cut at a time equals the recording read up to it, torn last line reported only when nothing of its file is cut', async () => {
  const btc = await writeRecording(
    tmp.path('btc.jsonl'),
    [depth(T0, [['99999.9', '5']], [['100000', '2']]), mark(T0 + 1, '100000'), trade(T0 + 2, '100000.1', '3', 'BUY'), mark(T0 + 3, '100001')],
    header([BTC_SWAP_USDT]),
  );
  const eth = await writeRecording(tmp.path('eth.jsonl'), [depth(T0 + 1, [['4400.01', '7']], [['4400.02', '9']], ETH), mark(T0 + 5, '4400', ETH)], header([ETH_SWAP_USDT]));
  appendFileSync(btc, '{"e":"mark","t":');
  const paths = [btc, eth];
  const whole = await ParsedRecording.parse(paths);
  const prepared = await PreparedRecording.load(paths, undefined, {});
  expect(whole.warnings).toHaveLength(1);
  for (const to of [T0 + 2, T0 + 3, T0 + 4, T0 + 9]) {
    const read = await ParsedRecording.parse(paths, { to });
    await expectSame(whole.until(to), read);
    await expectSame(prepared.until(to), read);
  }
  expect(whole.until(T0 + 2).warnings).toEqual([]);
  expect(whole.until(T0 + 3).warnings).toHaveLength(1);
  expect(() => whole.until(T0 + 2).until(T0 + 3)).toThrow('cannot replay it up to');
});
