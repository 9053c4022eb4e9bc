import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun, timeScaleOf } from '../../../src/app/commands/run.js';
import { silentLogger } from '../../../src/core/logger.js';
import { ScaledTime } from '../../../src/core/scaled-time.js';
import { ConfigError } from '../../../src/settings/config-error.js';
import { defaultYaml, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import type { MetricSample } from './metrics-scrape.js';

/**
 * A few minutes of `stratd run --time-scale` (the soak's mode, `npm run soak` runs a whole day): the
 * shipped config against the embedded simulator on an accelerated clock, jobs included, sampled over
 * the health server as the soak does.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-accelerated-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('stratd run in accelerated time (paper)', () => {
  it('trades, runs its cron jobs on the accelerated clock and exposes the soak figures; stops cleanly', async () => {
    // The keepalive every minute of market time: at ×40 that is every 1.5 s of real time. (At ×100 the
    // daemon and this test, one process, fell behind on a loaded machine: the scrapes timed out.)
    const file = writeConfig(dir, 'paper.yml', defaultYaml(join(dir, 'state'), { from: 'listenKeyKeepalive: "*/30 * * * *"', to: 'listenKeyKeepalive: "* * * * *"' }));
    const prepared = await prepareRun({ config: file }, {});
    if (!prepared.ok) throw prepared.error;
    const time = new ScaledTime(40);
    const started = await Daemon.start({ ...prepared.value, time, logger: silentLogger, env: {}, hangup: null, jobsOnTimeSource: true });
    if (!started.ok) throw started.error;
    const daemon = started.value;
    const jobFailures: string[] = [];
    daemon.kernel.events$.subscribe((event) => {
      if (event.type === 'job.finished' && !event.ok) jobFailures.push(`${event.job} at +${event.time - time.startMs} ms: ${event.detail}`);
    });
    try {
      // Over 7 min of market the strategies trade, the keepalive ran every minute and the first */5
      // reconcile slot came; how much real time that takes depends on the machine's load, so wait for it.
      const total = (samples: readonly MetricSample[], name: string): number => samples.filter((s) => s.name === name).reduce((sum, s) => sum + s.value, 0);
      const reached = (samples: readonly MetricSample[]): boolean =>
        time.clock.now() - time.startMs > 7 * 60_000 &&
        total(samples, 'stratd_orders_submitted_total') > 0 &&
        (sample(samples, 'stratd_job_runs_total', { job: 'listenKeyKeepalive' }) ?? 0) - (sample(samples, 'stratd_job_failures_total', { job: 'listenKeyKeepalive' }) ?? 0) >= 3 &&
        (sample(samples, 'stratd_job_runs_total', { job: 'reconcile' }) ?? 0) >= 1;
      let samples = await scrape(daemon.health.url);
      for (const giveUpAt = performance.now() + 60_000; !reached(samples) && performance.now() < giveUpAt; samples = await scrape(daemon.health.url)) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(time.clock.now() - time.startMs).toBeGreaterThan(7 * 60_000);
      expect(total(samples, 'stratd_orders_submitted_total')).toBeGreaterThan(0);
      // A keepalive fails only by a timeout: on a starved machine (CI at load 10) the process can fall far
      // behind a market 40× real time and a reply wait past the client's real 10 s. Anything else is a bug.
      expect(jobFailures.filter((failure) => failure.startsWith('listenKeyKeepalive') && !/timed out/.test(failure))).toEqual([]);
      const keepalives = sample(samples, 'stratd_job_runs_total', { job: 'listenKeyKeepalive' }) ?? 0;
      expect(keepalives - (sample(samples, 'stratd_job_failures_total', { job: 'listenKeyKeepalive' }) ?? 0)).toBeGreaterThanOrEqual(3);
      expect(sample(samples, 'stratd_job_runs_total', { job: 'reconcile' })).toBeGreaterThanOrEqual(1);
      // No request refused for its timestamp: the accelerated client signs with the widest recvWindow.
      expect(samples.filter((s) => s.name === 'stratd_command_failures_total' && s.labels['code'] === '-1021')).toEqual([]);
      for (const table of ['cache.orders', 'cache.fillIds', 'tracker.live', 'journal.open', 'sim.orders', 'sim.trades']) {
        expect(sample(samples, 'stratd_collection_size', { collection: table })).toBeGreaterThanOrEqual(0);
      }
      expect(sample(samples, 'stratd_collection_limit', { collection: 'sim.finishedOrders' })).toBe(20_000);
      expect(sample(samples, 'stratd_event_loop_lag_recent_seconds', { quantile: '0.99' })).toBeGreaterThanOrEqual(0);
      expect(sample(samples, 'stratd_event_loop_lag_seconds_bucket', { le: '+Inf' })).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'stratd_heap_used_after_gc_bytes')).toBe(true);
    } finally {
      await daemon.stop();
    }
    expect(daemon.kernel.state).toBe('stopped');
  }, 120_000);

  it('--time-scale takes a factor in (0, 1000] and is refused for a live config (exit 2)', () => {
    expect(timeScaleOf(undefined, 'live')).toBeUndefined();
    expect(timeScaleOf('100', 'paper')).toBe(100);
    expect(timeScaleOf('0.5', 'paper')).toBe(0.5);
    for (const bad of ['0', '-3', 'fast', '', '1001']) expect(() => timeScaleOf(bad, 'paper')).toThrow(ConfigError);
    expect(() => timeScaleOf('100', 'live')).toThrow(/paper mode only/);
  });
});
