import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FixtureVenue } from '../support/fixture-venue.js';

/**
 * `bin/stratd.js` (needs `npm run build`): whatever path a secret value takes to standard error, it is
 * scrubbed there: an exchange reply that echoes the API key, a config that puts the key where a file
 * path belongs, a catalog error quoting the token.
 */
const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const KEY = 'cli-api-key-0123456789abcdef';
const SECRET = 'cli-api-secret-0123456789abcdef';
const TOKEN = 'cli-catalog-token-0123456789';

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function stratd(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error: unknown) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let venue: FixtureVenue;
let dir: string;
beforeAll(async () => {
  venue = await FixtureVenue.start();
  dir = mkdtempSync(join(tmpdir(), 'stratd-cli-stderr-'));
});
afterAll(() => {
  venue.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('no secret on the CLI’s standard error', () => {
  it('an error reply that echoes the API key', async () => {
    venue.reply('GET /api/v2/futures/order', { status: 400, body: { code: -2015, msg: `Invalid API-key ${KEY}, IP, or permissions for action.` } });
    const out = await stratd(['call', 'GET', '/api/v2/futures/order', 'orderId=1', '--base-url', venue.url], { STRATD_API_KEY: KEY, STRATD_API_SECRET: SECRET });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Invalid API-key [redacted], IP, or permissions');
    expect(out.stderr).not.toContain(KEY);
  });

  it('a catalog error quoting the token', async () => {
    venue.reply('GET /v1/products', { status: 401, body: { success: false, error: { code: 'UNAUTHORIZED', message: `token ${TOKEN} is not valid` } } });
    const out = await stratd(['call', 'GET', '/v1/products', '--catalog', '--base-url', venue.url], { STRATD_CATALOG_TOKEN: TOKEN });
    expect(out.code).toBe(1);
    expect(out.stderr).not.toContain(TOKEN);
  });

  it('validate: the key interpolated where a file path belongs', async () => {
    const config = join(dir, 'live.yml');
    writeFileSync(config, 'mode: live\nexchange:\n  baseUrl: https://api.example.com\n  streamUrl: wss://s.example.com\n  apiKeyFile: ${EXCHANGE_API_KEY}\n  apiSecretFile: ${EXCHANGE_API_SECRET}\n');
    const out = await stratd(['validate', '--config', config], { EXCHANGE_API_KEY: KEY, EXCHANGE_API_SECRET: SECRET });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(new RegExp(`^stratd: ${config}:5:\\d+: exchange.apiKeyFile: secret file .*\\[redacted\\]: cannot read the file \\(ENOENT\\)\\n$`));
    expect(out.stderr).not.toContain(KEY);
    expect(out.stderr).not.toContain(SECRET);
  });
});
