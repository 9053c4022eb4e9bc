import type { BenchCheck, BenchResult } from './bench-result.js';

/** The results of one `npm run bench`, by bench name (run.ts's names). */
export type BenchResults = ReadonlyMap<string, BenchResult>;

const num = (result: BenchResult | undefined, figure: string): number | undefined => {
  const value = result?.figures[figure];
  return typeof value === 'number' ? value : undefined;
};

interface Spec {
  readonly figure: string;
  readonly value: number | undefined;
  readonly unit: string;
  readonly reference: string;
  readonly referenceValue: number | undefined;
  readonly target: string;
  readonly meets: (value: number) => boolean;
}

function check(bench: string, spec: Spec): BenchCheck {
  const { meets, ...rest } = spec;
  return { bench, ...rest, met: spec.value !== undefined && meets(spec.value) };
}

/**
 * Issue 18's table: each figure of this run next to its reference measured in the same run, its target,
 * and whether it met it. A bench not run gives no checks; a figure a bench did not produce is a check
 * with no value, not met.
 */
export function benchChecks(results: BenchResults): BenchCheck[] {
  const checks: BenchCheck[] = [];
  const tick = results.get('tick');
  if (tick !== undefined) {
    const ref = 'bare http.request of a signed order over a kept-alive loopback socket';
    checks.push(check('tick', { figure: 'tick-to-order p50 (default durability)', value: num(tick, 'p50Us'), unit: 'µs', reference: `${ref}, p50`, referenceValue: num(tick, 'floorBareP50Us'), target: '≤ 300 µs', meets: (v) => v <= 300 }));
    checks.push(check('tick', { figure: 'tick-to-order p99 (default durability)', value: num(tick, 'p99Us'), unit: 'µs', reference: `${ref}, p99`, referenceValue: num(tick, 'floorBareP99Us'), target: '≤ 1000 µs', meets: (v) => v <= 1000 }));
  }
  const client = results.get('client');
  if (client !== undefined) {
    const ratios = Object.keys(client.figures).filter((k) => k.endsWith('oursOverCcxt'));
    const canned = ratios.filter((k) => /canned/i.test(k));
    const simulator = ratios.filter((k) => !/canned/i.test(k));
    for (const key of simulator) {
      checks.push(check('client', { figure: `client vs ccxt on the simulator, ${key.replace(/\.?oursOverCcxt$/, '')}`, value: num(client, key), unit: '× ccxt', reference: 'ccxt toobit, same simulator, same calls', referenceValue: 1, target: '≥ 1×', meets: (v) => v >= 1 }));
    }
    if (canned.length === 0) {
      checks.push(check('client', { figure: 'client vs ccxt on a canned-reply loopback server', value: undefined, unit: '× ccxt', reference: 'ccxt toobit, same canned replies', referenceValue: 1, target: '≥ 2× every case', meets: () => false }));
    }
    for (const key of canned) {
      checks.push(check('client', { figure: `client vs ccxt, canned replies, ${key.replace(/\.?oursOverCcxt$/, '')}`, value: num(client, key), unit: '× ccxt', reference: 'ccxt toobit, same canned replies', referenceValue: 1, target: '≥ 2×', meets: (v) => v >= 2 }));
    }
  }
  const backtest = results.get('backtest');
  if (backtest !== undefined) {
    checks.push(check('backtest', { figure: 'backtest replay, example config on the sample (from its prepared form, as stratd backtest runs it)', value: num(backtest, 'backtestEventsPerSecond'), unit: 'events/s', reference: 'bare gunzip + JSON.parse of the same file', referenceValue: num(backtest, 'bareParseEventsPerSecond'), target: '≥ 0.5 × bare parse', meets: (v) => v >= 0.5 * (num(backtest, 'bareParseEventsPerSecond') ?? Number.POSITIVE_INFINITY) }));
  }
  const data = results.get('data');
  if (data !== undefined) {
    const events = num(data, 'largeEvents')?.toLocaleString('en-US') ?? '?';
    const load = num(data, 'largePreparedLoadSeconds') ?? '?';
    checks.push(check('data', { figure: `data-only replay (a strategy that does nothing), steady: ${events} events (the sample repeated) from the prepared form loaded beforehand (load ${load} s apart)`, value: num(data, 'largeDataOnlySteadyEventsPerSecond'), unit: 'events/s', reference: 'bare gunzip + JSON.parse of the same file', referenceValue: num(data, 'largeBareReadParseEventsPerSecond'), target: '≥ 1,000,000 events/s', meets: (v) => v >= 1_000_000 }));
  }
  const sweep = results.get('sweep');
  if (sweep !== undefined) {
    const floor = `this machine's parallel floor, 2 threads vs 1: ${num(sweep, 'parallelFloor.computeSpeedUp') ?? '?'}× plain compute, ${num(sweep, 'parallelFloor.allocatingSpeedUp') ?? '?'}× allocating`;
    checks.push(check('sweep', { figure: 'sweep, 4 combinations, 2 workers vs 1', value: num(sweep, 'speedUp'), unit: '×', reference: `the same sweep with 1 worker, seconds; ${floor}`, referenceValue: num(sweep, 'oneWorkerSeconds'), target: '≥ 1.8×', meets: (v) => v >= 1.8 }));
    const copies = num(sweep, 'long.copies');
    if (copies !== undefined) {
      checks.push(check('sweep', { figure: `sweep, the same 4 combinations on the sample repeated ${copies}× (${num(sweep, 'long.events') ?? '?'} events), 2 workers vs 1`, value: num(sweep, 'long.speedUp'), unit: '×', reference: 'the same sweep with 1 worker, seconds', referenceValue: num(sweep, 'long.oneWorkerSeconds'), target: '≥ 1.8×', meets: (v) => v >= 1.8 }));
    }
  }
  return checks;
}

/** `  figure: value unit   | reference: value   | target … met`, one line per check. */
export function checkLine(c: BenchCheck): string {
  const value = c.value === undefined ? 'not measured' : `${c.value.toLocaleString('en-US')} ${c.unit}`;
  const reference = c.referenceValue === undefined ? 'not measured' : c.referenceValue.toLocaleString('en-US');
  return `${c.met ? 'MET    ' : 'NOT MET'} ${c.figure}: ${value} | reference (${c.reference}): ${reference} | target ${c.target}`;
}
