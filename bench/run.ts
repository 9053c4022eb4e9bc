import { benchBacktestReplay } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';
import { benchEngineMatching } from './engine-matching.bench.js';
import { benchServerLoop } from './server-loop.bench.js';

/** `npm run bench`: runs every benchmark and prints its figures (one JSON line each, then a table). */
async function main(): Promise<void> {
  const only = process.argv[2];
  const benches: ReadonlyArray<readonly [string, () => BenchResult | Promise<BenchResult>]> = [
    ['engine', () => benchEngineMatching()],
    ['server', () => benchServerLoop()],
    ['backtest', () => benchBacktestReplay()],
  ];
  for (const [name, run] of benches) {
    if (only !== undefined && only !== name) continue;
    const result = await run();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}

await main();
