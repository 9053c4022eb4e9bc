import { BlockBootstrap } from '../../../src/analysis/monte-carlo/block-bootstrap.js';
import { closedTrades } from '../../../src/analysis/monte-carlo/closed-trades.js';
import { monteCarloSummary } from '../../../src/analysis/monte-carlo/summary.js';
import type { MonteCarloInput, MonteCarloRun } from '../../../src/analysis/monte-carlo/run-monte-carlo.js';
import { runMonteCarlo } from '../../../src/analysis/monte-carlo/run-monte-carlo.js';
import { scenarioItems, scenarioPrng } from '../../../src/analysis/monte-carlo/scenario-items.js';
import type { ParsedRecording } from '../../../src/recording/parsed-recording.js';
import { dec } from '../../../src/core/decimal.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { StepGrid } from '../../../src/sim/market-stream/ticks.js';
import { OPTIONS, quoterInput, sampleHead } from './monte-carlo-support.js';

let recording: ParsedRecording;
let input: MonteCarloInput;
beforeAll(async () => {
  recording = await sampleHead(12);
  input = await quoterInput(recording);
}, 120_000);

function eventsOf(r: ParsedRecording): readonly MarketEvent[] {
  return r.parts().events;
}

describe('Monte Carlo on the shipped sample', () => {
  let whole: MonteCarloRun;
  beforeAll(async () => {
    const run = await runMonteCarlo(input, OPTIONS);
    if (!run.ok) throw new Error(run.error);
    whole = run.value;
  }, 120_000);

  it('is reproducible: the same seed gives the same outcomes, another seed other ones', async () => {
    const again = await runMonteCarlo(input, OPTIONS);
    const other = await runMonteCarlo(input, { ...OPTIONS, methods: ['bootstrap'], scenarios: 1, seed: 43 });
    if (!again.ok || !other.ok) throw new Error('a run failed');
    expect(again.value).toEqual(whole);
    expect(whole.outcomes.map((o) => [o.method, o.index])).toEqual([
      ['shuffle', 0],
      ['shuffle', 1],
      ['bootstrap', 0],
      ['bootstrap', 1],
    ]);
    expect(other.value.outcomes[0]!.finalEquity).not.toBe(whole.outcomes[2]!.finalEquity);
  }, 120_000);

  it('gives a slice of the scenarios (a shard) the numbers the whole run gives them', async () => {
    const odd = await runMonteCarlo(input, { ...OPTIONS, select: (items) => items.filter((i) => i.item % 2 === 1) });
    const even = await runMonteCarlo(input, { ...OPTIONS, select: (items) => items.filter((i) => i.item % 2 === 0) });
    if (!odd.ok || !even.ok) throw new Error('a run failed');
    expect(odd.value.outcomes).toEqual(whole.outcomes.filter((o) => o.item % 2 === 1));
    const merged = [...even.value.outcomes, ...odd.value.outcomes].sort((a, b) => a.item - b.item);
    expect(monteCarloSummary(whole.summary.setup, merged)).toEqual(whole.summary);
  }, 120_000);
});

describe('trade shuffling', () => {
  it('re-orders the closed trades: every permutation ends at the trades\' equity, drawdowns differ; resampling moves the end', async () => {
    const trades = closedTrades(input.backtest.fills);
    expect(trades.length).toBeGreaterThan(3);
    const end = trades.reduce((e, t) => e.add(t.pnl), dec(input.backtest.summary.account.initialEquity)).toFixed();
    const options = { ...OPTIONS, methods: ['shuffle'] as const, scenarios: 40 };
    const permuted = await runMonteCarlo(input, options);
    const resampled = await runMonteCarlo(input, { ...options, sampling: 'resample' });
    if (!permuted.ok || !resampled.ok) throw new Error('a run failed');
    expect(new Set(permuted.value.outcomes.map((o) => dec(o.finalEquity).toFixed()))).toEqual(new Set([end]));
    expect(new Set(permuted.value.outcomes.map((o) => o.maxDrawdown)).size).toBeGreaterThan(1);
    expect(new Set(resampled.value.outcomes.map((o) => o.finalEquity)).size).toBeGreaterThan(1);
    const summary = permuted.value.summary.methods[0]!;
    expect(summary.scenarios).toBe(40);
    const p = summary.maxDrawdown.percentiles;
    expect(p.p5! <= p.p25! && p.p25! <= p.p50! && p.p50! <= p.p75! && p.p75! <= p.p95!).toBe(true);
    const ruined = permuted.value.outcomes.filter((o) => o.maxDrawdown >= options.ruinDrawdown).length;
    expect(summary.ruinProbability).toBe(Number((ruined / 40).toFixed(6)));
  });
});

describe('block bootstrap', () => {
  it('re-assembles blocks of the recording into a path over the same time, on the tick grid, with each block\'s returns', () => {
    const blockMs = 3 * 60_000;
    const bootstrap = BlockBootstrap.of(recording, { blockMs, strideMs: 60_000 });
    if (typeof bootstrap === 'string') throw new Error(bootstrap);
    const synthetic = eventsOf(bootstrap.synthetic(scenarioPrng(7, { method: 'bootstrap', index: 0 })));
    const original = eventsOf(recording);
    expect(synthetic[0]!.ts).toBe(original[0]!.ts);
    expect(synthetic.at(-1)!.ts).toBeLessThanOrEqual(original.at(-1)!.ts);
    const backwards = synthetic.filter((e, i) => i > 0 && e.ts < synthetic[i - 1]!.ts);
    expect(backwards).toEqual([]);
    const ticks = new Map(recording.instruments.map((i) => [i.symbol, new StepGrid(i.tickSize)]));
    const offGrid: string[] = [];
    const crossed: MarketEvent[] = [];
    let books = 0;
    for (const e of synthetic) {
      const grid = ticks.get(e.symbol)!;
      if (e.type === 'depth') {
        books++;
        for (const [p] of [...e.bids, ...e.asks]) if (grid.tryUnits(p) === undefined) offGrid.push(p);
        if (e.bids[0] !== undefined && e.asks[0] !== undefined && !(Number(e.bids[0][0]) < Number(e.asks[0][0]))) crossed.push(e);
      }
      if ((e.type === 'trade' || e.type === 'mark') && grid.tryUnits(e.price) === undefined) offGrid.push(e.price);
    }
    expect(offGrid).toEqual([]);
    expect(crossed).toEqual([]);
    expect(books).toBeGreaterThan(0);
    // The recorded funding events are all there, at their own times.
    expect(synthetic.filter((e) => e.type === 'funding')).toEqual(original.filter((e) => e.type === 'funding'));
    // Not the recording again: its blocks come from elsewhere in it.
    const marks = (events: readonly MarketEvent[]): string[] => events.flatMap((e) => (e.type === 'mark' && e.symbol === 'BTC-SWAP-USDT' ? [e.price] : []));
    expect(marks(synthetic)).not.toEqual(marks(original));
    // Within a slot the mark's returns are the drawn block's: consecutive marks move by the same ratio as in the recording.
    const first = original[0]!.ts;
    const slotMarks = synthetic.filter((e) => e.type === 'mark' && e.symbol === 'BTC-SWAP-USDT' && e.ts < first + blockMs);
    const ratios = slotMarks.slice(1).map((e, i) => Number((e as { price: string }).price) / Number((slotMarks[i] as { price: string }).price));
    const origMarks = original.filter((e) => e.type === 'mark' && e.symbol === 'BTC-SWAP-USDT');
    const origRatios = new Set(origMarks.slice(1).map((e, i) => (Number((e as { price: string }).price) / Number((origMarks[i] as { price: string }).price)).toFixed(4)));
    expect(ratios.length).toBeGreaterThan(10);
    expect(ratios.filter((r) => !origRatios.has(r.toFixed(4)))).toEqual([]);
  });

  it('with one block as long as the recording replays the recording itself: the scenario is the backtest', async () => {
    const events = eventsOf(recording);
    const span = events.at(-1)!.ts + 1 - events[0]!.ts;
    const run = await runMonteCarlo(input, { ...OPTIONS, methods: ['bootstrap'], scenarios: 1, blocks: { blockMs: span, strideMs: 60_000 } });
    if (!run.ok) throw new Error(run.error);
    const t = input.backtest.summary.total;
    expect(run.value.outcomes).toEqual([{ item: 0, method: 'bootstrap', index: 0, finalEquity: t.finalEquity, maxDrawdown: t.maxDrawdown, sharpe: t.sharpe, trades: t.fills }]);
  }, 120_000);

  it('refuses a block longer than the recording', async () => {
    const run = await runMonteCarlo(input, { ...OPTIONS, blocks: { blockMs: 24 * 3_600_000, strideMs: 60_000 } });
    expect(run).toEqual({ ok: false, error: expect.stringMatching(/longer than the recording/) as unknown });
  });

  it('lists scenarios method by method, each numbered from 0', () => {
    expect(scenarioItems(['bootstrap', 'shuffle'], 2)).toEqual([
      { item: 0, method: 'shuffle', index: 0 },
      { item: 1, method: 'shuffle', index: 1 },
      { item: 2, method: 'bootstrap', index: 0 },
      { item: 3, method: 'bootstrap', index: 1 },
    ]);
  });
});
