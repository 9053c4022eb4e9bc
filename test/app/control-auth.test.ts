import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowedHosts, bearerMatches, constantTimeEquals, hostAllowed, isLoopbackHost } from '../../src/app/control/auth.js';
import { ensureControlToken, readControlToken } from '../../src/app/control/token.js';
import { Daemon } from '../../src/app/daemon/daemon.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import { paperYaml } from './daemon/daemon-harness.js';

/** The control token (file or environment), the Host check and the constant-time comparisons (nothing binds here). */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-health-token-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(host: string): DaemonConfig {
  const file = join(dir, `${host.replace(/\W/g, '_')}.yml`);
  writeFileSync(file, paperYaml(join(dir, 'state')).replace('health: { host: 127.0.0.1, port: 0 }', `health: { host: "${host}", port: 0 }`));
  const loaded = loadDaemonConfig(file, { env: {} });
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

describe('isLoopbackHost', () => {
  it('127.0.0.0/8, ::1 and localhost are loopback; wildcard and other addresses are not', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.org', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('the control token', () => {
  it('is created at the first start in <state dir>/control.token (64 hex characters, mode 0600) and read again later', () => {
    const state = join(dir, 'fresh', 'state');
    const first = ensureControlToken(state, {});
    if (!first.ok) throw new Error(first.error);
    expect(first.value.file).toBe(join(state, 'control.token'));
    expect(first.value.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(state, 'control.token')).mode & 0o777).toBe(0o600);
    expect(ensureControlToken(state, {})).toEqual(first);
    expect(readControlToken(state, {})).toEqual({ ok: true, value: first.value.token });
    // Another state directory, another token.
    const other = ensureControlToken(join(dir, 'other'), {});
    expect(other.ok && other.value.token !== first.value.token).toBe(true);
  });

  it('STRATD_HEALTH_TOKEN wins (no file written); a short one is refused', () => {
    const state = join(dir, 'env-state');
    expect(ensureControlToken(state, { STRATD_HEALTH_TOKEN: '0123456789abcdef' })).toEqual({ ok: true, value: { token: '0123456789abcdef', file: undefined } });
    expect(existsSync(join(state, 'control.token'))).toBe(false);
    expect(readControlToken(state, { STRATD_HEALTH_TOKEN: '0123456789abcdef' })).toEqual({ ok: true, value: '0123456789abcdef' });
    expect(ensureControlToken(state, { STRATD_HEALTH_TOKEN: 'short' })).toEqual({ ok: false, error: expect.stringContaining('STRATD_HEALTH_TOKEN must be at least 16') });
  });

  it('a token file others may read, or a short one, is refused with its path; no state dir and no env: no token', () => {
    const state = join(dir, 'loose');
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'control.token'), 'f'.repeat(64), { mode: 0o644 });
    chmodSync(join(state, 'control.token'), 0o644);
    expect(ensureControlToken(state, {})).toEqual({ ok: false, error: expect.stringMatching(/control\.token may be read by others \(mode 644\): chmod 600/) });
    expect(readControlToken(state, {}).ok).toBe(false);
    chmodSync(join(state, 'control.token'), 0o600);
    writeFileSync(join(state, 'control.token'), 'short');
    expect(ensureControlToken(state, {})).toEqual({ ok: false, error: expect.stringContaining('shorter than 16') });
    expect(readControlToken(join(dir, 'nowhere'), {})).toEqual({ ok: true, value: undefined });
    expect(readControlToken(undefined, {})).toEqual({ ok: true, value: undefined });
  });

  it('Daemon.start refuses a loose token file before opening anything else', async () => {
    const c = config('127.0.0.1');
    mkdirSync(c.stateDir, { recursive: true });
    writeFileSync(join(c.stateDir, 'control.token'), 'f'.repeat(64));
    chmodSync(join(c.stateDir, 'control.token'), 0o640);
    const started = await Daemon.start({ config: c, strategies: [], time: new VirtualClock(0), logger: silentLogger, env: {}, hangup: null });
    if (started.ok) throw new Error('expected a start-up failure');
    expect(started.error.name).toBe('DaemonStartError');
    expect(started.error.message).toContain('control.token may be read by others');
  });
});

describe('the Host a request names', () => {
  it('loopback names and the bound address, each with the port; a wildcard bind adds the interface addresses; configured names', () => {
    const loop = allowedHosts('127.0.0.1', 9464, ['192.0.2.7'], []);
    for (const host of ['127.0.0.1:9464', 'localhost:9464', '[::1]:9464', 'LocalHost:9464']) expect(hostAllowed(host, loop)).toBe(true);
    for (const host of ['127.0.0.1', 'localhost:80', 'evil.example:9464', '192.0.2.7:9464', '', undefined]) expect(hostAllowed(host, loop)).toBe(false);
    const wild = allowedHosts('0.0.0.0', 9464, ['192.0.2.7', 'fe80::1'], ['stratd.internal']);
    for (const host of ['192.0.2.7:9464', '[fe80::1]:9464', 'stratd.internal:9464', 'localhost:9464']) expect(hostAllowed(host, wild)).toBe(true);
    expect(hostAllowed('0.0.0.0:9464', wild)).toBe(false);
  });
});

describe('constantTimeEquals', () => {
  it('equal only for the same text, whatever the lengths', () => {
    expect(constantTimeEquals('secret-admin-token', 'secret-admin-token')).toBe(true);
    expect(constantTimeEquals('secret-admin-token', 'secret-admin-tokeN')).toBe(false);
    expect(constantTimeEquals('', 'secret')).toBe(false);
  });
});

describe('bearerMatches', () => {
  it('only the exact token after "Bearer"', () => {
    expect(bearerMatches('Bearer 0123456789abcdef', '0123456789abcdef')).toBe(true);
    expect(bearerMatches('bearer 0123456789abcdef', '0123456789abcdef')).toBe(true);
    expect(bearerMatches('Bearer 0123456789abcde', '0123456789abcdef')).toBe(false);
    expect(bearerMatches('0123456789abcdef', '0123456789abcdef')).toBe(false);
    expect(bearerMatches(undefined, '0123456789abcdef')).toBe(false);
  });
});
