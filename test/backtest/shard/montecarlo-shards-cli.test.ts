import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { T0, tempDir } from '../backtest-support.js';
import { filesOf, manifestOf, printed, requireBuild, stratd, succeeded } from './cli-support.js';

/** The shipped sample's first 6 minutes (as many distinct outcomes as 10: misplaced ones would show). */
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const TO = String(T0 + 6 * 60_000);

const tmp = tempDir();
afterAll(() => tmp.remove());

test('Monte Carlo in three shard processes, merged, writes byte-identical files to the whole run; a missing shard is refused', async () => {
  requireBuild();
  // 3 shuffled and 3 bootstrapped scenarios.
  const common = ['--data', SAMPLE, '--to', TO, '--scenarios', '3', '--seed', '7', '--block', '2m', '--ruin-drawdown', '1%', '--workers', '0'];
  const whole = tmp.path('whole');
  const shards = [0, 1, 2].map((i) => tmp.path(`shard-${i}`));
  const [single, ...parts] = await Promise.all([
    stratd(['montecarlo', ...common, '--out', whole]),
    ...shards.map((out, i) => stratd(['montecarlo', ...common, '--shard', `${i}/3`, '--out', out])),
  ]);
  for (const ran of [single!, ...parts]) expect(succeeded(ran)).toEqual({ code: 0, stderr: '' });

  // Round-robin over the work list shuffle-1…3, bootstrap-1…3: each shard ran two scenarios, one of each method.
  expect(shards.map((dir) => manifestOf(dir).items)).toEqual([
    ['shuffle-1', 'bootstrap-1'],
    ['shuffle-2', 'bootstrap-2'],
    ['shuffle-3', 'bootstrap-3'],
  ]);
  expect(parts[2]?.stdout).toMatch(/^shard 2\/3 \(round-robin\): 2 of 6 scenarios$/m);
  expect(parts[0]?.stderr).toContain('montecarlo: 2/2 scenarios');

  // The merge and the merge with a shard left out at once: separate processes, separate --out.
  const merged = tmp.path('merged');
  const [merge, partial] = await Promise.all([
    stratd(['montecarlo', 'merge', shards[1]!, shards[2]!, shards[0]!, '--out', merged]),
    stratd(['montecarlo', 'merge', shards[0]!, shards[1]!, '--out', tmp.path('partial')]),
  ]);
  expect(succeeded(merge)).toEqual({ code: 0, stderr: '' });
  const expected = filesOf(whole);
  expect(expected.map(([name]) => name)).toEqual(expect.arrayContaining(['montecarlo.csv', 'montecarlo.json', 'report.html']));
  expect(filesOf(merged).map(([name, bytes]) => [name, bytes.toString('utf8')])).toEqual(expected.map(([name, bytes]) => [name, bytes.toString('utf8')]));
  // The scenarios ended differently, so outcomes put in the wrong place would show.
  const finals = readFileSync(join(whole, 'montecarlo.csv'), 'utf8').trimEnd().split('\n').slice(1).map((line) => line.split(',')[3]);
  expect(finals).toHaveLength(6);
  expect(new Set(finals).size).toBeGreaterThan(2);
  expect(printed(merge.stdout)).toBe(printed(single!.stdout));

  expect(partial.code).toBe(2);
  expect(partial.stderr).toContain('2 of 6 items are in none of the folders (shuffle-3, bootstrap-3)');
  expect(existsSync(tmp.path('partial'))).toBe(false);
}, 240_000);
