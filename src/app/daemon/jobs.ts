import type { SchedulerLike } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { CatalogSync } from '../../catalog/sync.js';
import type { Kernel } from '../../engine/kernel.js';
import type { OrderJournal } from '../../model/journal.js';
import type { JobSchedules } from '../../settings/daemon-config/daemon-config.js';
import type { UserStreamSession } from '../../venue/stream/user-stream-session.js';
import { CronJobs } from './cron-scheduler.js';

export interface DaemonJobsDeps {
  readonly schedules: JobSchedules;
  readonly kernel: Kernel;
  readonly sessions: readonly UserStreamSession[];
  readonly catalogSync?: CatalogSync;
  /** Settled entries older than JOURNAL_RETENTION_MS are purged by the daily reset. */
  readonly journal?: Pick<OrderJournal, 'purgeSettled'>;
  readonly clock: Clock;
  /** Slots on this scheduler (with `clock`) instead of node-cron's wall clock: accelerated time. */
  readonly scheduler?: SchedulerLike;
  readonly logger: Logger;
}

/** How long settled journal entries (done, rejected) stay in the state file: a week, for post-mortems and late fills' owners. */
export const JOURNAL_RETENTION_MS = 7 * 86_400_000;

/**
 * The scheduled jobs: listen-key keepalive, exchangeInfo refresh, reconciliation, the daily reset (PnL,
 * and the purge of settled journal entries past JOURNAL_RETENTION_MS), catalog sync.
 */
export function daemonJobs({ schedules, kernel, sessions, catalogSync, journal, clock, scheduler, logger }: DaemonJobsDeps): CronJobs {
  const jobs = new CronJobs({
    logger,
    clock,
    ...(scheduler === undefined ? {} : { scheduler }),
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
  jobs.register({
    name: 'dailyReset',
    cron: schedules.dailyReset,
    run: async () => {
      kernel.startNewDay();
      const purged = journal?.purgeSettled(clock.now() - JOURNAL_RETENTION_MS) ?? 0;
      if (purged > 0) logger.info({ purged, olderThanDays: JOURNAL_RETENTION_MS / 86_400_000 }, 'settled journal entries purged');
    },
  });
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
