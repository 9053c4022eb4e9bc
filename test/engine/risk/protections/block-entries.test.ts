import { dec } from '../../../../src/core/decimal.js';
import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, sell } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('block-entries: a global gross notional cap denies the entry that would exceed it and lets the exit through', async () => {
  const file = await writeRecording(tmp.path('cap.jsonl'), [0, 1, 2, 3, 4].flatMap((s) => market(T0 + s * 1000, 100_000)));
  // One contract is 0.001 BTC: 100 USDT at 100000.
  const trader = scripted('trader', plan([[T0 + 1000, buy('2')], [T0 + 2000, buy('1')], [T0 + 3000, sell('1')]]));
  const result = await runBacktest({
    strategies: [trader.instance],
    risk: { protections: [{ kind: 'notionalCap', name: 'gross', action: 'block-entries', scope: 'global', maxGross: dec(250) }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  expect(result.value.fills.map((f) => [f.side, f.qty.toFixed()])).toEqual([
    ['BUY', '2'],
    ['SELL', '1'],
  ]);
  expect(denials(trader.seen).map(([, code]) => code)).toEqual(['PROTECTION']);
});
