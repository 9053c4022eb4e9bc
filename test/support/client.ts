import { systemTime } from '../../src/core/system-time.js';
import type { TimeSource } from '../../src/core/clock.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { ExchangeClientOptions } from '../../src/venue/exchange-client.js';
import type { FixtureVenue } from './fixture-venue.js';

export const TEST_KEY = 'fixture-key';

/** A client signed with the fixture venue's secret, talking to it over loopback. */
export function clientFor(venue: FixtureVenue, extra: Partial<ExchangeClientOptions> = {}, time: TimeSource = systemTime): ExchangeClient {
  return new ExchangeClient({
    baseUrl: venue.url,
    credentials: { apiKey: TEST_KEY, apiSecret: venue.secret },
    time,
    timeoutMs: 2000,
    ...extra,
  });
}

/** Wraps a v2 payload in the `{code,msg,data}` envelope. */
export function v2(data: unknown): { code: number; msg: string; data: unknown } {
  return { code: 200, msg: 'success', data };
}
