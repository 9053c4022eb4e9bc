import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { clientFor, TEST_KEY } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';

// API-NOTES §7 (the listen key of the listenKeyWillExpire example).
const KEY = 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu';

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

const keysOf = (params: ReadonlyArray<readonly [string, string]>): string[] => params.map(([k]) => k);

describe('listen key lifecycle', () => {
  it('creates a listen key with a signed request and returns the key', async () => {
    venue.reply('POST /api/v1/listenKey', { body: { listenKey: KEY } });
    const result = await client.userStream.createListenKey();
    expect(result).toEqual({ ok: true, value: KEY });
    const wire = venue.last();
    expect(wire.method).toBe('POST');
    expect(wire.path).toBe('/api/v1/listenKey');
    expect(wire.rawBody).toBe('');
    expect(keysOf(wire.params)).toEqual(['recvWindow', 'timestamp']);
    expect(wire.signature).toBe('valid');
    expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
  });

  it('sends category for a USDC-M key', async () => {
    venue.reply('POST /api/v1/listenKey', { body: { listenKey: 'usdc-key' } });
    const result = await client.userStream.createListenKey('USDC');
    expect(result.ok && result.value).toBe('usdc-key');
    expect(venue.last().params[0]).toEqual(['category', 'USDC']);
    expect(venue.last().signature).toBe('valid');
  });

  it('keeps a key alive with PUT (answer {})', async () => {
    venue.reply('PUT /api/v1/listenKey', { body: {} });
    const result = await client.userStream.keepAliveListenKey(KEY, 'USDT');
    expect(result).toEqual({ ok: true, value: undefined });
    const wire = venue.last();
    expect(wire.method).toBe('PUT');
    expect(wire.path).toBe('/api/v1/listenKey');
    expect(keysOf(wire.params)).toEqual(['listenKey', 'category', 'recvWindow', 'timestamp']);
    expect(paramsOf(wire)).toMatchObject({ listenKey: KEY, category: 'USDT' });
    expect(wire.signature).toBe('valid');
  });

  it('closes a key with DELETE (answer {})', async () => {
    venue.reply('DELETE /api/v1/listenKey', { body: {} });
    const result = await client.userStream.closeListenKey(KEY);
    expect(result.ok).toBe(true);
    const wire = venue.last();
    expect(wire.method).toBe('DELETE');
    expect(paramsOf(wire)).toMatchObject({ listenKey: KEY });
    expect(wire.signature).toBe('valid');
  });

  it('refuses a blank listen key without sending', async () => {
    const keepAlive = await client.userStream.keepAliveListenKey('');
    expect(!keepAlive.ok && keepAlive.error.rule).toBe('mandatory-parameter');
    expect(!keepAlive.ok && keepAlive.error.field).toBe('listenKey');
    const close = await client.userStream.closeListenKey('  ');
    expect(!close.ok && close.error.kind).toBe('invalid-request');
    expect(venue.requests).toHaveLength(0);
  });

  it('reports a reply without a listen key as malformed', async () => {
    venue.reply('POST /api/v1/listenKey', { body: {} });
    const missing = await client.userStream.createListenKey();
    expect(!missing.ok && missing.error.kind).toBe('malformed-response');
    expect(!missing.ok && missing.error.field).toBe('listenKey');
    venue.reply('POST /api/v1/listenKey', { body: { listenKey: '' } });
    const empty = await client.userStream.createListenKey();
    expect(!empty.ok && empty.error.field).toBe('listenKey');
  });

  it('maps an unknown key (-1125) to rejected', async () => {
    venue.reply('PUT /api/v1/listenKey', { status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    const result = await client.userStream.keepAliveListenKey('gone');
    expect(!result.ok && result.error.kind).toBe('rejected');
    expect(!result.ok && result.error.code).toBe(-1125);
  });
});
