import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { LoadDaemonConfigOptions } from '../../src/settings/daemon-config/daemon-config.js';
import { MAX_CONFIG_BYTES } from '../../src/settings/bounded-file.js';
import { readYamlFile } from '../../src/settings/yaml-source.js';

/**
 * Hostile or broken config input ends in one located ConfigError (exit 2), quickly: a recursive alias,
 * a device, a named pipe, a huge file; and the log level variables override the file's level.
 */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-bad-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function load(file: string, options: Partial<LoadDaemonConfigOptions> = {}): ReturnType<typeof loadDaemonConfig> {
  return loadDaemonConfig(file, { env: {}, defaultSimConfig: SIM_YML, cwd: dir, ...options });
}

describe('recursive aliases', () => {
  it('a node that contains an alias to itself is located at the alias', () => {
    const file = write('recursive.yml', 'mode: paper\na: &a {b: *a}\n');
    const result = load(file);
    if (result.ok) throw new Error('expected a config error');
    expect(result.error.location).toEqual({ file, line: 2, column: 11 });
    expect(result.error.message).toMatch(new RegExp(`^${file}:2:11: invalid YAML: the alias \\*a refers to a node that contains it`));
  });

  it('deeper self-reference (a sequence inside the anchored map) too; a plain alias is fine', () => {
    const deep = write('deep.yml', 'mode: paper\nrisk: &r\n  maxOpenOrders: 3\n  nested:\n    - [1, *r]\n');
    expect(load(deep)).toMatchObject({ ok: false, error: { location: { file: deep, line: 5, column: 11 } } });
    const plain = readYamlFile(write('plain.yml', 'base: &b { x: 1 }\nother: *b\n'));
    expect(plain).toMatchObject({ ok: true, value: { value: { base: { x: 1 }, other: { x: 1 } } } });
  });
});

describe('configs come from regular files of at most 1 MiB', () => {
  it('/dev/zero is refused without reading it', () => {
    const result = load('/dev/zero');
    expect(result).toMatchObject({ ok: false, error: { location: { file: '/dev/zero' } } });
    if (!result.ok) expect(result.error.reason).toBe('not a regular file (a character device): a config is read from a regular file only');
  });

  it('a named pipe nobody writes to is refused at once (no blocking open)', () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const result = load(fifo);
    expect(result).toMatchObject({ ok: false, error: { location: { file: fifo } } });
    if (!result.ok) expect(result.error.reason).toContain('a named pipe');
  });

  it('a directory, and a file above 1 MiB', () => {
    expect(load(dir)).toMatchObject({ ok: false, error: { reason: expect.stringContaining('a directory') as unknown } });
    const big = write('big.yml', `mode: paper\n#${'x'.repeat(MAX_CONFIG_BYTES)}\n`);
    expect(load(big)).toMatchObject({ ok: false, error: { location: { file: big }, reason: expect.stringContaining(`above the limit of ${MAX_CONFIG_BYTES} bytes`) as unknown } });
  });
});

describe('LOG_LEVEL and STRATD_LOG_LEVEL', () => {
  it('override the file, STRATD_LOG_LEVEL first; a bad value names the variable', () => {
    const file = write('levels.yml', 'mode: paper\nlog: { level: info }\n');
    expect(load(file)).toMatchObject({ ok: true, value: { log: { level: 'info' } } });
    expect(load(file, { env: { LOG_LEVEL: 'debug' } })).toMatchObject({ ok: true, value: { log: { level: 'debug' } } });
    expect(load(file, { env: { LOG_LEVEL: 'debug', STRATD_LOG_LEVEL: 'WARN' } })).toMatchObject({ ok: true, value: { log: { level: 'warn' } } });
    const bad = load(file, { env: { LOG_LEVEL: 'loud' } });
    expect(bad).toMatchObject({ ok: false });
    if (!bad.ok) expect(bad.error.message).toBe('environment variable LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
  });
});
