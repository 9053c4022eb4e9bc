import { Worker } from 'node:worker_threads';
import { median } from './bench-settings.js';

/**
 * What this machine gives two threads at best: the same 4 units of plain JavaScript work done by one
 * worker thread, then split over two, as a sweep splits its 4 combinations. `compute` allocates nothing
 * (only the cores count); `allocating` makes short-lived objects and keeps a few thousand alive, as a
 * replay does (the cores, the caches and V8's garbage collector, whose helper threads lose the idle
 * core they had beside one worker). The sweep's speed-up is judged beside these.
 */
const UNITS = 4;
const KERNELS = {
  compute: `let x = 1; for (let i = 0; i < n; i++) x = (Math.imul(x, 1103515245) + 12345) >>> 0; return x;`,
  allocating: `const kept = new Map(); let s = 0;
    for (let i = 0; i < n; i++) { const o = { t: i, p: i * 0.5, q: [i, i + 1], tag: 'e' + (i & 1023) }; kept.set(i & 4095, o); s += o.q[1]; }
    return s + kept.size;`,
} as const;
/** Iterations of a unit: about half a second of one thread on a 2-vCPU EPYC VM. */
const ITERATIONS: Readonly<Record<keyof typeof KERNELS, number>> = { compute: 400_000_000, allocating: 6_000_000 };

function thread(kernel: keyof typeof KERNELS, units: number): Promise<void> {
  const source = `const { parentPort, workerData } = require('node:worker_threads');
    const unit = (n) => { ${KERNELS[kernel]} };
    let sink = 0;
    for (let u = 0; u < workerData.units; u++) sink += unit(workerData.n);
    parentPort.postMessage(sink);`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { units, n: ITERATIONS[kernel] } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
}

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** Speed-up of 2 threads over 1 for each kernel: the median of `rounds` interleaved pairs. */
export async function parallelFloor(rounds: number): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const kernel of Object.keys(KERNELS) as Array<keyof typeof KERNELS>) {
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const one = await seconds(() => thread(kernel, UNITS));
      const two = await seconds(() => Promise.all([thread(kernel, UNITS / 2), thread(kernel, UNITS / 2)]));
      ratios.push(one / two);
    }
    figures[`parallelFloor.${kernel}SpeedUp`] = Number(median(ratios).toFixed(2));
  }
  return figures;
}
