import { join } from 'node:path';
import { klineSeriesOf, openingAccount } from '../../src/app/commands/backtest-flags.js';
import { prepareRun } from '../../src/app/commands/run.js';
import { runBacktest } from '../../src/backtest/runner.js';

/**
 * `npm run backtest` (config/default.yml on data/sample-market.jsonl.gz) gives these results. Speed
 * work on the replay path (issue 18) must never move them: a change of the fill hash is a change of
 * what the backtest does, to be explained (and this value updated) in the commit that makes it.
 */
const EXPECTED = {
  events: 127_994,
  // Changed by the per-strategy ledgers (issue 23, merge d1cc073): strategies now read their own position,
  // which moves with their fills rather than with the account's position events (every fill is still
  // attributed to its strategy in fills.csv). Bisected between that merge and its parent.
  fills: 3613,
  orders: 6399,
  fillsSha256: '6c0af87d3b7c665a4a3c8db1304d76881c6a8b6a4b8ffe4186ccc024f7ed757e',
  netPnl: '-136.08909904',
};

test('the example config on the shipped sample backtests to the committed fill hash', async () => {
  const prepared = await prepareRun({ config: join(process.cwd(), 'config', 'default.yml') }, {});
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = openingAccount(config, undefined);
  if (!account.ok) throw account.error;
  const result = await runBacktest({
    strategies,
    risk: config.risk,
    recordings: [join(process.cwd(), 'data', 'sample-market.jsonl.gz')],
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
  });
  if (!result.ok) throw result.error;
  const { summary, fills, orders } = result.value;
  expect({ events: summary.events, fills: fills.length, orders: orders.length, fillsSha256: summary.fillsSha256, netPnl: summary.total.netPnl }).toEqual(EXPECTED);
}, 600_000);
