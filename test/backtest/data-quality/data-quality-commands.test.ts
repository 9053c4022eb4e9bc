import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerBacktestCommand } from '../../../src/app/commands/backtest.js';
import { registerDataCommands } from '../../../src/app/data/data-command.js';
import { silentLogger } from '../../../src/core/logger.js';
import { ConfigError } from '../../../src/settings/config-error.js';
import { T0, tempDir } from '../backtest-support.js';
import { writeFlawedRecording } from './flawed-recording.js';

const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const tmp = tempDir();
afterAll(() => tmp.remove());

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `stratd …` in-process, as cli.ts runs it: a ConfigError exits 2. */
async function stratd(args: readonly string[]): Promise<Ran> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  const io = { env: {}, out: (t: string) => out.push(t), err: (t: string) => errs.push(t), setExitCode: (c: number) => (code = c) };
  let wall = 0;
  registerBacktestCommand(program, { ...io, tty: false, wallClock: { now: () => (wall += 1000) }, logger: silentLogger, defaultSimConfig: SIM_YML });
  registerDataCommands(program, io);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`stratd: ${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) code = 2;
    else throw error;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

test('a backtest over a gap fails naming the recording and line; --allow-gaps runs it and the summary and report list the findings', async () => {
  const recording = tmp.path('flawed.jsonl');
  const flaws = writeFlawedRecording(recording);
  const refused = await stratd(['backtest', '--data', recording, '--out', tmp.path('refused')]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`${recording}:${flaws.gapLine}: gap in BTC-SWAP-USDT`);
  expect(refused.stderr).toContain('--allow-gaps');

  const out = tmp.path('allowed');
  const allowed = await stratd(['backtest', '--data', recording, '--out', out, '--allow-gaps', '--no-cache']);
  expect(allowed.code).toBe(0);
  expect(allowed.stderr).toMatch(/data quality: 2 gaps \(allowed\), 1 duplicates, 1 out of order, 1 frozen books/);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { dataQuality: { allowGaps: boolean; counts: object; findings: Array<{ kind: string; file: string; line: number }> } };
  expect(summary.dataQuality.allowGaps).toBe(true);
  expect(summary.dataQuality.counts).toEqual({ gap: 2, duplicate: 1, 'out-of-order': 1, 'frozen-book': 1 });
  expect(summary.dataQuality.findings).toContainEqual(expect.objectContaining({ kind: 'gap', file: recording, line: flaws.gapLine }));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  expect(html).toContain('<h2>Data quality</h2>');
  expect(html).toContain('data-table="data-quality"');
  expect(html).toMatch(/--allow-gaps/);
}, 120_000);

test('a range that leaves the gap out runs without --allow-gaps', async () => {
  const recording = tmp.path('flawed-range.jsonl');
  writeFlawedRecording(recording);
  const ran = await stratd(['backtest', '--data', recording, '--out', tmp.path('range'), '--from', String(T0 + 95_000)]);
  expect(ran.code).toBe(0);
  const summary = JSON.parse(readFileSync(join(tmp.path('range'), 'summary.json'), 'utf8')) as { dataQuality: { counts: { gap: number; 'frozen-book': number } } };
  expect(summary.dataQuality.counts.gap).toBe(0);
  expect(summary.dataQuality.counts['frozen-book']).toBe(1);
}, 120_000);

test('stratd data check lists every finding with its line and exits 1 on gaps', async () => {
  const recording = tmp.path('checked.jsonl');
  const flaws = writeFlawedRecording(recording);
  const ran = await stratd(['data', 'check', recording]);
  expect(ran.code).toBe(1);
  expect(ran.stdout).toContain(`${recording}:${flaws.duplicateLine}: duplicate in BTC-SWAP-USDT trade`);
  expect(ran.stdout).toContain(`${recording}:${flaws.outOfOrderLine}: out-of-order in BTC-SWAP-USDT trade`);
  expect(ran.stdout).toContain('frozen-book in BTC-SWAP-USDT depth');
  expect(ran.stdout).toContain('gaps 2, duplicates 1, out of order 1, frozen books 1');
  const json = await stratd(['data', 'check', '--json', recording]);
  expect((JSON.parse(json.stdout) as { counts: object }).counts).toEqual({ gap: 2, duplicate: 1, 'out-of-order': 1, 'frozen-book': 1 });
  const missing = await stratd(['data', 'check', tmp.path('nope.jsonl')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('nope.jsonl');
});
