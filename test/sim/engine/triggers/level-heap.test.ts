import { FixedEntry } from '../../../../src/sim/engine/triggers/fixed-entry.js';
import { LevelHeap } from '../../../../src/sim/engine/triggers/level-heap.js';
import { Prng } from '../../../../src/sim/market-stream/prng.js';

function entry(seq: number, stop: number, direction: 'RISING' | 'FALLING' = 'RISING'): FixedEntry {
  return new FixedEntry(`e${seq}`, seq, 'BTC-SWAP-USDT', 'CONTRACT_PRICE', direction, stop);
}

/** Pops everything: the ids in heap order. */
function drain(heap: LevelHeap): string[] {
  const out: string[] = [];
  for (let top = heap.top(); top !== undefined; top = heap.top()) {
    out.push(top.id);
    heap.remove(top);
  }
  return out;
}

describe('LevelHeap', () => {
  it('orders by key, then registration sequence; FALLING keys are negated stops', () => {
    const heap = new LevelHeap();
    [entry(0, 30), entry(1, 10), entry(2, 20), entry(3, 10)].forEach((e) => heap.push(e));
    expect(drain(heap)).toEqual(['e1', 'e3', 'e2', 'e0']);
    [entry(4, 30, 'FALLING'), entry(5, 10, 'FALLING'), entry(6, 30, 'FALLING')].forEach((e) => heap.push(e));
    expect(drain(heap)).toEqual(['e4', 'e6', 'e5']);
  });

  it.each([1, 2, 3])('stays ordered through random pushes and removals anywhere (seed %d)', (seed) => {
    const prng = new Prng(seed, 'level-heap');
    const heap = new LevelHeap();
    let live: FixedEntry[] = [];
    for (let seq = 0; seq < 3000; seq++) {
      if (live.length > 0 && prng.int(0, 2) === 0) {
        const victim = live[prng.int(0, live.length - 1)];
        if (victim === undefined) continue;
        heap.remove(victim);
        live = live.filter((e) => e !== victim);
      } else {
        const e = entry(seq, prng.int(0, 200));
        heap.push(e);
        live.push(e);
      }
      const best = live.reduce<FixedEntry | undefined>((min, e) => (min === undefined || e.key < min.key || (e.key === min.key && e.seq < min.seq) ? e : min), undefined);
      if (heap.top() !== best) throw new Error(`step ${seq}: heap top ${heap.top()?.id} is not ${best?.id}`);
    }
    expect(heap.size).toBe(live.length);
    expect(drain(heap)).toEqual([...live].sort((a, b) => a.key - b.key || a.seq - b.seq).map((e) => e.id));
  });
});
