import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * `bin/stratd.js` (needs `npm run build`) loads a command's implementation, and the heavy libraries,
 * only when they are used: `--help` and the control commands start without the simulator, the kernel,
 * Arrow, got, undici, zod, rxjs… A loader hook records every ES module the process loads, and the
 * process's CommonJS cache at exit every CommonJS file (the packages that load through require()).
 */
const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const HEAVY = ['apache-arrow', 'zod', 'got', 'undici', 'ws', 'rxjs', 'yaml', 'better-sqlite3', 'pino', 'prom-client', 'trading-signals', 'lossless-json'];

const HOOK = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.STRATD_TEST_LOADED, url + '\\n');
  return next(url, context);
}
`;
const AT_EXIT = `
const { appendFileSync } = require('node:fs');
const Module = require('node:module');
process.on('exit', () => appendFileSync(process.env.STRATD_TEST_LOADED, Object.keys(Module._cache).map((file) => 'cjs:' + file + '\\n').join('')));
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-cli-loading-'));
  writeFileSync(join(dir, 'hook.mjs'), HOOK);
  writeFileSync(join(dir, 'at-exit.cjs'), AT_EXIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Loaded {
  readonly code: number;
  readonly stdout: string;
  /** Package names under node_modules whose files were loaded, as ES modules or CommonJS. */
  readonly packages: ReadonlySet<string>;
  /** Files of stratd's own compiled sources (dist/src) loaded. */
  readonly own: readonly string[];
  readonly cjsFiles: number;
}

let runs = 0;
async function loadedBy(args: readonly string[]): Promise<Loaded> {
  const file = join(dir, `loaded-${runs++}.txt`);
  writeFileSync(file, '');
  let code = 0;
  let stdout = '';
  try {
    ({ stdout } = await run(process.execPath, ['--no-warnings', '--experimental-loader', pathToFileURL(join(dir, 'hook.mjs')).href, '-r', join(dir, 'at-exit.cjs'), BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', STRATD_TEST_LOADED: file },
    }));
  } catch (error: unknown) {
    const e = error as { code: number; stdout: string };
    code = e.code;
    stdout = e.stdout;
  }
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  const paths = lines.map((line) => (line.startsWith('cjs:') ? line.slice(4) : line.startsWith('file://') ? new URL(line).pathname : line));
  const packages = new Set<string>();
  for (const path of paths) {
    const at = path.lastIndexOf('/node_modules/');
    if (at < 0) continue;
    const parts = path.slice(at + '/node_modules/'.length).split('/');
    packages.add(parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  const own = [...new Set(paths.filter((path) => path.includes('/dist/src/')))];
  return { code, stdout, packages, own, cjsFiles: lines.filter((line) => line.startsWith('cjs:')).length };
}

const heavyIn = (loaded: Loaded): string[] => HEAVY.filter((name) => loaded.packages.has(name));

test('stratd --help and a command\'s --help load commander and no implementation', async () => {
  for (const args of [['--help'], ['call', '--help'], ['backtest', '--help'], ['sim', '--help'], ['run', '--help'], ['sweep', 'merge', '--help']]) {
    const loaded = await loadedBy(args);
    expect({ args, code: loaded.code }).toEqual({ args, code: 0 });
    expect(loaded.stdout).toMatch(/^Usage: stratd /);
    // The hook sees packages, ES modules and CommonJS alike: commander's ESM entry wraps its CommonJS files.
    expect(loaded.packages.has('commander')).toBe(true);
    expect(loaded.cjsFiles).toBeGreaterThan(0);
    expect({ args, heavy: heavyIn(loaded) }).toEqual({ args, heavy: [] });
    // Help texts name a few constants (rank metrics, kline intervals); the kernel, simulator, client, recorder and daemon stay unloaded.
    expect(loaded.own.filter((file) => /\/(engine|sim|venue|recording\/prepared|recording\/recorder|app\/daemon)\/|\/backtest\/run(ner)?\.js$/.test(file))).toEqual([]);
  }
});

test('stratd status --url loads neither the daemon config schemas nor YAML; with --config it reads them', async () => {
  // Port 1 on loopback: nothing listens, so the command fails after loading what it needs to try.
  const bare = await loadedBy(['status', '--url', 'http://127.0.0.1:1']);
  expect(bare.code).toBe(1);
  expect(heavyIn(bare)).toEqual([]);
  const config = join(dir, 'control.yml');
  writeFileSync(config, 'health:\n  port: 1\n');
  const withConfig = await loadedBy(['status', '--config', config]);
  expect(withConfig.code).toBe(1);
  expect(withConfig.packages.has('yaml')).toBe(true);
  expect(withConfig.packages.has('zod')).toBe(true);
});

test('a backtest with --no-cache loads no Arrow and starts no daemon', async () => {
  const loaded = await loadedBy(['backtest', '--data', SAMPLE, '--to', '1767225660000', '--no-cache', '--out', join(dir, 'backtest-out')]);
  expect(loaded.code).toBe(0);
  expect(loaded.stdout).toMatch(/fill sequence sha256/);
  expect(loaded.packages.has('apache-arrow')).toBe(false);
  expect(loaded.packages.has('better-sqlite3')).toBe(false);
  expect(loaded.packages.has('got')).toBe(false);
  expect(loaded.packages.has('undici')).toBe(false);
  expect(loaded.own.filter((file) => /\/app\/daemon\/daemon\.js$|\/sim\/simulated-exchange\.js$/.test(file))).toEqual([]);
  // The kernel did run: its modules were loaded.
  expect(loaded.own.some((file) => file.endsWith('/engine/kernel.js'))).toBe(true);
});
