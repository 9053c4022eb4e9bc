import { dec } from '../../../../src/core/decimal.js';
import { runBacktest } from '../../../../src/backtest/runner.js';
import { scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('liquidationDistance and leverageCap deny the entries that would bring the account closer to liquidation', async () => {
  const file = await writeRecording(tmp.path('caps.jsonl'), [0, 1, 2, 3].flatMap((s) => market(T0 + s * 1000, 100_000)));
  // A small account: 10 contracts (1000 USDT) on 150 USDT put the liquidation price some 15% below the mark.
  const trader = scripted('trader', plan([[T0 + 1000, buy('10')], [T0 + 2000, buy('1')]]));
  const result = await runBacktest({
    strategies: [trader.instance],
    risk: {
      protections: [
        { kind: 'liquidationDistance', name: 'liq', action: 'block-entries', scope: 'global', minPct: dec(20) },
        { kind: 'leverageCap', name: 'lev', action: 'block-entries', scope: 'global', max: dec(20) },
      ],
    },
    recordings: [file],
    account: { userId: '879141111', futures: { USDT: '150' } },
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  expect(result.value.fills.map((f) => f.qty.toFixed())).toEqual(['10']);
  const denied = trader.seen.flatMap((s) => (s.event.type === 'intent.denied' ? [s.event.denial] : []));
  expect(denied.map((d) => d.code)).toEqual(['PROTECTION']);
  // The position's own distance trips the protection (block-entries) before the next entry is even checked against it.
  expect(denied[0]?.message).toMatch(/protection liq tripped \(BTC-SWAP-USDT LONG is [\d.]+% from its liquidation price \(min 20%\)\)/);
  expect(denials(trader.seen)).toHaveLength(1);
});
