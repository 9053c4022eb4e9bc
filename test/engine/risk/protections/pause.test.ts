import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, protectionEvents, restingBuy, sell } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('pause: a cooldown after an exit cancels the resting entry, denies entries, and resumes by itself after its duration', async () => {
  const seconds = [0, 1, 2, 3, 4, 30, 61, 62, 63, 64, 65, 70];
  const file = await writeRecording(tmp.path('cooldown.jsonl'), seconds.flatMap((s) => market(T0 + s * 1000, 100_000)));
  const trader = scripted(
    'trader',
    plan([
      [T0 + 1000, buy('1')],
      [T0 + 1000, restingBuy('90000', 'dip')],
      [T0 + 2000, sell('1')],
      [T0 + 4000, buy('1')],
      [T0 + 30_000, buy('1')],
      [T0 + 64_000, buy('1')],
    ]),
  );
  const other = scripted('other', plan([[T0 + 4000, buy('1')]]));
  const result = await runBacktest({
    strategies: [trader.instance, other.instance],
    risk: { protections: [{ kind: 'cooldown', name: 'cooldown', action: 'pause', scope: 'strategy', resumeAfterMs: 60_000 }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 1000,
  });
  if (!result.ok) throw result.error;
  const fills = result.value.fills.map((f) => [f.strategy, f.side, Math.floor((f.time - T0) / 1000)]);
  // The trader's entries at 4 s and 30 s are denied; the one at 64 s (after the resume) fills. The other strategy is not covered by the trader's trip.
  expect(fills).toEqual([
    ['trader', 'BUY', 1],
    ['trader', 'SELL', 2],
    ['other', 'BUY', 4],
    ['trader', 'BUY', 64],
  ]);
  expect(denials(trader.seen).map(([at, code]) => [Math.floor((at - T0) / 1000), code])).toEqual([
    [4, 'PROTECTION'],
    [30, 'PROTECTION'],
  ]);
  expect(denials(other.seen)).toEqual([]);
  const dip = result.value.orders.find((o) => o.order.clientOrderId.endsWith('dip'));
  expect(dip?.order.status).toBe('CANCELED');
  const changes = protectionEvents(trader.seen);
  expect(changes.map((c) => [c.protection, c.scopeKey, c.tripped, c.action])).toEqual([
    ['cooldown', 'trader', true, 'pause'],
    ['cooldown', 'trader', false, 'pause'],
  ]);
  const [tripped, resumed] = changes;
  expect(tripped?.resumeAt).toBe((tripped?.time ?? 0) + 60_000);
  expect(resumed?.time).toBeGreaterThanOrEqual(tripped?.resumeAt ?? Infinity);
  expect(protectionEvents(other.seen)).toEqual([]);
});
