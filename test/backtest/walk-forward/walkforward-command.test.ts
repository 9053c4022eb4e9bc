import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerWalkForwardCommand } from '../../../src/app/commands/walk-forward/command.js';
import { ConfigError } from '../../../src/settings/config-error.js';
import { T0, tempDir } from '../backtest-support.js';

/** `stratd walkforward …` in-process (--workers 0) over the default config and the shipped sample's first 10 minutes, as cli.ts runs it: ConfigError exits 2. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const TO = String(T0 + 10 * 60_000);

const tmp = tempDir();
afterAll(() => tmp.remove());

async function stratd(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  let wall = 0;
  const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerWalkForwardCommand(program, {
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
    await program.parseAsync(['walkforward', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`stratd: ${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) code = 2;
    else throw error;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

function grid(): string {
  const file = tmp.path('grid.yml');
  writeFileSync(file, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [1, 6] }\n');
  return file;
}

test('writes the windows, the stitched curve and the report of a walk-forward on the sample', async () => {
  const out = tmp.path('out');
  const ran = await stratd(['--data', SAMPLE, '--grid', grid(), '--to', TO, '--windows', '1', '--in-sample-ratio', '2', '--workers', '0', '--no-cache', '--out', out]);
  expect(ran.stderr).toContain('walkforward: in-sample 2/2 backtests, ETA 0s');
  expect(ran.stderr).toContain('walkforward: out-of-sample 1/1 backtests, ETA 0s');
  expect(ran.code).toBe(0);
  const json = JSON.parse(readFileSync(join(out, 'walkforward.json'), 'utf8')) as {
    format: string;
    windows: Array<{ window: number; combination: number; chosen: Record<string, unknown>; outOfSample: { from: number; to: number }; efficiency: number | null }>;
    efficiency: number | null;
    stitched: { samples: number };
  };
  expect(json.format).toBe('stratd-walk-forward');
  expect(json.windows).toHaveLength(1);
  const [window] = json.windows;
  expect(window!.outOfSample.to).toBe(Number(TO));
  expect([1, 2]).toContain(window!.combination);
  expect(window!.chosen['quoter-btc.params.halfSpreadBps']).toBe(window!.combination === 1 ? 1 : 6);
  // With one window, the overall efficiency is the window's.
  expect(json.efficiency).toBe(window!.efficiency);
  const inSample = readFileSync(join(out, 'walkforward-in-sample.csv'), 'utf8').trimEnd().split('\n');
  expect(inSample).toHaveLength(3);
  expect(inSample[1]).toMatch(/^1,1,1,/);
  const equity = readFileSync(join(out, 'walkforward-equity.csv'), 'utf8').trimEnd().split('\n');
  expect(equity.length - 1).toBe(json.stitched.samples);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  expect(html).toContain('<section data-section="walk-forward">');
  expect(html).toContain(`data-points="${json.stitched.samples}"`);
  expect(html).toContain('<table data-table="walk-forward">');
  expect(ran.stdout).toMatch(/^window\s+out-of-sample from\s+#\s+quoter-btc\.params\.halfSpreadBps\s+IS netPnl\/day/);
  expect(ran.stdout).toContain('walk-forward efficiency (netPnl/day, out-of-sample over in-sample): ');
  expect(ran.stdout).toContain(`wrote ${join(out, 'report.html')}`);
}, 180_000);

test('windows too short for the recording exit 2 before any backtest', async () => {
  const ran = await stratd(['--data', SAMPLE, '--grid', grid(), '--to', TO, '--windows', '20', '--workers', '0', '--no-cache', '--out', tmp.path('short')]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('the windows: out-of-sample parts of 0.43 min: at least 2 min each');
  expect(ran.stderr).not.toContain('walkforward: in-sample');
});

test('a lone --in-sample exits 2 naming the missing flag', async () => {
  const ran = await stratd(['--data', SAMPLE, '--grid', grid(), '--in-sample', '1h']);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('--out-of-sample is missing');
});
