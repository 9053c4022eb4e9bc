import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shardManifestSchema } from '../../../src/sweep/shard/index.js';
import { tempDir, writeGenerated } from '../backtest-support.js';

/** The built CLI: each shard is its own process, as on a cluster. */
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const DIST_CLI = join(process.cwd(), 'dist', 'src', 'app', 'commands', 'cli.js');

const tmp = tempDir();
afterAll(() => tmp.remove());

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function stratd(args: readonly string[]): Promise<Ran> {
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

const succeeded = (ran: Ran): { code: number | null; stderr: string } => ({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr });
/** stdout without the lines naming output files (their directory differs). */
const table = (stdout: string): string => stdout.replace(/^wrote .*$/gm, '');
const manifestOf = (dir: string): ReturnType<typeof shardManifestSchema.parse> => shardManifestSchema.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));

test('three shards run as three processes and merged write byte-identical sweep.csv and report.html to the whole sweep', async () => {
  if (!existsSync(DIST_CLI)) throw new Error(`${DIST_CLI} is missing: run \`npm run build\` before this test (npm test does)`);
  const recording = await writeGenerated(tmp.path('market.jsonl'), 11, 2);
  const grid = tmp.path('grid.yml');
  // 3 × 2 = 6 combinations; ranked by sharpe and a heat map with the axes swapped: the settings travel in the manifests.
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [2, 5, 8], requoteBps: [2, 4] }\n');
  const common = ['--data', recording, '--grid', grid, '--rank', 'sharpe', '--heatmap', 'requoteBps,halfSpreadBps'];
  const whole = tmp.path('whole');
  const shards = [0, 1, 2].map((i) => tmp.path(`shard-${i}`));
  const [single, ...parts] = await Promise.all([
    stratd(['sweep', ...common, '--workers', '1', '--out', whole]),
    ...shards.map((out, i) => stratd(['sweep', ...common, '--workers', '0', '--shard', `${i}/3`, '--out', out])),
  ]);
  for (const ran of [single!, ...parts]) expect(succeeded(ran)).toEqual({ code: 0, stderr: '' });

  // Round-robin: combination k (from 1) in shard (k − 1) mod 3; each shard one result file per combination.
  expect(shards.map((dir) => manifestOf(dir).items)).toEqual([
    ['combination-1', 'combination-4'],
    ['combination-2', 'combination-5'],
    ['combination-3', 'combination-6'],
  ]);
  for (const dir of shards) for (const id of manifestOf(dir).items) expect(existsSync(join(dir, 'items', `${id}.json`))).toBe(true);
  expect(parts[1]?.stdout).toMatch(/^shard 1\/3 \(round-robin\): 2 of 6 combinations$/m);

  // Folders in any order.
  // The merge and the merge with a shard left out at once: separate processes, separate --out.
  const merged = tmp.path('merged');
  const [merge, partial] = await Promise.all([
    stratd(['sweep', 'merge', shards[2]!, shards[0]!, shards[1]!, '--out', merged]),
    stratd(['sweep', 'merge', shards[0]!, shards[2]!, '--out', tmp.path('partial')]),
  ]);
  expect(succeeded(merge)).toEqual({ code: 0, stderr: '' });
  for (const file of ['sweep.csv', 'report.html']) {
    const one = readFileSync(join(whole, file));
    expect([file, readFileSync(join(merged, file)).equals(one)]).toEqual([file, true]);
  }
  const lines = readFileSync(join(whole, 'sweep.csv'), 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(7);
  // The combinations traded differently (their fills' hashes differ), so rows put in the wrong place would show.
  expect(new Set(lines.slice(1).map((line) => line.split(',').at(-1))).size).toBeGreaterThan(2);
  expect(table(merge.stdout)).toBe(table(single!.stdout));
  expect(table(merge.stdout)).toMatch(/^ranked by sharpe$/m);

  // A shard left out: refused, naming the missing combinations, nothing written.
  expect(partial.code).toBe(2);
  expect(partial.stderr).toContain('2 of 6 items are in none of the folders (combination-2, combination-5)');
  expect(existsSync(tmp.path('partial'))).toBe(false);
}, 240_000);
