import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { ConfigError } from '../../src/settings/config-error.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';

/**
 * Live mode sends the API key header, the catalog's bearer token and the listen key: never in clear to
 * another machine. http:// and ws:// are for loopback only (a simulator or a local proxy).
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-transport-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = { STRATD_API_KEY: 'k', STRATD_API_SECRET: 's', STRATD_CATALOG_TOKEN: 'tok' };
let counter = 0;

function loaded(exchange: string, catalog = ''): { ok: true; value: DaemonConfig } | { ok: false; error: ConfigError } {
  counter += 1;
  const file = join(dir, `live-${counter}.yml`);
  writeFileSync(file, `mode: live\nexchange:\n${exchange}${catalog === '' ? '' : `catalog:\n${catalog}`}`);
  return loadDaemonConfig(file, { env: ENV, cwd: dir });
}

describe('live mode and plain-text URLs', () => {
  it('http:// or ws:// to a remote host is a ConfigError located at the field', () => {
    const cases: ReadonlyArray<readonly [string, string, string, number]> = [
      ['  baseUrl: http://api.example.com\n  streamUrl: wss://s.example.com\n', '', 'exchange.baseUrl', 3],
      ['  baseUrl: https://api.example.com\n  streamUrl: ws://s.example.com/ws\n', '', 'exchange.streamUrl', 4],
      ['  baseUrl: http://10.1.2.3:8080\n  streamUrl: wss://s.example.com\n', '', 'exchange.baseUrl', 3],
      ['  baseUrl: https://api.example.com\n  streamUrl: wss://s.example.com\n', '  baseUrl: http://catalog.example.com\n', 'catalog.baseUrl', 6],
    ];
    for (const [exchange, catalog, path, line] of cases) {
      const result = loaded(exchange, catalog);
      if (result.ok) throw new Error(`expected ${path} to be refused`);
      expect(result.error.name).toBe('ConfigError');
      expect(result.error.location).toMatchObject({ path, line });
      expect(result.error.reason).toMatch(/only over TLS .* use (https|wss):\/\//);
    }
  });

  it('https:// and wss:// anywhere, and http:// or ws:// to loopback, are fine', () => {
    for (const [base, stream] of [
      ['https://api.example.com', 'wss://s.example.com'],
      ['http://127.0.0.1:8080', 'ws://127.0.0.1:8081/ws'],
      ['http://localhost:8080', 'ws://[::1]:8081'],
    ] as const) {
      const result = loaded(`  baseUrl: ${base}\n  streamUrl: ${stream}\n`, '  baseUrl: http://127.0.0.1:9000\n');
      expect(result.ok).toBe(true);
    }
  });

  it('a host named in exchange.plainTextHosts (a simulator on a private network) may be reached in plain text, for the catalog too; others may not', () => {
    const listed = loaded('  baseUrl: http://sim:8901\n  streamUrl: ws://sim:8901\n  plainTextHosts: [sim]\n', '  baseUrl: http://sim:8901/catalog\n');
    expect(listed.ok).toBe(true);
    const other = loaded('  baseUrl: http://sim:8901\n  streamUrl: ws://other:8901\n  plainTextHosts: [sim]\n');
    expect(other.ok ? undefined : other.error.location.path).toBe('exchange.streamUrl');
  });
});
