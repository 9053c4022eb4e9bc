import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerBacktestCommand } from '../../src/app/commands/backtest.js';
import { silentLogger } from '../../src/core/logger.js';
import { tempDir } from '../backtest/backtest-support.js';

/**
 * Every example config of the strategy library runs in `stratd backtest` on the shipped sample
 * recording, as the README tells users to do (the same configs run in `stratd run`: their own tests
 * pass them through prepareRun and the daemon).
 */
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const CONFIGS = readdirSync(join(process.cwd(), 'config', 'strategies')).filter((f) => f.endsWith('.yml')).sort();
const tmp = tempDir();
afterAll(() => tmp.remove());

interface Summary {
  readonly strategies: Record<string, { readonly orders: number; readonly denied: number }>;
  readonly events: number;
}

test('the strategy library has an example config per strategy', () => {
  expect(CONFIGS).toEqual(['bracket.yml', 'funding-carry.yml', 'grid.yml', 'market-maker.yml', 'trend.yml']);
});

/**
 * How much of the sample each needs to act (trend waits for its slow EMA), and who must have traded by then.
 * In the first 10 minutes breakout-eth places 1 order, grid-btc 15, mm-btc 164; funding-carry waits for a funding window either way.
 */
/**
 * `undenied`: guards, acting on positions others open (`positionScope: 'account'`), as they do live; a backtest
 * that ran one on its own positions denied each of its stops (NO_POSITION).
 */
const RUNS: Readonly<Record<string, { readonly to: string; readonly trading: readonly string[]; readonly undenied?: readonly string[] }>> = {
  'bracket.yml': { to: '2026-01-01T00:10:00Z', trading: ['breakout-eth'], undenied: ['guard-eth'] },
  'funding-carry.yml': { to: '2026-01-01T00:10:00Z', trading: [] },
  'grid.yml': { to: '2026-01-01T00:10:00Z', trading: ['grid-btc'] },
  'market-maker.yml': { to: '2026-01-01T00:10:00Z', trading: ['mm-btc'] },
  'trend.yml': { to: '2026-01-01T03:00:00Z', trading: ['trend-btc'] },
};

test.each(CONFIGS)('config/strategies/%s backtests on the sample', async (file) => {
  const run = RUNS[file];
  if (run === undefined) throw new Error(`no expectation for config/strategies/${file}: add it to RUNS`);
  const errors: string[] = [];
  let code = 0;
  const program = new Command().name('stratd').exitOverride();
  registerBacktestCommand(program, {
    env: {},
    out: () => undefined,
    err: (t) => errors.push(t),
    setExitCode: (c) => {
      code = c;
    },
    tty: false,
    wallClock: { now: () => 0 },
    logger: silentLogger,
    defaultSimConfig: join(process.cwd(), 'config', 'sim.yml'),
  });
  const out = tmp.path(file.replace('.yml', ''));
  await program.parseAsync(['backtest', '--config', join('config', 'strategies', file), '--data', SAMPLE, '--to', run.to, '--out', out], { from: 'user' });
  expect({ code, errors: errors.filter((e) => /error|failed/i.test(e)) }).toEqual({ code: 0, errors: [] });
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
  expect(summary.events).toBeGreaterThan(0);
  expect(Object.keys(summary.strategies).length).toBeGreaterThan(0);
  for (const id of run.trading) expect(summary.strategies[id]?.orders ?? 0).toBeGreaterThan(0);
  for (const id of run.undenied ?? []) expect({ id, denied: summary.strategies[id]?.denied }).toEqual({ id, denied: 0 });
}, 120_000);
