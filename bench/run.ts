import { benchBacktestReplay } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';
import { benchClientThroughput } from './client-throughput.bench.js';
import { benchEngineMatching } from './engine-matching.bench.js';
import { machineDescription } from './machine.js';
import { benchOrderGovernor } from './order-governor.bench.js';
import { benchServerLoop } from './server-loop.bench.js';
import { benchTickToOrder } from './tick-to-order.bench.js';

/**
 * `npm run bench [name]`: prints the machine's description first, then runs every benchmark (or the one
 * named) and prints its figures, one JSON line each.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  process.stdout.write(`${JSON.stringify(machineDescription())}\n`);
  const benches: ReadonlyArray<readonly [string, () => BenchResult | Promise<BenchResult>]> = [
    ['engine', () => benchEngineMatching()],
    ['server', () => benchServerLoop()],
    ['backtest', () => benchBacktestReplay()],
    ['client', () => benchClientThroughput()],
    ['governor', () => benchOrderGovernor()],
    ['tick', () => benchTickToOrder()],
  ];
  for (const [name, run] of benches) {
    if (only !== undefined && only !== name) continue;
    const result = await run();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}

await main();
