import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { itWithTools } from '../support/host-tools.js';
import { parseUnit } from './systemd-parse.js';

/**
 * deploy/systemd/stratd@.service, one daemon per account on one host: deploy/systemd/stratd.service
 * (whose own test checks the sandbox, restarts and watchdog) with the account's config, keys and state
 * per instance, and nothing else different.
 */
const run = promisify(execFile);
const ROOT = process.cwd();
const TEMPLATE_FILE = join(ROOT, 'deploy', 'systemd', 'stratd@.service');
const text = readFileSync(TEMPLATE_FILE, 'utf8');
const template = parseUnit(text);
const single = parseUnit(readFileSync(join(ROOT, 'deploy', 'systemd', 'stratd.service'), 'utf8'));
const service = template.get('Service') ?? new Map<string, string[]>();
const value = (key: string): string | undefined => service.get(key)?.at(-1);

/** What may differ from stratd.service, section/key → the template's values. */
const PER_INSTANCE: Readonly<Record<string, readonly string[]>> = {
  'Unit/Description': ['stratd strategy-automation daemon for perpetual futures, account %i'],
  'Service/ExecStart': ['/usr/bin/node /opt/stratd/bin/stratd.js run --config /etc/stratd/%i.yml'],
  'Service/StateDirectory': ['stratd/%i'],
  'Service/Environment': ['STRATD_STATE_DIR=/var/lib/stratd/%i', 'NODE_ENV=production'],
  'Service/EnvironmentFile': ['-/etc/stratd/%i.env'],
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-systemd-template-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deploy/systemd/stratd@.service', () => {
  it('has the sections and keys of stratd.service, with the same values but for the per-account ones', () => {
    const keys = (unit: typeof template): string[] => [...unit].flatMap(([section, entries]) => [...entries.keys()].map((key) => `${section}/${key}`)).sort();
    expect(keys(template)).toEqual(keys(single));
    for (const [section, entries] of template) {
      for (const [key, values] of entries) {
        const want = PER_INSTANCE[`${section}/${key}`] ?? single.get(section)?.get(key);
        expect([`${section}/${key}`, values]).toEqual([`${section}/${key}`, want]);
      }
    }
  });

  it('is Type=notify with the watchdog, so systemd knows when each account is trading and restarts a stuck one', () => {
    expect(value('Type')).toBe('notify');
    expect(value('NotifyAccess')).toBe('all');
    expect(Number(value('WatchdogSec'))).toBeGreaterThan(0);
    expect(value('Restart')).toBe('on-failure');
  });

  it("starts `stratd run` with the instance's config, a command line the CLI accepts", async () => {
    const argv = (value('ExecStart') ?? '').replaceAll('%i', 'alpha').split(/\s+/);
    expect(argv).toEqual(['/usr/bin/node', '/opt/stratd/bin/stratd.js', 'run', '--config', '/etc/stratd/alpha.yml']);
    const help = await run(process.execPath, [join(ROOT, 'bin', 'stratd.js'), 'run', '--help']);
    for (const option of argv.filter((a) => a.startsWith('--'))) expect(help.stdout).toContain(`${option} <`);
  }, 120_000);

  itWithTools(['systemd-analyze'], 'an instance passes `systemd-analyze verify`, with the start command pointed at this checkout', async () => {
    const copy = join(dir, 'stratd@alpha.service');
    writeFileSync(copy, text.replace('ExecStart=/usr/bin/node /opt/stratd/bin/stratd.js', `ExecStart=${process.execPath} ${join(ROOT, 'bin', 'stratd.js')}`));
    const verified = await run('systemd-analyze', ['verify', copy], { cwd: dir });
    expect(verified.stderr.trim()).toBe('');
  });

  itWithTools(['systemd-analyze'], 'an instance scores as well sandboxed as stratd.service in `systemd-analyze security` (exposure at most 2.5 of 10)', async () => {
    const copy = join(dir, 'stratd@bravo.service');
    writeFileSync(copy, text);
    await expect(run('systemd-analyze', ['security', '--offline=yes', '--threshold=25', copy], { cwd: dir })).resolves.toBeDefined();
  });
});
