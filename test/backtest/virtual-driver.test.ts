import { VirtualDriver } from '../../src/backtest/virtual-driver.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { ParsedRecording } from '../../src/recording/parsed-recording.js';
import type { RecordingFeed } from '../../src/recording/feed.js';
import { standardMarket, T0, tempDir, writeRecording } from './backtest-support.js';

const tmp = tempDir();
let files = 0;
afterAll(() => tmp.remove());

/** A driver over a recording of the standard market at T0 + 1000, nothing asynchronous pending but what actions start. */
async function setUp(quietActions?: () => number): Promise<{ clock: VirtualClock; driver: VirtualDriver; feed: RecordingFeed }> {
  const path = await writeRecording(tmp.path(`market-${++files}.jsonl`), standardMarket(T0 + 1000));
  const feed = (await ParsedRecording.parse([path])).replay();
  const clock = new VirtualClock(T0);
  const engine = {
    advanceTo: (time: number): void => {
      for (let next = feed.peekTime(); next !== undefined && next <= time; next = feed.peekTime()) feed.next();
    },
  };
  const driver = new VirtualDriver({ clock, engine, feed, work: { mustYield: () => false, ...(quietActions === undefined ? {} : { quietActions }) }, instantReplies: false });
  return { clock, driver, feed };
}

describe('VirtualDriver.stepNow: instants with actions due', () => {
  it('moves through an instant whose due actions were all counted quiet, without a turn of the event loop', async () => {
    let quiet = 0;
    const { clock, driver } = await setUp(() => quiet);
    clock.schedule(() => {
      quiet++;
    }, 500);
    expect(driver.stepNow(() => Number.POSITIVE_INFINITY)).toBe('done');
    expect(clock.now()).toBe(T0 + 500);
  });

  it('answers waiting when an action not counted quiet ran, and finishInstant runs its continuation at that instant', async () => {
    const { clock, driver } = await setUp(() => 0);
    const continued: number[] = [];
    clock.schedule(() => {
      void Promise.resolve().then(() => continued.push(clock.now()));
    }, 500);
    expect(driver.stepNow(() => Number.POSITIVE_INFINITY)).toBe('waiting');
    await driver.finishInstant();
    expect(continued).toEqual([T0 + 500]);
    // The next instant is the market's: no action is due.
    expect(driver.stepNow(() => Number.POSITIVE_INFINITY)).toBe('done');
    expect(clock.now()).toBe(T0 + 1000);
  });

  it('finishInstant lets whole chains of reactions finish at the instant, those started by reactions too', async () => {
    const { clock, driver } = await setUp(() => 0);
    const finished: string[] = [];
    const chain = async (name: string, hops: number, then?: () => void): Promise<void> => {
      for (let hop = 0; hop < hops; hop++) {
        await Promise.resolve();
        if (hop === Math.floor(hops / 2)) then?.();
      }
      finished.push(`${name}@${clock.now()}`);
    };
    clock.schedule(() => {
      void chain('long', 40, () => void chain('started by a reaction', 30));
      void chain('short', 3);
    }, 500);
    expect(driver.stepNow(() => Number.POSITIVE_INFINITY)).toBe('waiting');
    await driver.finishInstant();
    expect(finished.sort()).toEqual([`long@${T0 + 500}`, `short@${T0 + 500}`, `started by a reaction@${T0 + 500}`]);
  });

  it('leaves every instant with an action due to step when no quiet actions are counted', async () => {
    const { clock, driver, feed } = await setUp();
    clock.schedule(() => undefined, 500);
    expect(driver.stepNow(() => Number.POSITIVE_INFINITY)).toBe('none');
    expect(clock.now()).toBe(T0);
    expect(await driver.step(() => Number.POSITIVE_INFINITY)).toBe(true);
    expect(clock.now()).toBe(T0 + 500);
    expect(feed.peekTime()).toBe(T0 + 1000);
  });
});
