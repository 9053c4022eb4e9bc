import type { StrategyTraceOf, TracedIntent, TracedValue } from './trace.js';

/** Where a truncated run first disagreed with the full run, before the cut: evidence of lookahead. */
export interface Difference {
  readonly kind: 'intent' | 'indicator';
  /** Virtual time of the earlier of the two differing items. */
  readonly time: number;
  /** The indicator's name (kind indicator). */
  readonly indicator?: string;
  /** The kline the value belongs to (kind indicator), when both runs have one. */
  readonly openTime?: number;
  /** What the full run had there; undefined: nothing. */
  readonly full: string | undefined;
  /** What the run cut at `cut` had there; undefined: nothing. */
  readonly truncated: string | undefined;
}

/**
 * The earliest difference between a strategy's full run and its run on the recording cut at `cut`,
 * among everything either produced before the cut (intents in order; each indicator's values in order).
 * Undefined: the same, so nothing before the cut depended on what came after it.
 */
export function firstDifference(full: StrategyTraceOf, truncated: StrategyTraceOf, cut: number): Difference | undefined {
  let first = intentDifference(before(full.intents, cut), before(truncated.intents, cut));
  const names = new Set([...full.indicators.keys(), ...truncated.indicators.keys()]);
  for (const name of [...names].sort()) {
    const found = valueDifference(name, before(full.indicators.get(name) ?? [], cut), before(truncated.indicators.get(name) ?? [], cut));
    if (found !== undefined && (first === undefined || found.time < first.time)) first = found;
  }
  return first;
}

function before<T extends { readonly time: number }>(items: readonly T[], cut: number): readonly T[] {
  let end = 0;
  while (end < items.length && items[end]!.time < cut) end++;
  return end === items.length ? items : items.slice(0, end);
}

function intentDifference(full: readonly TracedIntent[], truncated: readonly TracedIntent[]): Difference | undefined {
  for (let i = 0; i < Math.max(full.length, truncated.length); i++) {
    const a = full[i];
    const b = truncated[i];
    if (a !== undefined && b !== undefined && a.time === b.time && a.text === b.text) continue;
    return { kind: 'intent', time: earlier(a, b), full: a === undefined ? undefined : `${a.time} ${a.text}`, truncated: b === undefined ? undefined : `${b.time} ${b.text}` };
  }
  return undefined;
}

function valueDifference(name: string, full: readonly TracedValue[], truncated: readonly TracedValue[]): Difference | undefined {
  for (let i = 0; i < Math.max(full.length, truncated.length); i++) {
    const a = full[i];
    const b = truncated[i];
    if (a !== undefined && b !== undefined && a.time === b.time && a.openTime === b.openTime && a.text === b.text) continue;
    const openTime = a?.openTime ?? b?.openTime;
    return {
      kind: 'indicator',
      time: earlier(a, b),
      indicator: name,
      ...(openTime === undefined ? {} : { openTime }),
      full: a === undefined ? undefined : `${a.text} (kline ${a.openTime})`,
      truncated: b === undefined ? undefined : `${b.text} (kline ${b.openTime})`,
    };
  }
  return undefined;
}

function earlier(a: { readonly time: number } | undefined, b: { readonly time: number } | undefined): number {
  return Math.min(a?.time ?? Number.POSITIVE_INFINITY, b?.time ?? Number.POSITIVE_INFINITY);
}
