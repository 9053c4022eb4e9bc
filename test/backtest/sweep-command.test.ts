import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerSweepCommand } from '../../src/app/commands/sweep.js';
import { ConfigError } from '../../src/settings/config-error.js';
import { tempDir, writeGenerated } from './backtest-support.js';

/** `stratd sweep …` in-process (--workers 0) over the default config, as cli.ts runs it: ConfigError exits 2. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');

const tmp = tempDir();
afterAll(() => tmp.remove());
let recording: string;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 5, 2);
});

async function stratd(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  let wall = 0;
  const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerSweepCommand(program, {
    env: {},
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    wallClock: { now: () => (wall += 1000) },
    defaultSimConfig: SIM_YML,
  });
  try {
    await program.parseAsync(['sweep', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`stratd: ${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) code = 2;
    else throw error;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

test('sweeps the default config: sweep.csv in grid order, a ranked table, progress on stderr', async () => {
  const grid = tmp.path('grid.yml');
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [2, 8] }\n');
  const out = tmp.path('out');
  const ran = await stratd(['--data', recording, '--grid', grid, '--workers', '0', '--out', out, '--rank', 'fills']);
  expect(ran.code).toBe(0);
  expect(ran.stderr).toContain('sweep: 1/2 combinations, ETA ');
  expect(ran.stderr).toContain('sweep: 2/2 combinations, ETA 0s');
  const csv = readFileSync(join(out, 'sweep.csv'), 'utf8').trimEnd().split('\n');
  expect(csv).toHaveLength(3);
  expect(csv[1]).toMatch(/^1,2,/);
  expect(csv[2]).toMatch(/^2,8,/);
  expect(ran.stdout).toMatch(/^ranked by fills\nrank\s+#\s+quoter-btc\.params\.halfSpreadBps/);
  expect(ran.stdout).toContain(`wrote ${join(out, 'sweep.csv')}`);
}, 120_000);

test('a grid mistake exits 2 with its line, before any backtest', async () => {
  const grid = tmp.path('bad.yml');
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params:\n      halfSpreadBps: [2, 0]\n');
  const ran = await stratd(['--data', recording, '--grid', grid, '--workers', '0', '--out', tmp.path('bad-out')]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain(`${grid}:4:26: strategies.quoter-btc.params.halfSpreadBps[1]:`);
  expect(ran.stderr).not.toContain('sweep: ');
});

test('refuses an unknown --rank and a bad --workers', async () => {
  expect((await stratd(['--data', recording, '--grid', 'x.yml', '--rank', 'luck'])).stderr).toContain('--rank luck: one of netPnl');
  expect((await stratd(['--data', recording, '--grid', 'x.yml', '--workers', '-1'])).code).toBe(2);
});
