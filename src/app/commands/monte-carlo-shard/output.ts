import type { JsonValue } from '../../../model/catalog-mirror.js';
import { writeMonteCarloOutputs } from '../../../analysis/monte-carlo/outputs.js';
import type { MonteCarloRun } from '../../../analysis/monte-carlo/run-monte-carlo.js';
import type { ScenarioWorkItem } from '../../../analysis/monte-carlo/shard.js';
import { scenarioOutcomeJson } from '../../../analysis/monte-carlo/shard.js';
import type { MonteCarloSummary } from '../../../analysis/monte-carlo/summary.js';
import { priceSeriesOfReplay } from '../../../report/prices.js';
import type { ShardPlan } from '../../../sweep/shard/index.js';
import { shardLabel, writeShardOutput } from '../../../sweep/shard/index.js';
import type { PreparedMonteCarlo } from './prepare.js';

/**
 * Writes the backtest's files, its report.html with the Monte Carlo section, montecarlo.json and
 * montecarlo.csv into `out`, and returns what the command prints: one function for a whole run and for
 * `montecarlo merge`, so both write the same bytes.
 */
export function writeMonteCarloRun(out: string, prepared: PreparedMonteCarlo, run: MonteCarloRun): string {
  const written = writeMonteCarloOutputs(out, prepared.backtest, run, priceSeriesOfReplay(prepared.recording, prepared.range));
  return `${summaryLines(run.summary)}${written.map((path) => `wrote ${path}\n`).join('')}`;
}

/** Writes a shard's scenario outcomes (items/<method>-<n>.json) and manifest.json into `out`; returns what to print. */
export function writeScenarioShard(out: string, plan: ShardPlan<ScenarioWorkItem>, run: MonteCarloRun): string {
  const byItem = new Map(run.outcomes.map((o) => [o.item, o]));
  const results = new Map<string, JsonValue>();
  for (const work of plan.items) {
    const outcome = byItem.get(work.scenario.item);
    if (outcome !== undefined) results.set(work.id, scenarioOutcomeJson(outcome));
  }
  const file = writeShardOutput(out, plan.manifest, results);
  const { shard, workItems } = plan.manifest;
  return `shard ${shardLabel(shard)} (${shard.mode}): ${plan.items.length} of ${workItems.length} scenarios\nwrote ${file}\n`;
}

/** The percentiles for a person; montecarlo.json holds everything. */
function summaryLines(summary: MonteCarloSummary): string {
  const { setup } = summary;
  const lines = [`backtest: final equity ${setup.backtest.finalEquity}, max drawdown ${setup.backtest.maxDrawdown}, Sharpe ${setup.backtest.sharpe ?? '-'}`];
  for (const m of summary.methods) {
    const p = (d: typeof m.finalEquity): string => `p5 ${d.percentiles.p5 ?? '-'} · p50 ${d.percentiles.p50 ?? '-'} · p95 ${d.percentiles.p95 ?? '-'}`;
    lines.push(
      `${m.method} (${m.scenarios} scenarios, seed ${setup.seed}):`,
      `  final equity  ${p(m.finalEquity)}`,
      `  max drawdown  ${p(m.maxDrawdown)}`,
      `  Sharpe        ${p(m.sharpe)}`,
      `  P(ruin at drawdown ≥ ${setup.ruinDrawdown}) ${m.ruinProbability ?? '-'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
