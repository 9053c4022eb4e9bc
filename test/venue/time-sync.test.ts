import { err, ok } from '../../src/core/result.js';
import { VenueError } from '../../src/venue/venue-error.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { TimeSync } from '../../src/venue/time-sync.js';

describe('time sync', () => {
  it('takes the median offset of several samples, ignoring an outlier', async () => {
    const clock = new VirtualClock(1_000_000);
    const replies = [2_000, 2_010, 90_000, 1_990, 2_005].map((offset) => offset);
    let i = 0;
    const sync = new TimeSync(clock, clock, async () => ok(clock.now() + (replies[i++] ?? 0)), { samples: 5, refreshMs: 60_000 });
    const result = await sync.sync();
    expect(result).toEqual({ ok: true, value: 2005 });
    expect(sync.serverNow()).toBe(1_002_005);
    expect(sync.serverToLocal(1_002_005)).toBe(1_000_000);
  });

  it('accounts for the round trip: offset is measured against the midpoint', async () => {
    const clock = new VirtualClock(0);
    const sync = new TimeSync(
      clock,
      clock,
      async () => {
        const server = clock.now() + 50 + 1000; // server stamps its time half-way through a 100 ms trip
        clock.advanceBy(100);
        return ok(server);
      },
      { samples: 3, refreshMs: 60_000 },
    );
    expect(await sync.sync()).toEqual({ ok: true, value: 1000 });
  });

  it('refreshes periodically on the scheduler and keeps the last offset when a probe fails', async () => {
    const clock = new VirtualClock(0);
    let offset = 100;
    let calls = 0;
    const sync = new TimeSync(
      clock,
      clock,
      async () => {
        calls++;
        return offset < 0 ? err(new VenueError({ kind: 'unknown-status', endpoint: 'GET /api/v1/time', message: 'down' })) : ok(clock.now() + offset);
      },
      { samples: 1, refreshMs: 1000 },
    );
    await sync.sync();
    expect(sync.offset).toBe(100);
    sync.start();
    offset = 300;
    clock.advanceBy(1000);
    await new Promise((r) => setImmediate(r));
    expect(sync.offset).toBe(300);
    offset = -1;
    clock.advanceBy(1000);
    await new Promise((r) => setImmediate(r));
    expect(sync.offset).toBe(300);
    expect(calls).toBe(3);
    sync.stop();
    clock.advanceBy(5000);
    expect(calls).toBe(3);
  });

  it('a step of the local wall clock moves neither the server-time estimate nor its anchor; the offset shows the step', async () => {
    // The steady clock runs on; the wall clock jumps as NTP or a resumed VM would make it.
    const stopwatch = new VirtualClock(50_000);
    let step = 0;
    const wall = { now: (): number => 1_000_000 + stopwatch.now() + step };
    const server = (): number => 1_000_000 + stopwatch.now() + 1_500;
    const sync = new TimeSync(wall, stopwatch, async () => ok(server()), { samples: 3, refreshMs: 60_000 }, stopwatch);
    expect(await sync.sync()).toEqual({ ok: true, value: 1_500 });
    const anchor = sync.anchor;
    stopwatch.advanceBy(1_000);
    expect(sync.serverNow()).toBe(server());
    step = 4_000;
    expect(sync.serverNow()).toBe(server());
    expect(sync.anchor).toBe(anchor);
    expect(sync.offset).toBe(1_500 - 4_000);
    expect(sync.serverToLocal(server())).toBe(wall.now());
  });
});
