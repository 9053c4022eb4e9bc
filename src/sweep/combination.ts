import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { StrategyDefinition } from '../engine/strategy/api.js';
import type { StrategyInstance } from '../engine/strategy/instance.js';
import type { GlobalRiskLimits } from '../model/risk-limits.js';
import { globalRiskSchema, strategyRiskSchema } from '../settings/daemon-config/schema.js';
import { parseRecordings, runBacktest } from '../backtest/runner.js';
import type { RecordingReplay } from '../recording/feed.js';
import { mergeSection } from './grid.js';
import type { SweepCombination, SweepJob, SweepOutcome } from './types.js';
import { valuesOf, wireToLimitsInput } from './types.js';

/**
 * Runs the combinations of one job; strategy modules are imported once, and the recordings are read
 * once (at the first combination, unless `useRecording` gave them already read; their prepared form
 * unless the job says --no-cache) and replayed from
 * memory for every combination.
 */
export class SweepCombinationRunner {
  private readonly definitions = new Map<string, Promise<StrategyDefinition>>();
  private recording: Promise<Result<RecordingReplay, string>> | undefined;
  /** The recording cut at each span's end, made once per end (walk-forward windows share them). */
  private readonly cuts = new Map<number, RecordingReplay>();

  constructor(
    private readonly job: SweepJob,
    private readonly logger?: Logger,
  ) {}

  /** Replays `recording` (parsed elsewhere, e.g. shared by a sweep's main thread) instead of reading the files. */
  useRecording(recording: RecordingReplay): void {
    this.recording = Promise.resolve(ok(recording));
  }

  /** Loads what every combination needs (the strategy modules and the recordings) without running one; `run` awaits the same. */
  async load(): Promise<Result<void, string>> {
    for (const spec of this.job.strategies) await this.definition(spec.moduleFile);
    const parsed = await this.parsed();
    return parsed.ok ? ok(undefined) : parsed;
  }

  /** One combination's backtest: its row and the events it replayed; a recording that cannot be replayed is an error message. */
  async run(combination: SweepCombination): Promise<Result<SweepOutcome, string>> {
    const { job } = this;
    const strategies: StrategyInstance[] = [];
    for (const spec of job.strategies) {
      const definition = await this.definition(spec.moduleFile);
      strategies.push({
        id: spec.id,
        symbols: spec.symbols,
        definition,
        params: definition.params.parse(mergeSection(spec.params, spec.id, 'params', job.axes, combination)) as unknown,
        limits: definedOnly(strategyRiskSchema.parse(mergeSection(spec.limits, spec.id, 'risk', job.axes, combination))),
      });
    }
    const parsed = await this.parsed();
    if (!parsed.ok) return parsed;
    const { span } = combination;
    const from = span?.from ?? job.from;
    const to = span?.to ?? job.to;
    const recording = span === undefined ? parsed.value : this.cut(parsed.value, span.to);
    const result = await runBacktest({
      strategies,
      risk: definedOnly(globalRiskSchema.parse(wireToLimitsInput(job.risk))),
      recordings: job.recordings,
      recording,
      account: job.account,
      ...(this.logger === undefined ? {} : { logger: this.logger }),
      ...(job.orphans === undefined ? {} : { orphans: job.orphans }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(job.latency === undefined ? {} : { latency: job.latency }),
      ...(job.klines === undefined ? {} : { klines: job.klines }),
    });
    if (!result.ok) return err(result.error.message);
    const { summary } = result.value;
    const t = summary.total;
    const equity = combination.curve === true ? result.value.equity.map((e) => ({ time: e.time, equity: e.equity.toFixed(), partial: e.partial })) : undefined;
    const row = {
      index: combination.index,
      values: valuesOf(job.axes, combination),
      metrics: {
        netPnl: t.netPnl,
        return: t.return,
        maxDrawdown: t.maxDrawdown,
        sharpe: t.sharpe,
        sortino: t.sortino,
        orders: t.orders,
        fills: t.fills,
        fees: t.fees,
        fillsSha256: summary.fillsSha256,
      },
      ...(equity === undefined ? {} : { equity }),
    };
    return ok({ row, events: summary.events });
  }

  private cut(recording: RecordingReplay, to: number): RecordingReplay {
    let cut = this.cuts.get(to);
    if (cut === undefined) {
      cut = recording.until(to);
      this.cuts.set(to, cut);
    }
    return cut;
  }

  private parsed(): Promise<Result<RecordingReplay, string>> {
    this.recording ??= parseRecordings(this.job.recordings, this.job.to, this.job.prepared).then((parsed) => (parsed.ok ? parsed : err(parsed.error.message)));
    return this.recording;
  }

  private definition(moduleFile: string): Promise<StrategyDefinition> {
    let loaded = this.definitions.get(moduleFile);
    if (loaded === undefined) {
      loaded = import(pathToFileURL(moduleFile).href).then((module: { default?: unknown }) => {
        const definition = module.default as StrategyDefinition | undefined;
        if (typeof (definition?.params as z.ZodType | undefined)?.parse !== 'function') throw new Error(`${moduleFile}: no strategy definition as its default export`);
        return definition!;
      });
      this.definitions.set(moduleFile, loaded);
    }
    return loaded;
  }
}

/** Parsed limits without the absent ones (exactOptionalPropertyTypes). */
function definedOnly(limits: { [K in keyof GlobalRiskLimits]?: GlobalRiskLimits[K] | undefined }): GlobalRiskLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as GlobalRiskLimits;
}
