import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearerMatches, healthToken, isLoopbackHost } from '../../src/app/control-auth.js';
import { Daemon } from '../../src/app/daemon.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config.js';
import type { DaemonConfig } from '../../src/settings/daemon-config.js';
import { paperYaml } from './daemon/daemon-harness.js';

/** A health server beyond loopback needs a bearer token: checked before anything starts (nothing binds here). */
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

describe('healthToken', () => {
  it('loopback needs none; a token set in the environment is used anyway', () => {
    expect(healthToken(config('127.0.0.1'), {})).toEqual({ ok: true, value: undefined });
    expect(healthToken(config('127.0.0.1'), { STRATD_HEALTH_TOKEN: '0123456789abcdef' })).toEqual({ ok: true, value: '0123456789abcdef' });
  });

  it('beyond loopback without a token: a ConfigError located at health.host', () => {
    const c = config('0.0.0.0');
    const refused = healthToken(c, {});
    if (refused.ok) throw new Error('expected a ConfigError');
    expect(refused.error.name).toBe('ConfigError');
    expect(refused.error.location).toMatchObject({ file: c.file, path: 'health.host' });
    expect(refused.error.location.line).toBeGreaterThan(0);
    expect(refused.error.message).toContain('STRATD_HEALTH_TOKEN');
    expect(healthToken(c, { STRATD_HEALTH_TOKEN: '0123456789abcdef' }).ok).toBe(true);
  });

  it('a short token is refused', () => {
    const short = healthToken(config('0.0.0.0'), { STRATD_HEALTH_TOKEN: 'short' });
    expect(short.ok).toBe(false);
  });

  it('Daemon.start refuses before opening anything', async () => {
    const c = config('0.0.0.0');
    const started = await Daemon.start({ config: c, strategies: [], time: new VirtualClock(0), logger: silentLogger, env: {}, hangup: null });
    if (started.ok) throw new Error('expected a start-up failure');
    expect(started.error.name).toBe('DaemonStartError');
    expect(started.error.message).toContain(`${c.file}:`);
    expect(started.error.message).toContain('health.host');
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
