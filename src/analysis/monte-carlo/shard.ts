import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { JsonValue } from '../../model/catalog-mirror.js';
import type { MergedShards, ShardSpec, WorkItem } from '../../sweep/shard/index.js';
import { configHash, sliceWork, sweepConfigHash, toJsonValue } from '../../sweep/shard/index.js';
import type { SweepJob } from '../../sweep/types.js';
import type { BlockOptions } from './block-bootstrap.js';
import type { MonteCarloMethod, ScenarioItem } from './scenario-items.js';
import { MONTE_CARLO_METHODS } from './scenario-items.js';
import type { ScenarioOutcome } from './scenario-outcome.js';
import type { TradeSampling } from './trade-shuffle.js';

/** The kind of Monte Carlo shards in their manifests. */
export const MONTE_CARLO_KIND = 'monte-carlo';

/** A scenario as a shard work item, id `<method>-<scenario number from 1>`. */
export interface ScenarioWorkItem extends WorkItem {
  readonly scenario: ScenarioItem;
}

/** The run's scenarios (`scenarioItems` order) as the ordered work list `--shard I/N` slices. */
export function scenarioWork(items: readonly ScenarioItem[]): ScenarioWorkItem[] {
  return items.map((scenario) => ({ id: `${scenario.method}-${scenario.index + 1}`, scenario }));
}

/** A `select` for runMonteCarlo: shard `spec`'s scenarios, each with the numbers it has in the whole run. */
export function shardSelect(spec: ShardSpec): (items: readonly ScenarioItem[]) => ScenarioItem[] {
  return (items) => sliceWork(scenarioWork(items), spec).map((w) => w.scenario);
}

/** What changes a scenario's outcome besides the recordings. */
export interface MonteCarloShardSettings {
  readonly seed: number;
  readonly scenarios: number;
  readonly methods: readonly MonteCarloMethod[];
  readonly sampling: TradeSampling;
  readonly blocks: BlockOptions;
  readonly ruinDrawdown: number;
}

/** The job (strategy modules by content, the range, latency) and the scenario settings, hashed. */
export function monteCarloConfigHash(job: SweepJob, settings: MonteCarloShardSettings): string {
  const { seed, scenarios, methods, sampling, blocks, ruinDrawdown } = settings;
  return configHash(toJsonValue({ job: sweepConfigHash(job), seed, scenarios, methods, sampling, blocks, ruinDrawdown }));
}

const outcomeSchema = z
  .object({
    item: z.number().int().min(0),
    method: z.enum(MONTE_CARLO_METHODS),
    index: z.number().int().min(0),
    finalEquity: z.string(),
    maxDrawdown: z.number(),
    sharpe: z.number().nullable(),
    trades: z.number().int().min(0),
  })
  .strict();

/** A scenario's outcome as its item file holds it. */
export function scenarioOutcomeJson(outcome: ScenarioOutcome): JsonValue {
  return toJsonValue(outcome);
}

/** The merged shards' outcomes, each checked against the scenario it belongs to, in item order. */
export function outcomesOfMerged(merged: MergedShards, work: readonly ScenarioWorkItem[]): Result<ScenarioOutcome[], string> {
  if (merged.results.length !== work.length) return err(`the shards hold ${merged.results.length} scenarios, this Monte Carlo run has ${work.length}`);
  const outcomes: ScenarioOutcome[] = [];
  for (const [position, { id, value }] of merged.results.entries()) {
    const { scenario } = work[position]!;
    const parsed = outcomeSchema.safeParse(value);
    if (!parsed.success) return err(`${id}: not a scenario outcome (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`);
    const o = parsed.data;
    if (id !== work[position]!.id || o.item !== scenario.item || o.method !== scenario.method || o.index !== scenario.index) {
      return err(`${id}: the outcome of ${o.method} scenario ${o.index + 1}, not of ${work[position]!.id}`);
    }
    outcomes.push(o);
  }
  return ok(outcomes);
}
