import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeGenerated } from '../backtest-support.js';

/** The built CLI (worker threads load compiled JS; npm test builds before jest). */
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const DIST_WORKER = join(process.cwd(), 'dist', 'src', 'analysis', 'monte-carlo', 'scenario-worker.js');

const tmp = tempDir();
afterAll(() => tmp.remove());

function stratd(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FILES = ['montecarlo.json', 'montecarlo.csv', 'report.html'] as const;

test('stratd montecarlo gives byte-identical outputs on this thread and on 2 worker threads, with the section in report.html', async () => {
  if (!existsSync(DIST_WORKER)) throw new Error(`${DIST_WORKER} is missing: run \`npm run build\` before this test (npm test does)`);
  const recording = await writeGenerated(tmp.path('market.jsonl'), 11, 6);
  // The two runs at once: each is its own process with its own --out.
  const runs = await Promise.all(
    [0, 2].map(async (workers) => {
      const out = tmp.path(`out-${workers}`);
      const ran = await stratd(['montecarlo', '--data', recording, '--scenarios', '3', '--seed', '9', '--block', '2m', '--ruin-drawdown', '1%', '--workers', String(workers), '--out', out]);
      expect({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ code: 0, stderr: '' });
      expect(ran.stdout).toMatch(/^bootstrap \(3 scenarios, seed 9\):$/m);
      return Object.fromEntries(FILES.map((name) => [name, readFileSync(join(out, name), 'utf8')])) as Record<(typeof FILES)[number], string>;
    }),
  );
  const [here, inWorkers] = runs;
  expect(inWorkers).toEqual(here);
  const summary = JSON.parse(here!['montecarlo.json']) as { setup: { seed: number; ruinDrawdown: number }; methods: Array<{ method: string; scenarios: number }> };
  expect(summary.setup).toMatchObject({ seed: 9, ruinDrawdown: 0.01 });
  expect(summary.methods.map((m) => [m.method, m.scenarios])).toEqual([
    ['shuffle', 3],
    ['bootstrap', 3],
  ]);
  expect(here!['montecarlo.csv'].trimEnd().split('\n')).toHaveLength(7);
  expect(here!['report.html']).toContain('<h2>Monte Carlo</h2>');
  expect(here!['report.html'].match(/data-histogram="/g)).toHaveLength(6);
}, 300_000);

test('stratd montecarlo names a bad flag and exits 2', async () => {
  const ran = await stratd(['montecarlo', '--data', tmp.path('none.jsonl'), '--ruin-drawdown', '2']);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toMatch(/--ruin-drawdown 2: a drawdown above 0 and at most 1/);
}, 120_000);
