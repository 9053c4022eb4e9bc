import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preparedDirOf } from '../../src/recording/prepared/index.js';
import { tempDir, writeGenerated } from './backtest-support.js';

/** The built CLI (worker threads load compiled JS; npm test builds before jest). */
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const DIST_WORKER = join(process.cwd(), 'dist', 'src', 'sweep', 'worker.js');

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

/** stdout of `stratd sweep` without the lines naming output files (their directory differs). */
const table = (stdout: string): string => stdout.replace(/^wrote .*$/gm, '');

test('stratd sweep writes byte-identical outputs with 1 and 2 worker threads, the prepared form built while the workers start', async () => {
  if (!existsSync(DIST_WORKER)) throw new Error(`${DIST_WORKER} is missing: run \`npm run build\` before this test (npm test does)`);
  const recording = await writeGenerated(tmp.path('market.jsonl'), 6, 2);
  const grid = tmp.path('grid.yml');
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [2, 5], requoteBps: [2, 4] }\n');
  const sweep = async (workers: number, out: string): Promise<{ workers: number; csv: Buffer; stdout: string; stderr: string }> => {
    const ran = await stratd(['sweep', '--data', recording, '--grid', grid, '--workers', String(workers), '--out', tmp.path(out)]);
    expect({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ code: 0, stderr: '' });
    return { workers, csv: readFileSync(join(tmp.path(out), 'sweep.csv')), stdout: table(ran.stdout), stderr: ran.stderr };
  };
  // The first run alone (it builds the prepared form), the other two at once (both read it).
  const first = await sweep(1, 'out-0');
  const runs = [first, ...(await Promise.all([sweep(2, 'out-1'), sweep(2, 'out-2')]))];
  // The first run built the prepared form (while its worker started); the others read it.
  expect(readdirSync(preparedDirOf(recording)).filter((name) => name.endsWith('.arrow'))).toHaveLength(1);
  const [one, two, again] = runs;
  expect(one?.csv.toString('utf8').trimEnd().split('\n')).toHaveLength(5);
  expect(two?.csv.equals(one?.csv ?? Buffer.alloc(0))).toBe(true);
  expect(again?.csv.equals(one?.csv ?? Buffer.alloc(0))).toBe(true);
  expect(two?.stdout).toBe(one?.stdout);
  expect(one?.stderr).toMatch(/^sweep: worker 1: 4 combinations, [\d,]+ events in [\d.]+ s, [\d,]+ events\/s$/m);
  expect(two?.stderr).toMatch(/^sweep: worker 2: \d combinations/m);
  expect(two?.stderr).toMatch(/^sweep: recordings read once on the main thread: [\d,]+ events in [\d.]+ s, shared with the workers$/m);
  // Where each worker's time went, and the process's CPU (schedstat figures on Linux only).
  if (process.platform === 'linux') {
    expect(two?.stderr).toMatch(/^sweep: worker 2 cost: CPU [\d.]+ s, waited for a core [\d.]+ s, GC [\d.]+ s, loading [\d.]+ s; started in [\d.]+ s, first event at [\d.]+ s, idle at the end [\d.]+ s$/m);
    expect(two?.stderr).toMatch(/^sweep: process CPU [\d.]+ s: main thread [\d.]+ s, workers [\d.]+ s, other threads [\d.]+ s$/m);
  }
}, 240_000);
