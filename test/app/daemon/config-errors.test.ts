import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareRun } from '../../../src/app/commands/run.js';
import type { ConfigError } from '../../../src/settings/config-error.js';
import type { Environment } from '../../../src/settings/secrets.js';
import { defaultYaml, liveYaml, writeConfig } from './daemon-harness.js';

/**
 * A mistake in the daemon's YAML stops `stratd run` before anything starts, naming the file, the
 * line and column, the path and the reason: through `prepareRun` (config and strategy modules), and
 * through the built CLI (exit code 2, the message on stderr).
 */
const BIN = fileURLToPath(new URL('../../../bin/stratd.js', import.meta.url));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-config-errors-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Line and column (1-based) of `needle` in `text`: where the error must point. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`${needle} is not in the file`);
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: (before[before.length - 1] ?? '').length + 1 };
}

let counter = 0;
async function prepareFailure(text: string, env: Environment = {}): Promise<{ error: ConfigError; file: string }> {
  counter += 1;
  const file = writeConfig(dir, `config-${counter}.yml`, text);
  const prepared = await prepareRun({ config: file }, env);
  if (prepared.ok) throw new Error('expected a config error');
  return { error: prepared.error, file };
}

const LIVE_ENV: Environment = { TEST_SIM_BASE_URL: 'http://127.0.0.1:9', TEST_SIM_STREAM_URL: 'ws://127.0.0.1:9', TEST_API_KEY: 'k', TEST_API_SECRET: 's' };

describe('stratd run: config errors through prepareRun', () => {
  it('the packaged default (paper, two example strategies) prepares without error', async () => {
    counter += 1;
    const prepared = await prepareRun({ config: writeConfig(dir, `config-${counter}.yml`, defaultYaml(join(dir, 'state'))) }, {});
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.strategies.map((s) => s.id)).toEqual(['quoter-btc', 'breakout-eth']);
    expect(prepared.value.config.venue.mode).toBe('paper');
  });

  it('an unknown strategy module', async () => {
    const text = defaultYaml(join(dir, 'state'), { from: 'module: spread-quoter', to: 'module: no-such-strategy' });
    const { error, file } = await prepareFailure(text);
    expect(error.location).toEqual({ file, ...positionOf(text, 'no-such-strategy'), path: 'strategies[0].module' });
    expect(error.reason).toContain('unknown strategy module "no-such-strategy"');
  });

  it('a strategy module whose marketEvents names no market event type', async () => {
    const folder = join(dir, 'bad-kinds');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(folder, 'index.js'),
      "export default { style: 'handlers', name: 'bad-kinds', description: 'x', params: { safeParse: (v) => ({ success: true, data: v }) }, marketEvents: ['market.trades'], create: () => ({}) };\n",
    );
    const text = defaultYaml(join(dir, 'state'), { from: 'module: spread-quoter', to: `module: ${folder}` });
    const { error } = await prepareFailure(text);
    expect(error.reason).toContain('marketEvents must list market event types');
  });

  it('a param the strategy’s own schema refuses (spread-quoter quantity: -1)', async () => {
    const text = defaultYaml(join(dir, 'state'), { from: 'quantity: 1 ', to: 'quantity: -1 ' });
    const { error, file } = await prepareFailure(text);
    expect(error.location).toEqual({ file, ...positionOf(text, '-1 '), path: 'strategies[0].params.quantity' });
    expect(error.reason).toBe('must be greater than 0, got -1');
  });

  it('a bad cron expression', async () => {
    const text = defaultYaml(join(dir, 'state'), { from: 'reconcile: "*/5 * * * *"', to: 'reconcile: "every five minutes"' });
    const { error, file } = await prepareFailure(text);
    expect(error.location).toEqual({ file, ...positionOf(text, '"every five minutes"'), path: 'jobs.reconcile' });
    expect(error.reason).toContain('not a cron expression');
  });

  it('a credential variable missing from the environment in live mode', async () => {
    const text = liveYaml(join(dir, 'state'));
    const { error, file } = await prepareFailure(text, { ...LIVE_ENV, TEST_API_SECRET: undefined });
    expect(error.location).toEqual({ file, ...positionOf(text, '${TEST_API_SECRET}'), path: 'exchange.apiSecret' });
    expect(error.reason).toBe('environment variable TEST_API_SECRET is not set');
  });
});

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node bin/stratd.js run --config FILE` as a child process (the built CLI: `npm test` builds dist first). */
function stratdRun(file: string, env: Environment): Promise<Exit> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, 'run', '--config', file], { env: { PATH: process.env['PATH'], ...env }, timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : child.exitCode, stdout, stderr });
    });
  });
}

describe('stratd run: config errors through the CLI', () => {
  it('a bad strategy param: exit code 2, stderr names file:line:column, path and reason', async () => {
    const text = defaultYaml(join(dir, 'state'), { from: 'quantity: 1 ', to: 'quantity: -1 ' });
    const file = writeConfig(dir, 'cli-bad-param.yml', text);
    const { line, column } = positionOf(text, '-1 ');
    const exit = await stratdRun(file, {});
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(`stratd: ${file}:${line}:${column}: strategies[0].params.quantity: must be greater than 0, got -1\n`);
    expect(exit.stdout).toBe('');
  });

  it('a missing credential in live mode: exit code 2, stderr names the variable and where it is used', async () => {
    const text = liveYaml(join(dir, 'state'));
    const file = writeConfig(dir, 'cli-live.yml', text);
    const { line, column } = positionOf(text, '${TEST_API_KEY}');
    const exit = await stratdRun(file, { ...LIVE_ENV, TEST_API_KEY: undefined });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(`stratd: ${file}:${line}:${column}: exchange.apiKey: environment variable TEST_API_KEY is not set\n`);
  });
});
