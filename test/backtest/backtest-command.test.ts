import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerBacktestCommand } from '../../src/app/commands/backtest.js';
import { silentLogger } from '../../src/core/logger.js';
import { ConfigError } from '../../src/settings/config-error.js';
import { header, T0, tempDir, writeGenerated } from './backtest-support.js';

/** `stratd backtest …` in-process, as cli.ts runs it: ConfigError and usage errors exit 2. The default config's example strategies. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const tmp = tempDir();
afterAll(() => tmp.remove());
let recording: string;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 3, 3);
});

async function stratd(args: readonly string[]): Promise<Ran> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command()
    .name('stratd')
    .exitOverride()
    .configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  let wall = 0;
  registerBacktestCommand(program, {
    env: {},
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    tty: false,
    wallClock: { now: () => (wall += 1000) },
    logger: silentLogger,
    defaultSimConfig: SIM_YML,
  });
  try {
    await program.parseAsync(['backtest', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`stratd: ${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) {
      code = 2;
    } else {
      throw error;
    }
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

test('runs the default config over a recording and writes the four outputs', async () => {
  const out = tmp.path('out');
  const ran = await stratd(['--data', recording, '--out', out, '--latency-ms', '20', '--to', new Date(T0 + 150_000).toISOString()]);
  expect(ran.stderr).toMatch(/backtest: 100\.0% \| \d+ events \| \d+ events\/s \| done in/);
  expect(ran.code).toBe(0);
  for (const name of ['summary.json', 'fills.csv', 'orders.csv', 'equity.csv']) expect(existsSync(join(out, name))).toBe(true);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  expect(summary).toMatchObject({
    latency: { orderLatencyMs: 20, ackLatencyMs: 20 },
    account: { userId: '879141111', balances: { USDT: '100000', USDC: '50000' }, initialEquity: '150000' },
    range: { from: T0, to: T0 + 150_000 },
  });
  expect(Object.keys(summary['strategies'] as object)).toEqual(['breakout-eth', 'quoter-btc']);
  expect(ran.stdout).toContain(`wrote ${join(out, 'summary.json')}`);
  expect(ran.stdout).toMatch(/fill sequence sha256 [0-9a-f]{64}/);
}, 120_000);

test('--balance sets the opening balances; --from takes epoch milliseconds', async () => {
  const out = tmp.path('balance');
  const ran = await stratd(['--data', recording, '--out', out, '--balance', 'USDT=5000', '--from', String(T0 + 60_000)]);
  expect(ran.code).toBe(0);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { account: unknown; range: { from: number } };
  expect(summary.account).toEqual({ userId: '879141111', balances: { USDT: '5000' }, initialEquity: '5000' });
  expect(summary.range.from).toBe(T0 + 60_000);
}, 120_000);

test('mistakes exit 2 with one readable line: another format version, a bad time, a bad balance', async () => {
  const v2 = tmp.path('v2.jsonl');
  writeFileSync(v2, `${JSON.stringify({ ...header(), version: 2 })}\n`);
  const wrongVersion = await stratd(['--data', v2, '--out', tmp.path('x')]);
  expect(wrongVersion.code).toBe(2);
  expect(wrongVersion.stderr).toContain('recording format version 2 is not supported; this stratd reads version 1');
  expect(existsSync(tmp.path('x'))).toBe(false);

  const badTime = await stratd(['--data', recording, '--from', 'yesterday']);
  expect(badTime).toMatchObject({ code: 2, stderr: expect.stringContaining('--from yesterday: an ISO time') });
  const badBalance = await stratd(['--data', recording, '--balance', 'BTC=1']);
  expect(badBalance).toMatchObject({ code: 2, stderr: expect.stringContaining('--balance BTC=1') });
  const noData = await stratd([]);
  expect(noData.code).toBe(2);
});
