import { createTask, parse, validate } from 'node-cron';
import type { Logger as CronLogger, ParsedFields, ScheduledTask } from 'node-cron';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { systemTime } from '../../core/system-time.js';

/** A named job on a node-cron expression (5 fields, or 6 with seconds first), evaluated in UTC. */
export interface CronJob {
  readonly name: string;
  readonly cron: string;
  readonly run: () => Promise<void>;
}

export interface JobStats {
  /** Runs that started and finished (failed ones included). */
  readonly runs: number;
  readonly failures: number;
  /** Slots (or runNow calls) that arrived while the job was still running. */
  readonly skipped: number;
  readonly running: boolean;
  readonly lastError?: string;
  readonly lastFinishedAt?: number;
}

export interface JobOutcome {
  readonly job: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly trigger: 'scheduled' | 'manual';
  readonly at: number;
  readonly error?: string;
}

export interface CronJobsOptions {
  readonly logger: Logger;
  /** Time stamps of outcomes and stats (default: the wall clock). */
  readonly clock?: Clock;
  /** Every outcome, e.g. to put job results on the event bus. Must not throw. */
  readonly onOutcome?: (outcome: JobOutcome) => void;
  /**
   * Slots computed on `clock` and waited for on this scheduler (accelerated time, `stratd run
   * --time-scale`; virtual time in tests) instead of by node-cron on the wall clock.
   */
  readonly scheduler?: SchedulerLike;
}

interface JobState {
  readonly job: CronJob;
  readonly task: ScheduledTask;
  /** The next slot's timer when slots run on the injected scheduler. */
  timer?: Subscription | undefined;
  inFlight: Promise<void> | undefined;
  stats: { runs: number; failures: number; skipped: number; lastError?: string; lastFinishedAt?: number };
}

/**
 * The one adapter onto node-cron. One run at a time per job: a slot that arrives while the job runs is
 * skipped and counted. A failing job is logged and runs again at its next slot; nothing is thrown out.
 */
export class CronJobs {
  private readonly jobs = new Map<string, JobState>();
  private readonly logger: Logger;
  private readonly clock: Clock;
  private started = false;
  private stopped = false;

  constructor(private readonly options: CronJobsOptions) {
    this.logger = options.logger.child({ component: 'cron' });
    this.clock = options.clock ?? systemTime.clock;
  }

  /** Adds a job; it is scheduled by start() (at once when already started). */
  register(job: CronJob): void {
    if (this.stopped) throw new InvariantError('CRON_STOPPED', `cannot register ${job.name}: the scheduler is stopped`);
    if (this.jobs.has(job.name)) throw new InvariantError('CRON_DUPLICATE_JOB', `job ${job.name} is registered twice`);
    if (!validate(job.cron)) throw new InvariantError('CRON_EXPRESSION', `job ${job.name}: "${job.cron}" is not a cron expression`);
    const task = createTask(job.cron, () => this.fire(job.name, 'scheduled'), { name: job.name, timezone: 'UTC', logger: cronLogger(this.logger) });
    const state: JobState = { job, task, inFlight: undefined, stats: { runs: 0, failures: 0, skipped: 0 } };
    this.jobs.set(job.name, state);
    if (this.started) this.startSlots(state);
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const state of this.jobs.values()) this.startSlots(state);
  }

  /** Runs a job now, under the same one-at-a-time rule as its slots. */
  runNow(name: string): Promise<JobOutcome> {
    return this.fire(name, 'manual');
  }

  stats(): Readonly<Record<string, JobStats>> {
    const out: Record<string, JobStats> = {};
    for (const [name, state] of this.jobs) out[name] = { ...state.stats, running: state.inFlight !== undefined };
    return out;
  }

  /** No further slots; resolves once the runs in flight have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.jobs.values()) {
      state.timer?.unsubscribe();
      state.timer = undefined;
      await state.task.destroy();
    }
    await Promise.all([...this.jobs.values()].map((s) => s.inFlight));
  }

  private startSlots(state: JobState): void {
    if (this.options.scheduler === undefined) void state.task.start();
    else this.scheduleAfter(state, this.clock.now(), this.options.scheduler);
  }

  /** The first slot after `after` on the injected scheduler; each slot schedules the next one. */
  private scheduleAfter(state: JobState, after: number, scheduler: SchedulerLike): void {
    const slot = nextCronSlot(state.task, parse(state.job.cron), after);
    if (slot === undefined) {
      this.logger.warn({ job: state.job.name, cron: state.job.cron }, 'no slot within four years: the job never runs');
      return;
    }
    state.timer = scheduler.schedule(() => {
      state.timer = undefined;
      if (this.stopped) return;
      void this.fire(state.job.name, 'scheduled');
      // From the slot itself (a timer may fire a hair early), or from now when far behind.
      this.scheduleAfter(state, Math.max(slot, this.clock.now() - 1000), scheduler);
    }, Math.max(0, slot - this.clock.now()));
  }

  private async fire(name: string, trigger: JobOutcome['trigger']): Promise<JobOutcome> {
    const state = this.jobs.get(name);
    if (state === undefined) throw new InvariantError('CRON_UNKNOWN_JOB', `no job named ${name}`);
    if (state.inFlight !== undefined || (this.stopped && trigger === 'scheduled')) {
      state.stats.skipped += 1;
      this.logger.debug({ job: name, trigger }, 'job still running: slot skipped');
      return this.report({ job: name, status: 'skipped', trigger, at: this.clock.now() });
    }
    let failure: string | undefined;
    const run = (async () => {
      try {
        await state.job.run();
      } catch (error: unknown) {
        failure = error instanceof Error ? error.message : String(error);
      }
    })();
    state.inFlight = run;
    await run;
    state.inFlight = undefined;
    const at = this.clock.now();
    state.stats.runs += 1;
    state.stats.lastFinishedAt = at;
    if (failure === undefined) return this.report({ job: name, status: 'ok', trigger, at });
    state.stats.failures += 1;
    state.stats.lastError = failure;
    this.logger.error({ job: name, trigger, error: failure }, 'scheduled job failed; it runs again at its next slot');
    return this.report({ job: name, status: 'failed', trigger, at, error: failure });
  }

  private report(outcome: JobOutcome): JobOutcome {
    try {
      this.options.onOutcome?.(outcome);
    } catch (error: unknown) {
      this.logger.error({ job: outcome.job, error: error instanceof Error ? error.message : String(error) }, 'job outcome listener failed');
    }
    return outcome;
  }
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Four years and a day: every valid expression (29 February included) has a slot within it. */
const SEARCH_LIMIT_MS = (4 * 365 + 1) * 24 * HOUR_MS;

/**
 * The first time strictly after `after` (epoch ms) that the task's expression matches, in UTC, searched
 * a minute at a time (hours whose hour field does not match are skipped whole); undefined beyond four years.
 */
export function nextCronSlot(task: Pick<ScheduledTask, 'match'>, fields: ParsedFields, after: number): number | undefined {
  const seconds = [...fields.second].sort((a, b) => a - b);
  const limit = after + SEARCH_LIMIT_MS;
  let minute = Math.floor(after / MINUTE_MS) * MINUTE_MS;
  while (minute <= limit) {
    const at = new Date(minute);
    if (!fields.hour.includes(at.getUTCHours())) {
      minute = Math.floor(minute / HOUR_MS) * HOUR_MS + HOUR_MS;
      continue;
    }
    if (fields.minute.includes(at.getUTCMinutes())) {
      for (const second of seconds) {
        const candidate = minute + second * 1000;
        if (candidate > after && task.match(new Date(candidate))) return candidate;
      }
    }
    minute += MINUTE_MS;
  }
  return undefined;
}

/** node-cron's own messages (missed slots, internal errors) through the Logger port. */
function cronLogger(logger: Logger): CronLogger {
  const text = (m: string | Error): string => (m instanceof Error ? m.message : m);
  return {
    info: (message) => logger.info({ source: 'node-cron' }, message),
    warn: (message) => logger.warn({ source: 'node-cron' }, message),
    error: (message, error) => logger.error({ source: 'node-cron', ...(error === undefined ? {} : { error: error.message }) }, text(message)),
    debug: (message, error) => logger.debug({ source: 'node-cron', ...(error === undefined ? {} : { error: error.message }) }, text(message)),
  };
}
