import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knownSecrets, scrubSecrets } from '../../src/core/secret-text.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { Environment } from '../../src/settings/secrets.js';

/**
 * Secret files and secret values in config errors: a key file others may read is refused (the file and
 * its mode named); a key written where a path belongs (`apiKeyFile: ${STRATD_API_KEY}`) is never echoed;
 * every resolved secret is known to the scrubber of logs and stderr.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-secret-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXCHANGE = 'exchange: { baseUrl: "https://api.example.com", streamUrl: "wss://s.example.com"';

function load(yaml: string, env: Environment = {}): ReturnType<typeof loadDaemonConfig> {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(file, yaml);
  return loadDaemonConfig(file, { env, cwd: dir });
}

describe('secret files', () => {
  it('readable by group or others: refused with the file and its mode; 0600 and 0400 are accepted', () => {
    const key = join(dir, 'key.txt');
    const secret = join(dir, 'secret.txt');
    writeFileSync(key, 'file-key-0001\n');
    writeFileSync(secret, 'file-secret-0001\n');
    const yaml = `mode: live\n${EXCHANGE}, apiKeyFile: key.txt, apiSecretFile: secret.txt }\n`;
    for (const [mode, octal] of [[0o644, '0644'], [0o640, '0640'], [0o604, '0604'], [0o660, '0660']] as const) {
      chmodSync(key, mode);
      chmodSync(secret, 0o600);
      const result = load(yaml);
      if (result.ok) throw new Error(`a key file of mode ${octal} was accepted`);
      expect(result.error.location).toMatchObject({ line: 2, path: 'exchange.apiKeyFile' });
      expect(result.error.reason).toBe(`secret file ${key} has mode ${octal}: group or others may access it; allow its owner only (chmod 600 ${key})`);
    }
    chmodSync(key, 0o600);
    chmodSync(secret, 0o400);
    expect(load(yaml)).toMatchObject({ ok: true, value: { venue: { credentials: { apiKey: 'file-key-0001', apiSecret: 'file-secret-0001' } } } });
    expect(scrubSecrets('key file-key-0001 secret file-secret-0001')).toBe('key [redacted] secret [redacted]');
  });

  it('a fifo or a device named as a secret file is refused unread', () => {
    const yaml = `mode: live\n${EXCHANGE}, apiKeyFile: /dev/zero, apiSecretFile: secret.txt }\n`;
    const result = load(yaml);
    expect(result).toMatchObject({ ok: false, error: { reason: 'secret file /dev/zero: not a regular file (a character device): a config is read from a regular file only' } });
  });

  it('a key written as a file path is not echoed in the error', () => {
    const key = 'k3y-VALUE-never-to-be-printed-0001';
    const result = load(`mode: live\n${EXCHANGE}, apiKeyFile: "\${EXCHANGE_API_KEY}", apiSecretFile: nope.txt }\n`, { EXCHANGE_API_KEY: key });
    if (result.ok) throw new Error('expected an error');
    expect(result.error.message).not.toContain(key);
    expect(result.error.location).toMatchObject({ path: 'exchange.apiKeyFile' });
    expect(result.error.reason).toMatch(/^secret file .*\[redacted\]: cannot read the file \(ENOENT\)$/);
    expect(knownSecrets.scrub(`x ${key} y`)).toBe('x [redacted] y');
  });
});
