import { parseJsonlRecordings } from '../../../src/backtest/runner.js';
import type { CheckBase } from '../../../src/analysis/strategy-check/index.js';
import { checkLookahead, checkReport, checkReportText } from '../../../src/analysis/strategy-check/index.js';
import type { ParsedRecording } from '../../../src/recording/parsed-recording.js';
import { ACCOUNT, BTC, T0, tempDir, writeGenerated } from '../backtest-support.js';
import { peekingStrategy } from './peeking-strategy.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

let recording: ParsedRecording;
beforeAll(async () => {
  const parsed = await parseJsonlRecordings([await writeGenerated(tmp.path('market.jsonl'), 24, 20)]);
  if (!parsed.ok) throw parsed.error;
  recording = parsed.value;
});

const base = (strategies: CheckBase['strategies']): CheckBase => ({ strategies, risk: {}, account: ACCOUNT, klines: [{ symbol: BTC, interval: '1m' }] });

test('a strategy that trades on the next kline, read through memory its runs share, is caught: the first intent that differs before a cut', async () => {
  const result = await checkLookahead({ base: base([peekingStrategy('peeker', { leaky: true, peek: 'intent' }), peekingStrategy('honest', { leaky: false, peek: 'intent' })]), recording, cuts: 3 });
  if (!result.ok) throw result.error;
  const { cuts, strategies, found } = result.value;
  expect(cuts).toHaveLength(3);
  expect(cuts.every((c) => c > T0 && c < T0 + 20 * 60_000)).toBe(true);
  expect(found).toBe(true);
  const [honest, peeker] = strategies;
  expect(honest?.strategy).toBe('honest');
  expect(honest?.findings).toEqual([]);
  expect(honest?.indicatorValues).toBeGreaterThan(10);
  expect(peeker?.strategy).toBe('peeker');
  // Its full run never knew the next kline: no intent. Every cut run did, before the cut.
  expect(peeker?.intents).toBe(0);
  expect(peeker?.findings.map((f) => f.cut)).toEqual(cuts);
  for (const { cut, difference } of peeker?.findings ?? []) {
    expect(difference.kind).toBe('intent');
    expect(difference.time).toBeLessThan(cut);
    expect(difference.full).toBeUndefined();
    expect(difference.truncated).toContain('"key":"peek-');
  }
  const text = checkReportText(checkReport(result.value, undefined));
  expect(text).toContain('peeker: LOOKAHEAD at 3 of 3 cuts');
  expect(text).toContain('honest: no lookahead found');
});

test('an indicator fed the next kline is caught as an indicator difference, with its name and values', async () => {
  const result = await checkLookahead({ base: base([peekingStrategy('peeker', { leaky: true, peek: 'indicator' })]), recording, cuts: 2 });
  if (!result.ok) throw result.error;
  const [peeker] = result.value.strategies;
  expect(result.value.found).toBe(true);
  expect(peeker?.findings).toHaveLength(2);
  for (const { cut, difference } of peeker?.findings ?? []) {
    expect(difference).toMatchObject({ kind: 'indicator', indicator: `sma(3,close)@${BTC}/1m` });
    expect(difference.time).toBeLessThan(cut);
    expect(difference.full).not.toEqual(difference.truncated);
  }
});
