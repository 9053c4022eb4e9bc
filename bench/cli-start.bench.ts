import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { BenchResult } from './bench-result.js';
import { median, positiveIntegerSetting } from './bench-settings.js';

/**
 * Run in the child: at exit, its whole process's CPU time (every thread: getrusage) goes to fd 3; the CLI
 * given as the first argument is imported with the rest as its arguments, exactly as `node bin/stratd.js …`
 * runs it (process.argv[1] is the script). Without an argument it imports nothing: the floor of a bare
 * `node` start.
 */
const PROBE = `
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
process.on('exit', () => {
  const cpu = process.cpuUsage();
  writeSync(3, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 }));
});
const script = process.argv[1];
if (script !== undefined) await import(pathToFileURL(script).href);
`;

/** One start of the CLI (or of the bare floor): wall and CPU milliseconds. */
interface Start {
  readonly wallMs: number;
  readonly cpuMs: number;
}

const COMMANDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['help', ['bin/stratd.js', '--help']],
  ['callHelp', ['bin/stratd.js', 'call', '--help']],
];

function start(args: readonly string[]): Start {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wallMs = performance.now() - started;
  const report = run.output[3];
  if (run.status !== 0 || typeof report !== 'string' || report === '') throw new Error(`node ${args.join(' ')} failed (exit ${String(run.status)}): ${String(run.stderr)}`);
  const parsed: unknown = JSON.parse(report);
  const cpuMs = typeof parsed === 'object' && parsed !== null && 'cpuMs' in parsed && typeof parsed.cpuMs === 'number' ? parsed.cpuMs : Number.NaN;
  return { wallMs, cpuMs };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * `stratd --help` and `stratd call --help` start-up (the built CLI, bin/stratd.js), each beside a bare
 * `node` start in the same run: `BENCH_CLI_ROUNDS` rounds (default 10), the three interleaved within a
 * round so load swings hit them alike; medians of wall and CPU milliseconds (CPU: the child's every
 * thread). The figure to read is `…OverFloor`, the start-up the CLI adds to Node's own.
 */
export function benchCliStart(): BenchResult {
  const rounds = cliRounds();
  const load = loadavg()[0] ?? 0;
  const samples = new Map<string, Start[]>([['floor', []], ...COMMANDS.map(([name]) => [name, []] as [string, Start[]])]);
  start(COMMANDS[0]![1]); // warms the file cache: the first start reads the modules from disk
  for (let round = 0; round < rounds; round++) {
    samples.get('floor')!.push(start([]));
    for (const [name, args] of COMMANDS) samples.get(name)!.push(start(args));
  }
  const figures: Record<string, number> = { rounds, load1m: round1(load) };
  const floor = samples.get('floor')!;
  const floorWall = median(floor.map((s) => s.wallMs));
  const floorCpu = median(floor.map((s) => s.cpuMs));
  figures['floorWallMs'] = round1(floorWall);
  figures['floorCpuMs'] = round1(floorCpu);
  for (const [name] of COMMANDS) {
    const runs = samples.get(name)!;
    const wall = median(runs.map((s) => s.wallMs));
    const cpu = median(runs.map((s) => s.cpuMs));
    figures[`${name}WallMs`] = round1(wall);
    figures[`${name}CpuMs`] = round1(cpu);
    figures[`${name}CpuOverFloorMs`] = round1(cpu - floorCpu);
    figures[`${name}WallOverFloorMs`] = round1(wall - floorWall);
  }
  return { name: 'cli-start', figures };
}

/** `BENCH_CLI_ROUNDS`: how many times each start is measured (default 10). */
function cliRounds(): number {
  return positiveIntegerSetting('BENCH_CLI_ROUNDS', 10);
}
