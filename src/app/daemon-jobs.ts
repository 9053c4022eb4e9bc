import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { CatalogSync } from '../catalog/catalog-sync.js';
import type { Kernel } from '../engine/kernel.js';
import type { JobSchedules } from '../settings/daemon-config.js';
import type { UserStreamSession } from '../venue/stream/user-stream-session.js';
import { CronJobs } from './cron-scheduler.js';

export interface DaemonJobsDeps {
  readonly schedules: JobSchedules;
  readonly kernel: Kernel;
  readonly sessions: readonly UserStreamSession[];
  readonly catalogSync?: CatalogSync;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The scheduled jobs: listen-key keepalive, exchangeInfo refresh, reconciliation, the daily PnL reset, catalog sync. */
export function daemonJobs({ schedules, kernel, sessions, catalogSync, clock, logger }: DaemonJobsDeps): CronJobs {
  const jobs = new CronJobs({
    logger,
    clock,
    onOutcome: (outcome) => {
      if (outcome.status === 'skipped') return;
      kernel.ingest({ type: 'job.finished', time: outcome.at, job: outcome.job, ok: outcome.status === 'ok', detail: outcome.error ?? '' });
    },
  });
  jobs.register({
    name: 'listenKeyKeepalive',
    cron: schedules.listenKeyKeepalive,
    run: async () => {
      for (const session of sessions) {
        const kept = await session.keepAlive();
        if (!kept.ok) throw kept.error;
      }
    },
  });
  jobs.register({
    name: 'exchangeInfoRefresh',
    cron: schedules.exchangeInfoRefresh,
    run: async () => {
      const refreshed = await kernel.refreshInstruments();
      if (!refreshed.ok) throw new Error(refreshed.error.message);
    },
  });
  jobs.register({
    name: 'reconcile',
    cron: schedules.reconcile,
    run: async () => {
      const reconciled = await kernel.reconcile(0);
      if (!reconciled.ok) throw new Error(reconciled.error.message);
    },
  });
  jobs.register({ name: 'dailyReset', cron: schedules.dailyReset, run: async () => kernel.startNewDay() });
  if (catalogSync !== undefined && schedules.catalogSync !== undefined) {
    jobs.register({
      name: 'catalogSync',
      cron: schedules.catalogSync,
      run: async () => {
        const synced = await catalogSync.run();
        if (!synced.ok) throw new Error(synced.error.kind === 'fetch' ? synced.error.error.message : synced.error.message);
        for (const event of synced.value.events) kernel.ingest(event);
      },
    });
  }
  return jobs;
}
