import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { benchBacktestReplay } from './backtest-replay.bench.js';
import { benchCliStart } from './cli-start.bench.js';
import type { BenchResult } from './bench-result.js';
import { benchClientThroughput } from './client-throughput.bench.js';
import { benchDataReplay } from './data-replay.bench.js';
import { benchEngineMatching } from './engine-matching.bench.js';
import { machineDescription } from './machine.js';
import { benchOrderGovernor } from './order-governor.bench.js';
import { benchServerLoop } from './server-loop.bench.js';
import { benchSweep } from './sweep.bench.js';
import { benchChecks, checkLine } from './targets.js';
import { benchTickToOrder } from './tick-to-order.bench.js';
import { positiveIntegerSetting } from './bench-settings.js';

const USAGE = 'usage: npm run bench -- [NAME...] [--json FILE]   (names: engine server backtest data sweep client governor tick cli)';

/**
 * `npm run bench [NAME...] [--json FILE]`: prints the machine's description first, then runs every
 * benchmark (or the ones named) and prints its figures, one JSON line each; then issue 18's figures, each
 * beside its reference measured in the same run, its target and whether it was met. `--json FILE` writes
 * all of it to FILE. Figures only: nothing here fails on a number (exit 2 on a usage mistake only).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--json');
  const jsonFile = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && (jsonFile === undefined || jsonFile.startsWith('--'))) return usage('--json needs a FILE');
  const only = args.filter((a, i) => a !== '--json' && (at < 0 || i !== at + 1));
  const machine = machineDescription();
  process.stdout.write(`${JSON.stringify(machine)}\n`);
  const benches: ReadonlyArray<readonly [string, () => BenchResult | Promise<BenchResult>]> = [
    ['engine', () => benchEngineMatching()],
    ['server', () => benchServerLoop()],
    ['backtest', () => benchBacktestReplay()],
    ['data', () => benchDataReplay()],
    ['sweep', () => benchSweep()],
    ['client', () => benchClientThroughput()],
    ['governor', () => benchOrderGovernor()],
    ['tick', () => benchTickToOrder(tickUpdates())],
    ['cli', () => benchCliStart()],
  ];
  const unknown = only.filter((name) => !benches.some(([n]) => n === name));
  if (unknown.length > 0) return usage(`no bench named ${unknown.join(', ')}`);
  const results = new Map<string, BenchResult>();
  for (const [name, run] of benches) {
    if (only.length > 0 && !only.includes(name)) continue;
    const result = await run();
    results.set(name, result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  const checks = benchChecks(results);
  if (checks.length > 0) process.stdout.write(`\nissue 18 targets, each figure beside its reference in this run:\n${checks.map((c) => `  ${checkLine(c)}\n`).join('')}`);
  if (jsonFile !== undefined) {
    mkdirSync(dirname(jsonFile), { recursive: true });
    const report = { machine: machine.figures, results: [...results].map(([bench, r]) => ({ bench, ...r })), checks };
    writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`wrote ${jsonFile}\n`);
  }
}

/** `BENCH_TICK_UPDATES`: how many book ticker updates each tick-to-order run measures (default 1000; fewer for a quick profile). */
function tickUpdates(): number {
  return positiveIntegerSetting('BENCH_TICK_UPDATES', 1000);
}

function usage(problem: string): void {
  process.stderr.write(`npm run bench: ${problem}\n${USAGE}\n`);
  process.exitCode = 2;
}

await main();
