import { parseShardSpec, slicePositions, sliceWork } from '../../../src/sweep/shard/index.js';
import type { ShardMode, ShardSpec } from '../../../src/sweep/shard/index.js';

const items = (count: number): Array<{ id: string }> => Array.from({ length: count }, (_, k) => ({ id: `item-${k + 1}` }));
const spec = (index: number, count: number, mode: ShardMode): ShardSpec => ({ index, count, mode });

describe('--shard I/N', () => {
  it('reads I from 0 (as JOB_COMPLETION_INDEX) and the mode', () => {
    expect(parseShardSpec('0/3')).toEqual({ ok: true, value: { index: 0, count: 3, mode: 'round-robin' } });
    expect(parseShardSpec(' 2 / 3 ', 'contiguous')).toEqual({ ok: true, value: { index: 2, count: 3, mode: 'contiguous' } });
  });

  it.each(['3/3', '1/0', '-1/3', '1', 'a/b', '1/2/3', ''])('refuses %j, naming the flag and the rule', (text) => {
    const parsed = parseShardSpec(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain('0 ≤ I < N');
  });

  it('refuses an unknown mode', () => {
    const parsed = parseShardSpec('0/2', 'random');
    expect(parsed.ok ? '' : parsed.error.message).toContain('--shard-mode random: one of round-robin, contiguous');
  });
});

describe('slicing an ordered work list', () => {
  it.each<ShardMode>(['round-robin', 'contiguous'])('%s: every item in exactly one shard, in work order, for any list length and shard count', (mode) => {
    for (let total = 0; total <= 13; total++) {
      for (let count = 1; count <= 6; count++) {
        const slices = Array.from({ length: count }, (_, i) => slicePositions(total, spec(i, count, mode)));
        expect(slices.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, k) => k));
        for (const slice of slices) expect(slice).toEqual([...slice].sort((a, b) => a - b));
        // Balanced: shard sizes differ by at most one.
        const sizes = slices.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('round-robin deals item k to shard k mod N; contiguous gives each shard one unbroken run', () => {
    expect(sliceWork(items(7), spec(1, 3, 'round-robin')).map((i) => i.id)).toEqual(['item-2', 'item-5']);
    expect([0, 1, 2].map((i) => sliceWork(items(7), spec(i, 3, 'contiguous')).map((w) => w.id))).toEqual([
      ['item-1', 'item-2'],
      ['item-3', 'item-4'],
      ['item-5', 'item-6', 'item-7'],
    ]);
  });

  it('throws on a broken work list: an id twice, or one that is not a safe file name', () => {
    expect(() => sliceWork([{ id: 'a' }, { id: 'a' }], spec(0, 1, 'round-robin'))).toThrow('appears twice');
    expect(() => sliceWork([{ id: '../etc' }], spec(0, 1, 'round-robin'))).toThrow('not a safe file name');
  });
});
