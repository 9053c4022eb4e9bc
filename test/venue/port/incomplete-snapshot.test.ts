import { VenueExchangePort } from '../../../src/venue/port/venue-exchange-port.js';
import { clientFor, v2 } from '../../support/client.js';
import { FixtureVenue } from '../../support/fixture-venue.js';

/**
 * Reconciliation acts on what an account snapshot lacks (a position missing from it is flattened in the
 * cache, an order missing from it is taken for closed), so a list row the parsing rule would skip must
 * not make a thinner snapshot: the fetch fails, retryable, and names the row.
 */
const POSITION = {
  symbol: 'BTC-SWAP-USDT',
  side: 'LONG',
  avgPrice: '100000',
  position: '3',
  available: '3',
  leverage: '20',
  flp: '90000',
  margin: '15',
  unrealizedPnL: '0',
  realizedPnL: '0',
};

let venue: FixtureVenue;
beforeEach(async () => {
  venue = await FixtureVenue.start();
  venue
    .always('GET /api/v2/futures/open-orders', { body: v2([]) })
    .always('GET /api/v2/futures/open-algo-orders', { body: v2([]) })
    .always('GET /api/v1/futures/balance', { body: [{ balance: '1000', availableBalance: '1000', positionMargin: '0', orderMargin: '0', asset: 'USDT', crossUnRealizedPnl: '0' }] })
    .always('GET /api/v1/futures/balanceFlow', { body: [] });
});
afterEach(() => venue.close());

test('a snapshot whose positions reply carries an unreadable row is refused, naming it; a whole one is taken', async () => {
  const port = new VenueExchangePort({ client: clientFor(venue) });
  venue.reply('GET /api/v1/futures/positions', { body: [POSITION, { ...POSITION, symbol: 'ETH-SWAP-USDT', position: 'three' }] });
  const refused = await port.fetchAccount(['BTC-SWAP-USDT']);
  expect(refused.ok ? 'taken' : [refused.error.code, refused.error.retryable]).toEqual(['INCOMPLETE_SNAPSHOT', true]);
  expect(refused.ok ? '' : refused.error.message).toContain('symbol=ETH-SWAP-USDT');

  venue.reply('GET /api/v1/futures/positions', { body: [POSITION] });
  const taken = await port.fetchAccount(['BTC-SWAP-USDT']);
  expect(taken.ok ? taken.value.positions.map((p) => [p.symbol, p.positionSide, p.qty.toFixed()]) : taken.error).toEqual([['BTC-SWAP-USDT', 'LONG', '3']]);
});

test('an unreadable open-order row refuses the snapshot too', async () => {
  const port = new VenueExchangePort({ client: clientFor(venue) });
  venue.reply('GET /api/v1/futures/positions', { body: [] });
  venue.reply('GET /api/v2/futures/open-orders', { body: v2([{ orderId: '1', symbol: 'BTC-SWAP-USDT' }]) });
  const refused = await port.fetchAccount(['BTC-SWAP-USDT']);
  expect(refused.ok ? 'taken' : refused.error.code).toBe('INCOMPLETE_SNAPSHOT');
});
