import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { publishedConfigSchema } from '../../src/app/commands/validate.js';
import { registerValidateCommand } from '../../src/app/commands/validate-command.js';
import type { Environment } from '../../src/settings/secrets.js';
import { defaultYaml, writeConfig } from './daemon/daemon-harness.js';

/**
 * `stratd validate --config FILE`: the checks of `stratd run` without starting anything; "ok: …" and
 * exit 0, or the mistake as `file:line:column: path: reason` on stderr and exit 2.
 */
const DEFAULT_YML = fileURLToPath(new URL('../../config/default.yml', import.meta.url));
const LIVE_YML = fileURLToPath(new URL('../../config/live.example.yml', import.meta.url));
const LIVE_ENV: Environment = { STRATD_API_KEY: 'validate-test-key', STRATD_API_SECRET: 'validate-test-secret' };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-validate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function stratd(args: readonly string[], env: Environment = {}): Promise<Ran> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command()
    .name('stratd')
    .exitOverride()
    .configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerValidateCommand(program, {
    env,
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
  });
  try {
    await program.parseAsync(['validate', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (!(error instanceof CommanderError)) throw error;
    code = 2;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

/** Line and column (1-based) of `needle` in `text`. */
function positionOf(text: string, needle: string): string {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`${needle} is not in the file`);
  const before = text.slice(0, index).split('\n');
  return `${before.length}:${(before[before.length - 1] ?? '').length + 1}`;
}

let counter = 0;
/** config/default.yml (the harness's test copy) with its first `from` replaced by `to`, and then `more`. */
function configWith(edit: { from: string; to: string }, more: (text: string) => string = (t) => t): { file: string; text: string } {
  counter += 1;
  const text = more(defaultYaml(join(dir, 'state'), edit));
  return { file: writeConfig(dir, `config-${counter}.yml`, text), text };
}

/** The one line on stderr: `stratd: FILE:LINE:COLUMN: PATH: reason`. */
function expectLocated(ran: Ran, file: string, at: string, path: string, reason: string): void {
  expect(ran.code).toBe(2);
  expect(ran.stdout).toBe('');
  expect(ran.stderr).toMatch(/^stratd: .*\n$/);
  expect(ran.stderr).toContain(`stratd: ${file}:${at}: ${path}: `);
  expect(ran.stderr).toContain(reason);
}

describe('stratd validate', () => {
  it('config/default.yml as shipped: ok, with mode, strategies and symbols; nothing is created', async () => {
    const stateDir = join(dir, 'not-created');
    const ran = await stratd(['--config', DEFAULT_YML, '--state-dir', stateDir]);
    expect(ran).toEqual({ code: 0, stdout: `ok: ${DEFAULT_YML} (paper, 2 strategies, BTC-SWAP-USDT, ETH-SWAP-USDT)\n`, stderr: '' });
    expect(existsSync(stateDir)).toBe(false);
  });

  it('config/live.example.yml with its keys in the environment: ok (live); nothing is contacted', async () => {
    const ran = await stratd(['--config', LIVE_YML, '--state-dir', join(dir, 'live-state')], LIVE_ENV);
    expect(ran).toEqual({ code: 0, stdout: `ok: ${LIVE_YML} (live, 2 strategies, BTC-SWAP-USDT, ETH-SWAP-USDT)\n`, stderr: '' });
  });

  it('an unknown strategy module', async () => {
    const { file, text } = configWith({ from: 'module: spread-quoter', to: 'module: no-such-strategy' });
    expectLocated(await stratd(['--config', file]), file, positionOf(text, 'no-such-strategy'), 'strategies[0].module', 'unknown strategy module "no-such-strategy"');
  });

  it('a param the strategy’s own schema refuses', async () => {
    const { file, text } = configWith({ from: 'halfSpreadBps: 2', to: 'halfSpreadBps: -2' });
    expectLocated(await stratd(['--config', file]), file, positionOf(text, '-2'), 'strategies[0].params.halfSpreadBps', 'expected number to be >0');
  });

  it('a bad param of a disabled strategy (run would skip it; a later start would not)', async () => {
    const disable = { from: '    risk: { maxPosition: 50, maxOpenOrders: 4 }', to: '    risk: { maxPosition: 50, maxOpenOrders: 4 }\n    enabled: false' };
    expect((await stratd(['--config', configWith(disable).file])).stdout).toContain('(paper, 2 strategies (1 disabled), ');
    const { file, text } = configWith(disable, (t) => t.replace('windowMs: 20000', 'windowMs: soon'));
    expectLocated(await stratd(['--config', file]), file, positionOf(text, 'soon'), 'strategies[1].params.windowMs', 'expected number');
  });

  it('a bad cron expression', async () => {
    const { file, text } = configWith({ from: 'reconcile: "*/5 * * * *"', to: 'reconcile: "61 * * * *"' });
    expectLocated(await stratd(['--config', file]), file, positionOf(text, '"61 * * * *"'), 'jobs.reconcile', 'not a cron expression');
  });

  it('a live config whose credential variable is not set', async () => {
    const text = readFileSync(LIVE_YML, 'utf8');
    const ran = await stratd(['--config', LIVE_YML], { STRATD_API_KEY: 'validate-test-key' });
    expectLocated(ran, LIVE_YML, positionOf(text, '${STRATD_API_SECRET}'), 'exchange.apiSecret', 'environment variable STRATD_API_SECRET is not set');
    expect(ran.stderr).not.toContain('validate-test-key');
  });

  it('health settings run refuses: a short STRATD_HEALTH_TOKEN, a TLS file that cannot be read', async () => {
    const { file, text } = configWith({ from: 'health: { host: 127.0.0.1, port: 0 }', to: 'health: { host: 0.0.0.0, port: 0 }' });
    expectLocated(await stratd(['--config', file], { STRATD_HEALTH_TOKEN: 'short' }), file, positionOf(text, '{ host: 0.0.0.0'), 'health', 'STRATD_HEALTH_TOKEN must be at least 16 characters');
    // Beyond loopback without a token in the environment: the daemon writes its token file at its first start.
    expect((await stratd(['--config', file])).code).toBe(0);
    expect((await stratd(['--config', file], { STRATD_HEALTH_TOKEN: 'a-token-long-enough-for-it' })).code).toBe(0);
    const tls = configWith({ from: 'health: { host: 127.0.0.1, port: 0 }', to: 'health: { host: 0.0.0.0, port: 0, tls: { cert: no-such-cert.pem, key: no-such-key.pem } }' });
    expectLocated(await stratd(['--config', tls.file]), tls.file, positionOf(tls.text, 'no-such-cert.pem'), 'health.tls.cert', 'cannot read');
  });

  it('a recursive alias, /dev/zero: exit 2 with the location', async () => {
    const recursive = writeConfig(dir, 'recursive.yml', 'mode: paper\nrisk: &r { nested: [*r] }\n');
    const ran = await stratd(['--config', recursive]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(new RegExp(`^stratd: ${recursive}:2:21: invalid YAML: the alias \\*r refers to a node that contains it`));
    const zero = await stratd(['--config', '/dev/zero']);
    expect(zero).toEqual({ code: 2, stdout: '', stderr: 'stratd: /dev/zero: not a regular file (a character device): a config is read from a regular file only\n' });
  });

  it('--print-schema prints the published JSON Schema', async () => {
    const ran = await stratd(['--print-schema']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(await publishedConfigSchema());
  });
});
