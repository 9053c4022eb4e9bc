import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../../../src/model/catalog-mirror.js';
import type { ShardMode, ShardRunIdentity } from '../../../src/sweep/shard/index.js';
import { mergeShards, planShard, writeShardOutput } from '../../../src/sweep/shard/index.js';
import { tempDir } from '../backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const RUN: ShardRunIdentity = {
  kind: 'monte-carlo',
  stratdVersion: '1.2.3',
  recordingHash: 'a'.repeat(64),
  configHash: 'b'.repeat(64),
  context: { scenarios: 7, ruinAt: 0.5 },
};
const EXPECT = { kind: 'monte-carlo', stratdVersion: '1.2.3' };
const WORK = Array.from({ length: 7 }, (_, k) => ({ id: `scenario-${k + 1}`, seed: 100 + k }));

let runs = 0;
/** Runs shards `indexes` of `count` of the work (each result: its seed squared) into fresh folders. */
function runShards(count: number, indexes: readonly number[], run: ShardRunIdentity = RUN, mode: ShardMode = 'round-robin'): string[] {
  runs++;
  return indexes.map((index) => {
    const plan = planShard(WORK, { index, count, mode }, run);
    const dir = tmp.path(`run-${runs}-shard-${index}`);
    writeShardOutput(dir, plan.manifest, new Map<string, JsonValue>(plan.items.map((item) => [item.id, { seed: item.seed, square: item.seed * item.seed }])));
    return dir;
  });
}

const expected = WORK.map((w) => ({ id: w.id, value: { seed: w.seed, square: w.seed * w.seed } }));
const refusal = (dirs: readonly string[], expect = EXPECT): string => {
  const merged = mergeShards(dirs, expect);
  return merged.ok ? 'merged' : merged.error;
};

describe('merging shard output folders', () => {
  it.each<ShardMode>(['round-robin', 'contiguous'])('%s: gives every item in work order, whatever the folders’ order', (mode) => {
    const dirs = runShards(3, [0, 1, 2], RUN, mode);
    const merged = mergeShards([dirs[2]!, dirs[0]!, dirs[1]!], EXPECT);
    expect(merged).toEqual({ ok: true, value: { kind: 'monte-carlo', stratdVersion: '1.2.3', recordingHash: RUN.recordingHash, configHash: RUN.configHash, context: RUN.context, results: expected } });
  });

  it('refuses a missing shard, naming the items and the shards given', () => {
    expect(refusal(runShards(3, [0, 2]))).toBe('2 of 7 items are in none of the folders (scenario-2, scenario-5); given shards 0/3, 2/3 of 3: is a shard missing or unfinished?');
  });

  it('refuses an item in two folders (a shard given twice, or shards of two counts)', () => {
    const [zero] = runShards(3, [0]);
    const others = runShards(2, [0, 1]);
    expect(refusal([zero!, zero!])).toMatch(/^scenario-1 is in both .*shard-0 \(shard 0\/3\) and .*shard-0 \(shard 0\/3\)/);
    expect(refusal([zero!, ...others])).toMatch(/^scenario-1 is in both .* \(shard 0\/3\) and .* \(shard 0\/2\)/);
  });

  it.each<[string, Partial<ShardRunIdentity>, string]>([
    ['recordings', { recordingHash: 'c'.repeat(64) }, 'the recordings differ (cccccccccccc against aaaaaaaaaaaa)'],
    ['configurations', { configHash: 'd'.repeat(64) }, 'the configurations (strategies, params, grid, risk limits, account, latency) differ'],
    ['output settings', { context: { scenarios: 7, ruinAt: 0.3 } }, 'the output settings differ'],
    ['versions', { stratdVersion: '1.2.4' }, 'the stratd versions differ (1.2.4 against 1.2.3)'],
    ['kinds', { kind: 'walk-forward' }, 'the kinds of work differ'],
  ])('refuses shards of different %s', (_what, change, message) => {
    const [zero] = runShards(2, [0]);
    const [one] = runShards(2, [1], { ...RUN, ...change });
    expect(refusal([zero!, one!])).toContain(`${one!} and ${zero!} are not shards of one run: ${message}`);
  });

  it('refuses shards of another kind or stratd version than the merging program', () => {
    const dirs = runShards(1, [0]);
    expect(refusal(dirs, { kind: 'sweep', stratdVersion: '1.2.3' })).toContain('holds monte-carlo results, not sweep results');
    expect(refusal(dirs, { kind: 'monte-carlo', stratdVersion: '2.0.0' })).toContain('written by stratd 1.2.3, this is stratd 2.0.0');
  });

  it('refuses an unfinished folder, a broken manifest and a missing item file, naming the file', () => {
    const [dir] = runShards(1, [0]);
    rmSync(join(dir!, 'items', 'scenario-3.json'));
    expect(refusal([dir!])).toContain(`${join(dir!, 'items', 'scenario-3.json')}: missing, though`);
    const empty = tmp.path('empty');
    expect(refusal([empty])).toBe(`${empty}: no manifest.json (not a shard output folder, or its shard has not finished)`);
    const [broken] = runShards(1, [0]);
    writeFileSync(join(broken!, 'manifest.json'), JSON.stringify({ format: 'stratd-shard/1', kind: 'x' }));
    expect(refusal([broken!])).toMatch(/manifest\.json: stratdVersion: /);
    expect(refusal([])).toBe('no shard folders to merge');
  });

  it('a shard written again (a retried pod) keeps only its new items', () => {
    const dir = tmp.path('retried');
    const first = planShard(WORK, { index: 0, count: 2, mode: 'round-robin' }, RUN);
    writeShardOutput(dir, first.manifest, new Map<string, JsonValue>(first.items.map((i) => [i.id, i.seed])));
    const again = planShard(WORK, { index: 0, count: 3, mode: 'round-robin' }, RUN);
    writeShardOutput(dir, again.manifest, new Map<string, JsonValue>(again.items.map((i) => [i.id, i.seed])));
    expect(readdirSync(join(dir, 'items')).sort()).toEqual(['scenario-1.json', 'scenario-4.json', 'scenario-7.json']);
    expect(existsSync(join(dir, 'manifest.json.partial'))).toBe(false);
  });
});
