import { join } from 'node:path';
import { Subject } from 'rxjs';
import type { BusEvent } from '../../../src/model/bus-events.js';
import { BTC, T0, VirtualClock, mark, openRecorder, tempDir, trade } from '../recorder-fixtures.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

test('the recorder counts the gaps, duplicates and late events of what it writes (stats().quality, read by the metric)', async () => {
  const clock = new VirtualClock(T0);
  const recorder = openRecorder(clock, { out: join(tmp.dir, 'rec.jsonl'), reorderMs: 0 });
  const bus = new Subject<BusEvent>();
  recorder.attach(bus);
  // The mark every second, silent from 20 s to 50 s: 30 times its cadence.
  for (let s = 0; s <= 60; s++) if (s <= 20 || s >= 50) bus.next(mark(BTC, T0 + s * 1000, '100000'));
  bus.next(trade(BTC, T0 + 60_000, '77', '100000', '1', 'BUY'));
  bus.next(trade(BTC, T0 + 60_000, '77', '100000', '1', 'BUY'));
  await recorder.flush();
  expect(recorder.stats().quality).toEqual({ gap: 1, duplicate: 1, 'out-of-order': 0, 'frozen-book': 0 });
  // Older than what was written already: written at the newest time, and counted.
  bus.next(mark(BTC, T0 + 10_000, '100001'));
  const summary = await recorder.stop();
  expect(summary.late).toBe(1);
  expect(summary.quality).toEqual({ gap: 1, duplicate: 1, 'out-of-order': 1, 'frozen-book': 0 });
});
