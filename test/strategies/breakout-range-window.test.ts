import { dec } from '../../src/core/decimal.js';
import type { Decimal } from '../../src/core/decimal.js';
import { RangeWindow } from '../../strategies/breakout/range-window.js';

/** The breakout's window kept by monotonic queues answers what a scan of the window's mids answers. */

/** A deterministic walk of mid prices (a linear congruential sequence: no Math.random in tests). */
function walk(n: number, seed: number): Array<{ time: number; mid: Decimal }> {
  let state = seed;
  let price = 4_000_00;
  let time = 0;
  const out: Array<{ time: number; mid: Decimal }> = [];
  for (let i = 0; i < n; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // Steps of -2..+2 ticks, repeats included (ties between the high or the low and later prices).
    price += (state % 5) - 2;
    // 0 to 3 s apart, several at the same time now and then.
    time += Math.floor(state / 5) % 4 === 0 ? 0 : (Math.floor(state / 7) % 3000) + 1;
    out.push({ time, mid: dec(price).div(100) });
  }
  return out;
}

function scan(window: ReadonlyArray<{ mid: Decimal }>): { high: Decimal | undefined; low: Decimal | undefined } {
  let high: Decimal | undefined;
  let low: Decimal | undefined;
  for (const p of window) {
    if (high === undefined || p.mid.gt(high)) high = p.mid;
    if (low === undefined || p.mid.lt(low)) low = p.mid;
  }
  return { high, low };
}

test.each([1, 7, 2026])('high, low and first time equal a scan of the last windowMs over 3,000 mids (seed %i)', (seed) => {
  const windowMs = 20_000;
  const range = new RangeWindow();
  const reference: Array<{ time: number; mid: Decimal }> = [];
  let checked = 0;
  for (const { time, mid } of walk(3_000, seed)) {
    range.expire(time - windowMs);
    while (reference.length > 0 && reference[0]!.time < time - windowMs) reference.shift();
    const expected = scan(reference);
    expect(range.firstTime).toBe(reference[0]?.time);
    expect(range.high?.toFixed()).toBe(expected.high?.toFixed());
    expect(range.low?.toFixed()).toBe(expected.low?.toFixed());
    if (reference.length > 1) checked++;
    range.push(time, mid);
    reference.push({ time, mid });
  }
  // The walk keeps several mids in the window most of the time: the comparison is not of empty windows.
  expect(checked).toBeGreaterThan(2_500);
});

test('an empty window answers nothing, and a window emptied by time again', () => {
  const range = new RangeWindow();
  expect([range.firstTime, range.high, range.low]).toEqual([undefined, undefined, undefined]);
  range.push(1_000, dec('10'));
  range.push(2_000, dec('12'));
  expect([range.firstTime, range.high?.toFixed(), range.low?.toFixed()]).toEqual([1_000, '12', '10']);
  range.expire(1_500);
  expect([range.firstTime, range.high?.toFixed(), range.low?.toFixed()]).toEqual([2_000, '12', '12']);
  range.expire(2_001);
  expect([range.firstTime, range.high, range.low]).toEqual([undefined, undefined, undefined]);
});
