import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigError } from '../../src/settings/config-error.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { Environment } from '../../src/settings/secrets.js';

/** `notify:` of the daemon's YAML: sinks, their secrets (variables or files), events, and located mistakes. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const HOOK = 'https://hooks.example.test/services/T0/B0/secret-part-xyz';
const LIVE_HEAD = 'mode: live\nexchange: { baseUrl: "https://api.example.test", streamUrl: "wss://s.example.test" }\n';
const LIVE_ENV = { STRATD_API_KEY: 'k', STRATD_API_SECRET: 's' };

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-notify-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(text: string, name = `config-${++counter}.yml`): string {
  const file = join(dir, name);
  // Owner-only, as a secret file must be (config files may be too).
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

function load(text: string, env: Environment = {}): DaemonConfig {
  const result = loadDaemonConfig(write(text), { env, defaultSimConfig: SIM_YML, cwd: dir });
  if (!result.ok) throw new Error(`expected a valid config, got ${result.error.message}`);
  return result.value;
}

function failure(text: string, env: Environment = {}): { error: ConfigError; file: string } {
  const file = write(text);
  const result = loadDaemonConfig(file, { env, defaultSimConfig: SIM_YML, cwd: dir });
  if (result.ok) throw new Error('expected a config error');
  return { error: result.error, file };
}

describe('notify: sinks', () => {
  it('reads a webhook URL from its variable and a bot token from a file relative to the YAML; fills are opt-in', () => {
    write('123456:ABC-bot-token\n', 'bot-token');
    const config = load(
      `notify:
  reconnectStorm: { count: 3, within: 5m }
  sinks:
    - name: ops
      kind: webhook
      url: \${HOOK_URL}
      events: [fill, killSwitch]
      queue: 10
      timeout: 2s
      retry: { attempts: 3, initial: 500ms, max: 10s }
    - name: phone
      kind: telegram
      tokenFile: ./bot-token
      chatId: -1001234567890
      apiUrl: http://127.0.0.1:8081/
`,
      { HOOK_URL: HOOK },
    );
    expect(config.notify).toEqual({
      reconnectStorm: { count: 3, withinMs: 300_000 },
      sinks: [
        { name: 'ops', kind: 'webhook', url: HOOK, secret: HOOK, events: ['fill', 'killSwitch'], queue: 10, timeoutMs: 2000, retry: { attempts: 3, initialMs: 500, maxMs: 10_000 } },
        {
          name: 'phone',
          kind: 'telegram',
          url: 'http://127.0.0.1:8081/bot123456:ABC-bot-token/sendMessage',
          secret: '123456:ABC-bot-token',
          chatId: '-1001234567890',
          events: ['killSwitch', 'strategyStopped', 'strategyFailed', 'daemonStart', 'daemonStop', 'reconnectStorm', 'dailySummary', 'rateLimit', 'positionLost'],
          queue: 100,
          timeoutMs: 10_000,
          retry: { attempts: 6, initialMs: 1000, maxMs: 300_000 },
        },
      ],
    });
    const telegram = load('notify:\n  sinks:\n    - { name: tg, kind: telegram, token: "${TG}", chatId: "@desk" }\n', { TG: 'T0K' });
    expect(telegram.notify?.sinks[0]).toMatchObject({ url: 'https://api.telegram.org/botT0K/sendMessage', chatId: '@desk' });
    expect(load('mode: paper\n').notify).toBeUndefined();
  });

  it('refuses a URL or token written in the YAML body, at its line, without echoing it', () => {
    const { error, file } = failure(`notify:\n  sinks:\n    - name: ops\n      kind: slack\n      url: ${HOOK}\n`);
    expect(error.location).toEqual({ file, line: 5, column: 12, path: 'notify.sinks[0].url' });
    expect(error.message).toContain('never read from the YAML body');
    expect(error.message).not.toContain('secret-part');
    const token = failure('notify:\n  sinks:\n    - { name: tg, kind: telegram, chatId: 1, token: "123:abc" }\n').error;
    expect(token.location).toMatchObject({ line: 3, path: 'notify.sinks[0].token' });
    expect(token.message).not.toContain('123:abc');
  });

  it('locates the other mistakes: unknown key, kind, event, duration, duplicate name, missing secret, unreadable file', () => {
    const at = (yaml: string, env: Environment = { U: HOOK }): ConfigError['location'] => failure(`notify:\n  sinks:\n${yaml}`, env).error.location;
    expect(at('    - { name: a, kind: slack, url: "${U}", colour: red }\n')).toMatchObject({ line: 3, path: 'notify.sinks[0].colour' });
    expect(at('    - { name: a, kind: teams, url: "${U}" }\n')).toMatchObject({ line: 3, path: expect.stringMatching(/^notify\.sinks\[0\]/) });
    expect(at('    - name: a\n      kind: discord\n      url: "${U}"\n      events: [fills]\n')).toMatchObject({ line: 6, path: 'notify.sinks[0].events[0]' });
    expect(at('    - name: a\n      kind: discord\n      url: "${U}"\n      timeout: 10 seconds\n')).toMatchObject({ line: 6, path: 'notify.sinks[0].timeout' });
    expect(at('    - { name: a, kind: slack, url: "${U}" }\n    - { name: a, kind: discord, url: "${U}" }\n')).toMatchObject({ line: 4, path: 'notify.sinks[1].name' });
    expect(at('    - { name: a, kind: slack }\n')).toMatchObject({ line: 3, path: 'notify.sinks[0]' });
    expect(at('    - { name: a, kind: slack, url: "${NOT_SET}" }\n', {})).toMatchObject({ line: 3, path: 'notify.sinks[0].url' });
    const missing = failure('notify:\n  sinks:\n    - { name: tg, kind: telegram, chatId: 1, tokenFile: ./no-such-file }\n').error;
    expect(missing.location).toMatchObject({ line: 3, path: 'notify.sinks[0].tokenFile' });
    expect(at('    - { name: a, kind: webhook, url: "${U}" }\n', { U: 'not a url' })).toMatchObject({ line: 3, path: 'notify.sinks[0].url' });
  });

  it('live mode refuses plain http:// beyond this machine, naming the field and not the URL', () => {
    const sink = `${LIVE_HEAD}notify:\n  sinks:\n    - name: ops\n      kind: webhook\n      url: \${HOOK_URL}\n`;
    const { error } = failure(sink, { ...LIVE_ENV, HOOK_URL: 'http://hooks.example.test/secret-part-xyz' });
    expect(error.location).toMatchObject({ line: 7, path: 'notify.sinks[0].url' });
    expect(error.reason).toContain('https://');
    expect(error.message).not.toContain('secret-part');
    expect(load(sink, { ...LIVE_ENV, HOOK_URL: 'http://127.0.0.1:9000/hook' }).notify?.sinks[0]?.url).toBe('http://127.0.0.1:9000/hook');
    expect(load(sink, { ...LIVE_ENV, HOOK_URL: HOOK }).notify?.sinks[0]?.url).toBe(HOOK);
    const telegram = failure(`${LIVE_HEAD}notify:\n  sinks:\n    - { name: tg, kind: telegram, token: "\${TG}", chatId: 1, apiUrl: "http://tg.example.test" }\n`, { ...LIVE_ENV, TG: 'T0K' }).error;
    expect(telegram.location).toMatchObject({ line: 5, path: 'notify.sinks[0].apiUrl' });
    expect(telegram.message).not.toContain('T0K');
    // Paper mode tries things out: a plain http receiver on another host is allowed there.
    expect(load('notify:\n  sinks:\n    - { name: a, kind: webhook, url: "${U}" }\n', { U: 'http://hooks.example.test/x' }).notify?.sinks[0]?.kind).toBe('webhook');
  });
});
