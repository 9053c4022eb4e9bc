import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';
import { TEST_KEY, v2 } from '../support/client.js';

const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');

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
let creds: Record<string, string>;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  creds = { STRATD_API_KEY: TEST_KEY, STRATD_API_SECRET: venue.secret };
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

describe('stratd call', () => {
  it('signs a GET with the configured credentials and prints the JSON reply', async () => {
    venue.reply('GET /api/v2/futures/open-orders', { body: v2([]) });
    const out = await stratd(['call', 'GET', '/api/v2/futures/open-orders', 'symbol=BTC-SWAP-USDT', 'limit=5', '--base-url', venue.url], creds);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ code: 200, msg: 'success', data: [] });
    expect(venue.last().signature).toBe('valid');
    expect(venue.last().headers['x-bb-apikey']).toBe(TEST_KEY);
    expect(paramsOf(venue.last())).toMatchObject({ symbol: 'BTC-SWAP-USDT', limit: '5' });
  });

  it('sends --json exactly as written and signs query + body', async () => {
    venue.reply('POST /api/v2/futures/order', { body: v2({ ok: true }) });
    const body = '{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"MARKET","newClientOrderId":"cli-1","quantity":"1"}';
    const out = await stratd(['call', 'POST', '/api/v2/futures/order', 'category=USDT', '--json', body, '--base-url', venue.url], creds);
    expect(out.code).toBe(0);
    expect(venue.last().rawBody).toBe(body);
    expect(venue.last().signature).toBe('valid');
    expect(paramsOf(venue.last())).toMatchObject({ category: 'USDT' });
  });

  it('sends v1 POST parameters as a signed form body', async () => {
    venue.reply('POST /api/v1/futures/leverage', { body: { code: '200', symbolId: 'BTC-SWAP-USDT', leverage: '20' } });
    const out = await stratd(['call', 'post', '/api/v1/futures/leverage', 'symbol=BTC-SWAP-USDT', 'leverage=20', '--base-url', venue.url], creds);
    expect(out.code).toBe(0);
    expect(venue.last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(venue.last().rawBody.startsWith('symbol=BTC-SWAP-USDT&leverage=20&recvWindow=5000&timestamp=')).toBe(true);
    expect(venue.last().signature).toBe('valid');
  });

  it('sends public endpoints unsigned', async () => {
    venue.reply('GET /api/v1/time', { body: { serverTime: 1 } });
    const out = await stratd(['call', 'GET', '/api/v1/time', '--base-url', venue.url]);
    expect(out.code).toBe(0);
    expect(venue.last().signature).toBe('absent');
  });

  it('exits non-zero on an error reply with code and message on stderr', async () => {
    venue.reply('GET /api/v2/futures/order', { status: 400, body: { code: -2013, msg: 'Order does not exist.' } });
    const out = await stratd(['call', 'GET', '/api/v2/futures/order', 'orderId=1', '--base-url', venue.url], creds);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('-2013');
    expect(out.stderr).toContain('Order does not exist.');
    expect(out.stdout).toBe('');
  });

  it('calls the catalog with the Bearer token', async () => {
    venue.reply('GET /v1/products', { body: { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } } });
    const out = await stratd(['call', 'GET', '/v1/products', 'status=draft', '--catalog', '--base-url', venue.url], { STRATD_CATALOG_TOKEN: 'tok-1' });
    expect(out.code).toBe(0);
    expect(venue.last().headers['authorization']).toBe('Bearer tok-1');
    expect(paramsOf(venue.last())).toEqual({ status: 'draft' });
  });

  it('exits non-zero on a catalog failure envelope', async () => {
    venue.reply('POST /v1/products', { status: 409, body: { success: false, error: { code: 'duplicate_sku', message: 'SKU exists' } } });
    const out = await stratd(['call', 'POST', '/v1/products', '--json', '{"sku":"A"}', '--catalog', '--base-url', venue.url], { STRATD_CATALOG_TOKEN: 't' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('duplicate_sku');
  });

  it('reads the secret from a file named in the config; a YAML error names file, line and path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratd-call-'));
    writeFileSync(join(dir, 'secret'), `${venue.secret}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'key'), TEST_KEY, { mode: 0o600 });
    const good = join(dir, 'good.yml');
    writeFileSync(good, `exchange:\n  baseUrl: ${venue.url}\n  apiKeyFile: ${join(dir, 'key')}\n  apiSecretFile: ${join(dir, 'secret')}\n`);
    venue.reply('GET /api/v1/futures/positions', { body: [] });
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, `exchange:\n  baseUrl: ${venue.url}\n  recvWindowMs: 90000\n`);
    const inline = join(dir, 'inline.yml');
    writeFileSync(inline, `exchange:\n  baseUrl: ${venue.url}\n  apiSecret: hunter2\n`);
    // The three at once (each its own process): the two refused configs send nothing, so the venue's last request is the good one's.
    const [ok, out, refused] = await Promise.all([good, bad, inline].map((config) => stratd(['call', 'GET', '/api/v1/futures/positions', '--config', config])));
    expect(venue.requests).toHaveLength(1);
    expect(ok!.code).toBe(0);
    expect(venue.last().signature).toBe('valid');

    expect(out!.code).toBe(2);
    expect(out!.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+: exchange\\.recvWindowMs: `));

    expect(refused!.code).toBe(2);
    expect(refused!.stderr).toContain('never read from the YAML body');
    expect(refused!.stderr).not.toContain('hunter2');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('a usage mistake exits 2 with one readable line', async () => {
    const out = await stratd(['call', 'FETCH', '/x', '--base-url', 'http://127.0.0.1:9']);
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain('unknown HTTP method');
  });
});

describe('stratd call signing rules from the endpoint table', () => {
  it('signs only the query of a v1 batchOrders JSON body, like the typed method', async () => {
    venue.reply('POST /api/v1/futures/batchOrders', { body: { code: 200, result: [] } });
    const body = '[{"symbol":"BTC-SWAP-USDT","side":"BUY_OPEN","type":"LIMIT","price":"16500","quantity":"10","priceType":"INPUT","newClientOrderId":"b1"}]';
    const out = await stratd(['call', 'POST', '/api/v1/futures/batchOrders', '--json', body, '--base-url', venue.url], creds);
    expect(out.code).toBe(0);
    expect(venue.last().rawBody).toBe(body);
    expect(venue.last().signature).toBe('valid');
    expect(venue.last().signedText).toBe(venue.last().rawQuery.replace(/&signature=[0-9a-f]{64}$/, ''));
  });
});
