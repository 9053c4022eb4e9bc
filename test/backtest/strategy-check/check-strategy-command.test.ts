import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerCheckStrategyCommand } from '../../../src/app/commands/check-strategy.js';
import { silentLogger } from '../../../src/core/logger.js';
import { ConfigError } from '../../../src/settings/config-error.js';
import { tempDir, writeGenerated } from '../backtest-support.js';

/** `stratd check-strategy …` in-process, as cli.ts runs it (a ConfigError exits 2). */
const tmp = tempDir();
afterAll(() => tmp.remove());
let recording: string;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 5, 12);
});

function configWith(name: string, strategies: string): string {
  const file = tmp.path(`${name}.yml`);
  const lines = [
    'mode: paper',
    `stateDir: ${tmp.path('state')}`,
    'sim:',
    `  config: ${join(process.cwd(), 'config', 'sim.yml')}`,
    '  key: trader',
    '  port: 0',
    'market:',
    '  - symbol: BTC-SWAP-USDT',
    '    depth: { every: 1s, limit: 20 }',
    '    klines: { every: 5s, intervals: [1m] }',
    'risk:',
    '  dailyLossLimit: 500',
    'strategies:',
    strategies,
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function stratd(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerCheckStrategyCommand(program, {
    env: { HOME: tmp.dir },
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    logger: silentLogger,
  });
  try {
    await program.parseAsync(['check-strategy', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (!(error instanceof ConfigError)) throw error;
    errs.push(`stratd: ${error.message}\n`);
    code = 2;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

test('a peeking strategy module named by a config: exit 1, the finding in the text and JSON reports', async () => {
  const module = join(process.cwd(), 'test', 'backtest', 'strategy-check', 'peeking-module.ts');
  const config = configWith('peeking', ['  - id: peeker', `    module: ${module}`, '    symbols: [BTC-SWAP-USDT]'].join('\n'));
  const outDir = tmp.path('out-peeking');
  const ran = await stratd(['--config', config, '--data', recording, '--cuts', '2', '--no-warmup-check', '--out', outDir]);
  expect(ran.stderr).not.toContain('stratd:');
  expect(ran.code).toBe(1);
  expect(ran.stdout).toContain('peeker: LOOKAHEAD at 2 of 2 cuts');
  expect(readFileSync(join(outDir, 'strategy-check.txt'), 'utf8')).toContain('peeker: LOOKAHEAD');
  const json = JSON.parse(readFileSync(join(outDir, 'strategy-check.json'), 'utf8')) as { format: string; lookahead: { found: boolean; strategies: Array<{ strategy: string; findings: Array<{ difference: { kind: string } }> }> } };
  expect(json.format).toBe('stratd-strategy-check');
  expect(json.lookahead.found).toBe(true);
  expect(json.lookahead.strategies[0]?.findings[0]?.difference.kind).toBe('intent');
}, 120_000);

test('trend with --strategy: no lookahead, a warm-up table, exit 0; an unknown strategy or a bad flag exits 2 with a located message', async () => {
  const config = join(process.cwd(), 'config', 'strategies', 'trend.yml');
  const ran = await stratd(['--config', config, '--data', recording, '--strategy', 'trend-btc', '--cuts', '1', '--warmup', '0,2m', '--out', tmp.path('out-trend')]);
  expect(ran.stderr).not.toContain('stratd:');
  expect(ran.code).toBe(0);
  expect(ran.stdout).toContain('trend-btc: no lookahead found');
  expect(ran.stdout).toMatch(/warm-up: evaluation from .*\n {2}none: max drift/);
  expect((await stratd(['--config', config, '--data', recording, '--strategy', 'nope'])).stderr).toContain('--strategy: no strategy "nope" in the config (it has trend-btc)');
  const bad = await stratd(['--config', config, '--data', recording, '--warmup', '0,soon']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--warmup 0,soon: "soon" is not a duration');
}, 120_000);
