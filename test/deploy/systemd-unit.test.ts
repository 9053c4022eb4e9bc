import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { itWithTools } from '../support/host-tools.js';

/**
 * deploy/systemd/stratd.service: the keys operators rely on, the start command the CLI accepts, and
 * systemd's own checks (`systemd-analyze verify` and the offline security score).
 */
const run = promisify(execFile);
const ROOT = process.cwd();
const UNIT_FILE = join(ROOT, 'deploy', 'systemd', 'stratd.service');
const text = readFileSync(UNIT_FILE, 'utf8');

/** Section → key → every value given (systemd keys may repeat). */
function parseUnit(source: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) {
      current = new Map();
      sections.set(header[1] ?? '', current);
      continue;
    }
    if (current === undefined) throw new Error(`key outside a section: ${line}`);
    const at = line.indexOf('=');
    const key = line.slice(0, at).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return sections;
}

const unit = parseUnit(text);
const service = unit.get('Service') ?? new Map<string, string[]>();
const value = (key: string): string | undefined => service.get(key)?.at(-1);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-systemd-unit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deploy/systemd/stratd.service', () => {
  it('is Type=notify with a watchdog, restarts on failure and stops with SIGTERM within TimeoutStopSec', () => {
    expect(value('Type')).toBe('notify');
    // The daemon's messages come from a systemd-notify child (src/app/systemd/transport.ts).
    expect(value('NotifyAccess')).toBe('all');
    expect(value('WatchdogSec')).toBe('30');
    expect(value('Restart')).toBe('on-failure');
    expect(value('RestartSec')).toMatch(/^\d+s?$/);
    // Exit code 2 is a config or usage mistake (src/app/commands/cli.ts): a restart would fail the same way.
    expect(value('RestartPreventExitStatus')).toBe('2');
    expect(value('KillSignal')).toBe('SIGTERM');
    // Above the daemon's default shutdown.timeout (10 s), so a clean stop is not cut short.
    expect(Number(value('TimeoutStopSec'))).toBeGreaterThan(10);
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('runs as stratd with its state, configuration and keys where the daemon looks for them', () => {
    expect(value('User')).toBe('stratd');
    expect(value('StateDirectory')).toBe('stratd');
    expect(service.get('Environment')).toContain('STRATD_STATE_DIR=/var/lib/stratd');
    expect(value('ConfigurationDirectory')).toBe('stratd');
    expect(value('EnvironmentFile')).toBe('-/etc/stratd/stratd.env');
  });

  it('is sandboxed', () => {
    const expected: Record<string, string> = {
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectKernelLogs: 'yes',
      ProtectControlGroups: 'yes',
      RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
      LockPersonality: 'yes',
      // V8's JIT needs writable+executable memory.
      MemoryDenyWriteExecute: 'no',
      CapabilityBoundingSet: '',
    };
    for (const [key, want] of Object.entries(expected)) expect([key, value(key)]).toEqual([key, want]);
    expect(service.get('SystemCallFilter')?.[0]).toBe('@system-service');
  });

  it('starts `node bin/stratd.js run --config /etc/stratd/stratd.yml`, a command line the CLI accepts', async () => {
    const argv = (value('ExecStart') ?? '').split(/\s+/);
    expect(argv).toEqual(['/usr/bin/node', '/opt/stratd/bin/stratd.js', 'run', '--config', '/etc/stratd/stratd.yml']);
    expect(value('WorkingDirectory')).toBe('/opt/stratd');
    // Every option of the unit's command line is one `stratd run` documents (the built CLI).
    const help = await run(process.execPath, [join(ROOT, 'bin', 'stratd.js'), 'run', '--help']);
    for (const option of argv.filter((a) => a.startsWith('--'))) expect(help.stdout).toContain(`${option} <`);
  });

  itWithTools(['systemd-analyze'], 'passes `systemd-analyze verify`, with the start command pointed at this checkout', async () => {
    const copy = join(dir, 'stratd.service');
    writeFileSync(copy, text.replace('ExecStart=/usr/bin/node /opt/stratd/bin/stratd.js', `ExecStart=${process.execPath} ${join(ROOT, 'bin', 'stratd.js')}`));
    const verified = await run('systemd-analyze', ['verify', copy], { cwd: dir });
    expect(verified.stderr.trim()).toBe('');
  });

  itWithTools(['systemd-analyze'], 'scores as well sandboxed in `systemd-analyze security` (exposure at most 2.5 of 10)', async () => {
    await expect(run('systemd-analyze', ['security', '--offline=yes', '--threshold=25', UNIT_FILE], { cwd: dir })).resolves.toBeDefined();
  });
});
