import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { T0, tempDir } from '../backtest-support.js';
import { filesOf, manifestOf, printed, requireBuild, stratd, succeeded } from './cli-support.js';

/** The shipped sample's first 8 minutes (the shortest span two windows fit: out-of-sample parts of 2 min). */
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const TO = String(T0 + 8 * 60_000);

const tmp = tempDir();
afterAll(() => tmp.remove());

test('walk-forward in three shard processes, merged, writes byte-identical files to the whole walk-forward; a missing shard is refused', async () => {
  requireBuild();
  // A copy, so the test can change it after the shards ran.
  const recording = tmp.path('market.jsonl.gz');
  copyFileSync(SAMPLE, recording);
  const grid = tmp.path('grid.yml');
  // 2 windows × 3 combinations = 6 in-sample backtests; ranked by fills, so the windows may choose differently.
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [1, 4, 8] }\n');
  const common = ['--data', recording, '--grid', grid, '--to', TO, '--windows', '2', '--in-sample-ratio', '2', '--rank', 'fills', '--no-cache', '--workers', '0'];
  const whole = tmp.path('whole');
  const shards = [0, 1, 2].map((i) => tmp.path(`shard-${i}`));
  const [single, ...parts] = await Promise.all([
    stratd(['walkforward', ...common, '--out', whole]),
    ...shards.map((out, i) => stratd(['walkforward', ...common, '--shard', `${i}/3`, '--shard-mode', 'contiguous', '--out', out])),
  ]);
  for (const ran of [single!, ...parts]) expect(succeeded(ran)).toEqual({ code: 0, stderr: '' });

  // Contiguous: two in-sample backtests each; no shard ran an out-of-sample backtest.
  expect(shards.map((dir) => manifestOf(dir).items)).toEqual([
    ['window-1-combination-1', 'window-1-combination-2'],
    ['window-1-combination-3', 'window-2-combination-1'],
    ['window-2-combination-2', 'window-2-combination-3'],
  ]);
  expect(parts[1]?.stdout).toMatch(/^shard 1\/3 \(contiguous\): 2 of 6 in-sample backtests$/m);
  for (const ran of parts) expect(ran.stderr).not.toContain('out-of-sample');

  // The merge and the merge with a shard left out at once: separate processes, separate --out.
  const merged = tmp.path('merged');
  const [merge, partial] = await Promise.all([
    stratd(['walkforward', 'merge', shards[2]!, shards[0]!, shards[1]!, '--out', merged, '--workers', '0']),
    stratd(['walkforward', 'merge', shards[0]!, shards[2]!, '--out', tmp.path('partial')]),
  ]);
  expect(succeeded(merge)).toEqual({ code: 0, stderr: '' });
  expect(merge.stderr).toContain('walkforward: out-of-sample 2/2 backtests');
  const expected = filesOf(whole);
  expect(expected.map(([name]) => name)).toEqual(['report.html', 'walkforward-equity.csv', 'walkforward-in-sample.csv', 'walkforward.csv', 'walkforward.json']);
  expect(filesOf(merged).map(([name, bytes]) => [name, bytes.toString('utf8')])).toEqual(expected.map(([name, bytes]) => [name, bytes.toString('utf8')]));
  // The in-sample backtests differ, so rows put in the wrong place would show.
  const [header, ...rows] = readFileSync(join(whole, 'walkforward-in-sample.csv'), 'utf8').trimEnd().split('\n');
  const column = header!.split(',').indexOf('fills');
  const fills = rows.map((line) => line.split(',')[column]);
  expect(new Set(fills).size).toBeGreaterThan(1);
  expect(printed(merge.stdout)).toBe(printed(single!.stdout));

  expect(partial.code).toBe(2);
  expect(partial.stderr).toContain('2 of 6 items are in none of the folders (window-1-combination-3, window-2-combination-1)');
  expect(existsSync(tmp.path('partial'))).toBe(false);

  // The merge backtests again: a recording changed since the shards ran is refused before that.
  writeFileSync(recording, 'not the recording the shards ran on\n');
  const changed = await stratd(['walkforward', 'merge', ...shards, '--out', tmp.path('changed')]);
  expect(changed.code).toBe(2);
  expect(changed.stderr).toContain(`the recordings ${recording} are not the bytes the shards ran on`);
  expect(existsSync(tmp.path('changed'))).toBe(false);
}, 240_000);
