import { createTask, parse } from 'node-cron';
import { CronJobs, nextCronSlot } from '../../src/app/daemon/cron-scheduler.js';
import type { JobOutcome } from '../../src/app/daemon/cron-scheduler.js';
import { InvariantError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';

/** A promise with its resolve function, to hold a job open until the test lets it finish. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function waitFor(done: () => boolean, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('CronJobs on real time (node-cron, every second)', () => {
  it('runs every second, keeps going after a failure, and never overlaps a slow job', async () => {
    const jobs = new CronJobs({ logger: silentLogger });
    let tickRuns = 0;
    let slowActive = 0;
    let slowMaxActive = 0;
    jobs.register({
      name: 'tick',
      cron: '* * * * * *',
      run: async () => {
        tickRuns += 1;
        if (tickRuns === 1) throw new Error('boom');
      },
    });
    jobs.register({
      name: 'slow',
      cron: '* * * * * *',
      run: async () => {
        slowActive += 1;
        slowMaxActive = Math.max(slowMaxActive, slowActive);
        await new Promise((resolve) => setTimeout(resolve, 1600));
        slowActive -= 1;
      },
    });
    jobs.start();
    try {
      await waitFor(() => (jobs.stats()['tick']?.runs ?? 0) >= 2 && (jobs.stats()['slow']?.skipped ?? 0) >= 1, 10_000);
    } finally {
      await jobs.stop();
    }
    const stats = jobs.stats();
    expect(stats['tick']).toMatchObject({ failures: 1, lastError: 'boom', running: false });
    expect(stats['tick']?.runs).toBeGreaterThanOrEqual(2);
    expect(slowMaxActive).toBe(1);
    expect(stats['slow']).toMatchObject({ failures: 0, running: false });
    expect(slowActive).toBe(0);
  });
});

describe('CronJobs.runNow', () => {
  it('runs a job on demand; a second call while it runs is skipped and counted; outcomes are reported', async () => {
    const outcomes: JobOutcome[] = [];
    const jobs = new CronJobs({ logger: silentLogger, clock: { now: () => 42 }, onOutcome: (o) => outcomes.push(o) });
    const hold = gate();
    let runs = 0;
    jobs.register({
      name: 'sync',
      cron: '0 0 1 1 *',
      run: async () => {
        runs += 1;
        await hold.promise;
      },
    });
    const first = jobs.runNow('sync');
    expect(jobs.stats()['sync']?.running).toBe(true);
    expect(await jobs.runNow('sync')).toEqual({ job: 'sync', status: 'skipped', trigger: 'manual', at: 42 });
    hold.open();
    expect(await first).toEqual({ job: 'sync', status: 'ok', trigger: 'manual', at: 42 });
    expect(runs).toBe(1);
    expect(jobs.stats()['sync']).toEqual({ runs: 1, failures: 0, skipped: 1, running: false, lastFinishedAt: 42 });
    expect(outcomes.map((o) => o.status)).toEqual(['skipped', 'ok']);
    await jobs.stop();
  });

  it('a failing job is reported, never thrown, and runs again next time', async () => {
    const jobs = new CronJobs({ logger: silentLogger });
    let calls = 0;
    jobs.register({
      name: 'flaky',
      cron: '*/5 * * * *',
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('exchange unreachable');
      },
    });
    expect(await jobs.runNow('flaky')).toMatchObject({ status: 'failed', error: 'exchange unreachable' });
    expect(await jobs.runNow('flaky')).toMatchObject({ status: 'ok' });
    expect(jobs.stats()['flaky']).toMatchObject({ runs: 2, failures: 1, lastError: 'exchange unreachable' });
    await jobs.stop();
  });

  it('stop() waits for the run in flight', async () => {
    const jobs = new CronJobs({ logger: silentLogger });
    const hold = gate();
    let finished = false;
    jobs.register({
      name: 'long',
      cron: '0 * * * *',
      run: async () => {
        await hold.promise;
        finished = true;
      },
    });
    void jobs.runNow('long');
    const stopped = jobs.stop();
    hold.open();
    await stopped;
    expect(finished).toBe(true);
  });

  it('refuses duplicate names, bad expressions and unknown jobs as bugs', async () => {
    const jobs = new CronJobs({ logger: silentLogger });
    jobs.register({ name: 'a', cron: '* * * * *', run: async () => undefined });
    expect(() => jobs.register({ name: 'a', cron: '* * * * *', run: async () => undefined })).toThrow(InvariantError);
    expect(() => jobs.register({ name: 'b', cron: '61 * * * *', run: async () => undefined })).toThrow(InvariantError);
    await expect(jobs.runNow('nope')).rejects.toThrow(InvariantError);
    await jobs.stop();
  });
});

describe('CronJobs on an injected scheduler (accelerated or virtual time)', () => {
  const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

  it('computes the next slot of an expression in UTC', () => {
    const slot = (cron: string, after: number): number | undefined => {
      const task = createTask(cron, () => undefined, { timezone: 'UTC' });
      try {
        return nextCronSlot(task, parse(cron), after);
      } finally {
        void task.destroy();
      }
    };
    expect(slot('*/30 * * * *', T0)).toBe(T0 + 30 * 60_000);
    expect(slot('*/30 * * * *', T0 - 1)).toBe(T0);
    expect(slot('0 0 * * *', T0 + 1)).toBe(T0 + 86_400_000);
    expect(slot('*/15 * * * * *', T0 + 20_000)).toBe(T0 + 30_000);
    expect(slot('0 12 * * 1', T0)).toBe(Date.UTC(2026, 0, 5, 12, 0, 0));
    expect(slot('0 0 29 2 *', T0)).toBe(Date.UTC(2028, 1, 29, 0, 0, 0));
  });

  it('fires each slot of the clock on the scheduler, one run at a time, and nothing after stop', async () => {
    const clock = new VirtualClock(T0);
    const outcomes: JobOutcome[] = [];
    const jobs = new CronJobs({ logger: silentLogger, clock, scheduler: clock, onOutcome: (o) => outcomes.push(o) });
    let keepalives = 0;
    jobs.register({ name: 'keepalive', cron: '*/30 * * * *', run: async () => void (keepalives += 1) });
    jobs.register({ name: 'daily', cron: '0 0 * * *', run: async () => undefined });
    jobs.start();
    // A step per half hour: each run settles (a microtask) before the next slot, as it would in real time.
    for (let i = 1; i <= 6; i++) {
      clock.advanceTo(T0 + i * 1_800_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(keepalives).toBe(6);
    expect(outcomes.filter((o) => o.job === 'keepalive').map((o) => o.at)).toEqual([1, 2, 3, 4, 5, 6].map((i) => T0 + i * 1_800_000));
    expect(jobs.stats()['daily']?.runs).toBe(0);
    clock.advanceTo(T0 + 86_400_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.stats()['daily']?.runs).toBe(1);
    await jobs.stop();
    clock.advanceTo(T0 + 2 * 86_400_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.stats()['daily']?.runs).toBe(1);
    expect(clock.pending()).toBe(0);
  });
});
