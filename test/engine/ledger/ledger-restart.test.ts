import { dec } from '../../../src/core/decimal.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { tmpStateDir } from '../../store/tmp-state-dir.js';
import { BTC, closeLong, KernelRig, marketBuy, scripted, World } from '../kernel/kernel-support.js';

/** A World whose state lives in a real state file (stratd.db), reopened by the next process. */
class FileWorld extends World {
  override store: StateStore;
  constructor(dir: string) {
    super();
    this.store = open(dir);
  }
  /** The process is gone without stopping: its state file is all the next one finds. */
  reopen(dir: string): void {
    this.store.close();
    this.store = open(dir);
  }
}

function open(dir: string): StateStore {
  const opened = StateStore.open(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

describe('ledgers in the state file', () => {
  test('two strategies on one symbol; the process dies mid-run; the next one rebuilds both ledgers from the file and each still manages only its own', async () => {
    const tmp = tmpStateDir();
    try {
      const world = new FileWorld(tmp.dir);
      const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('3', 'entry')) });
      const beta = scripted('beta', { onStart: (ctx) => ctx.emit(marketBuy('2', 'entry')) });
      const first = new KernelRig(world, { strategies: [alpha, beta] });
      await first.start();
      const before = first.kernel.ledgers.all().map((p) => ({ ...p }));
      expect(before.filter((p) => p.qty.gt(0)).map((p) => [p.owner, p.qty.toFixed()]).sort()).toEqual([
        ['alpha', '3'],
        ['beta', '2'],
      ]);
      // No stop: the kernel is abandoned with its orders and ledgers as they are.
      first.detach();
      world.reopen(tmp.dir);

      const alpha2 = scripted('alpha');
      const beta2 = scripted('beta');
      const second = new KernelRig(world, { strategies: [alpha2, beta2] });
      await second.start();
      expect(second.kernel.ledgers.all()).toEqual(before);
      expect(alpha2.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
      expect(beta2.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('2');

      // After the restart, beta closing "its whole position" still closes only its 2.
      beta2.emit(closeLong());
      await second.settle();
      expect(second.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
      expect(alpha2.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
      expect(beta2.ctx().position(BTC, 'LONG')?.qty.eq(dec(0))).toBe(true);
      await second.stop(false);
      world.store.close();
    } finally {
      tmp.remove();
    }
  });
});
