import { formatDuration } from '../../settings/duration.js';
import type { LookaheadResult, ValueAt, WarmupResult } from './check-types.js';
import type { Difference } from './first-difference.js';

/** What `stratd check-strategy` found: the JSON document it writes. */
export interface StrategyCheckReport {
  readonly format: 'stratd-strategy-check';
  readonly version: 1;
  readonly lookahead?: LookaheadResult;
  readonly warmup?: WarmupResult;
}

export function checkReport(lookahead: LookaheadResult | undefined, warmup: WarmupResult | undefined): StrategyCheckReport {
  return { format: 'stratd-strategy-check', version: 1, ...(lookahead === undefined ? {} : { lookahead }), ...(warmup === undefined ? {} : { warmup }) };
}

/** The report as JSON (times as epoch ms, drift as a fraction). */
export function checkReportJson(report: StrategyCheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The report for a person. */
export function checkReportText(report: StrategyCheckReport): string {
  const lines: string[] = [];
  const { lookahead, warmup } = report;
  if (lookahead !== undefined) {
    lines.push(`lookahead: the full run against runs cut at ${lookahead.cuts.length} points (${lookahead.cuts.map(iso).join(', ') || 'none: the recording is too short'})`);
    for (const s of lookahead.strategies) {
      const recorded = `${s.intents} intents, ${s.indicatorValues} values of ${s.indicators.length} indicators`;
      const first = s.findings.reduce<(typeof s.findings)[number] | undefined>((a, f) => (a === undefined || f.difference.time < a.difference.time ? f : a), undefined);
      if (first === undefined) {
        lines.push(`  ${s.strategy}: no lookahead found (${recorded})${s.intents + s.indicatorValues === 0 ? ' — it emitted and computed nothing to compare' : ''}`);
        continue;
      }
      lines.push(`  ${s.strategy}: LOOKAHEAD at ${s.findings.length} of ${lookahead.cuts.length} cuts (${recorded}); first difference:`);
      lines.push(...describe(first.cut, first.difference).map((l) => `    ${l}`));
    }
  }
  if (warmup !== undefined) {
    const pct = (x: number): string => `${(x * 100).toPrecision(3)} %`;
    lines.push(`warm-up: evaluation from ${iso(warmup.evaluationStart)}, ${warmup.compared} indicator values compared with the longest warm-up, tolerance ${pct(warmup.tolerance)}`);
    const reference = warmup.rows[warmup.rows.length - 1];
    for (const row of warmup.rows) {
      const at = (v: ValueAt): string => `${v.strategy} ${v.indicator} at kline ${iso(v.openTime)}`;
      const notes = [...(row.worst === undefined ? [] : [`largest drift: ${at(row.worst)}`]), ...(row.firstMissing === undefined ? [] : [`first missing: ${at(row.firstMissing)}`])];
      const where = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
      const verdict = row === reference ? 'reference' : row.withinTolerance ? 'ok' : 'too short';
      lines.push(`  ${minutes(row.warmupMs)}: max drift ${pct(row.maxDrift)}, ${row.missing} values missing — ${verdict}${row === reference ? '' : where}`);
    }
    if (warmup.compared === 0) lines.push('  no indicator values to compare: the strategies computed none through the strategy API');
    else if (warmup.recommendedMs !== undefined) lines.push(`  recommended minimum warm-up: ${minutes(warmup.recommendedMs)}`);
    else lines.push(`  no warm-up shorter than ${minutes(reference?.warmupMs ?? 0)} is within tolerance: give at least that much history, and try longer ones`);
  }
  return `${lines.join('\n')}\n`;
}

function describe(cut: number, d: Difference): string[] {
  const what = d.kind === 'intent' ? 'intent' : `indicator ${d.indicator ?? ''}`;
  return [
    `at ${iso(d.time)} (${d.time}), recording cut at ${iso(cut)}: ${what}`,
    `full run:      ${d.full ?? '(nothing)'}`,
    `cut recording: ${d.truncated ?? '(nothing)'}`,
  ];
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function minutes(ms: number): string {
  return ms === 0 ? 'none' : formatDuration(ms);
}
