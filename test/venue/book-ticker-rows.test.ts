import { readBookTickerRow, readBookTickers } from '../../src/venue/parsers/book-ticker-rows.js';
import { bookTickerSchema, bookTickersSchema } from '../../src/venue/parsers/market.js';
import type { SkippedRows } from '../../src/venue/wire/tolerant-list.js';
import { parseWire } from '../../src/venue/wire/schema.js';
import { clientFor } from '../support/client.js';
import { FixtureVenue } from '../support/fixture-venue.js';

const BTC = 'BTC-SWAP-USDT';
const ROW = { t: 1757452337074, s: BTC, b: '111631.8', bq: '120', a: '111631.9', aq: '75' };

/** What the schema makes of a payload, and what it skipped. */
function bySchema(payload: unknown): { readonly value: unknown; readonly skipped: number } {
  let skipped = 0;
  const parsed = parseWire(bookTickersSchema, payload, 'test', (s) => (skipped += s.rows.length));
  return { value: parsed.ok ? parsed.value : 'error', skipped };
}

describe('book ticker rows read in one plain pass (the market poll on the way to an order)', () => {
  it.each([
    ['one row', [ROW]],
    ['a bare row (one symbol asked)', ROW],
    ['no rows', []],
    ['numbers for amounts and text for the time', [{ ...ROW, t: '1757452337074', b: 111631.8, bq: 120, a: 111631.9, aq: 75 }]],
    ['amounts padded with spaces, exponents, fields stratd does not read', [{ ...ROW, b: ' 111631.8 ', aq: '7.5e1', extra: { x: 1 } }, { ...ROW, s: 'ETH-SWAP-USDT' }]],
    ['a zero quantity', [{ ...ROW, bq: '0' }]],
  ])('%s: the same rows as bookTickersSchema', (_, payload) => {
    const read = readBookTickers(payload);
    expect(read).toBeDefined();
    expect(bySchema(payload)).toEqual({ value: read, skipped: 0 });
  });

  it.each([
    ['a row without a bid', [{ ...ROW, b: undefined }]],
    ['a price that is not a decimal', [ROW, { ...ROW, a: '1,5' }]],
    ['an empty price', [{ ...ROW, b: '' }]],
    ['an absurd magnitude', [{ ...ROW, aq: '1e31' }]],
    ['a time with letters', [{ ...ROW, t: '17574523370x' }]],
    ['a negative time', [{ ...ROW, t: -1 }]],
    ['a fractional time', [{ ...ROW, t: 1.5 }]],
    ['a time no number holds exactly', [{ ...ROW, t: '99999999999999999999' }]],
    ['a numeric symbol', [{ ...ROW, s: 5 }]],
    ['a quantity given as a boolean', [{ ...ROW, bq: true }]],
    ['a null row', [null, ROW]],
    ['a row that is a list', [[1, 2]]],
  ])('%s: left to the schema, which skips and reports the row', (_, payload) => {
    expect(readBookTickers(payload)).toBeUndefined();
    const { value, skipped } = bySchema(payload);
    expect(skipped).toBeGreaterThan(0);
    expect(value).toHaveLength((payload as unknown[]).length - skipped);
  });

  it.each([['null', null], ['text', 'BTC'], ['a number', 5]])('a payload that is %s: left to the schema, which refuses it', (_, payload) => {
    expect(readBookTickers(payload)).toBeUndefined();
    expect(bySchema(payload).value).toBe('error');
  });

  it.each([
    ['a row', ROW, true],
    ['numbers for amounts and text for the time', { ...ROW, t: '1757452337074', b: 111631.8, bq: 120, a: 111631.9, aq: 75 }, true],
    ['padded amounts, an exponent, fields stratd does not read', { ...ROW, b: ' 111631.8 ', aq: '7.5e1', extra: 1 }, true],
    ['a row without a bid', { ...ROW, b: undefined }, false],
    ['a price that is not a decimal', { ...ROW, a: '1,5' }, false],
    ['a time with letters', { ...ROW, t: '17574523370x' }, false],
    ['a list of rows', [ROW], false],
    ['null', null, false],
  ])('a socket frame that is %s: read alone as bookTickerSchema reads it, or left to it', (_, payload, taken) => {
    const read = readBookTickerRow(payload);
    const parsed = parseWire(bookTickerSchema, payload, 'test', () => undefined);
    if (taken) expect(parsed.ok && parsed.value).toEqual(read);
    else {
      expect(read).toBeUndefined();
      expect(parsed.ok).toBe(false);
    }
  });

  it('a field read with the wire value it had last time answers the same Decimal; a changed value is read afresh', () => {
    const first = readBookTickers([{ ...ROW, b: '111700.1', bq: 7 }])?.[0];
    const again = readBookTickers([{ ...ROW, b: '111700.1', bq: 7 }])?.[0];
    expect(again?.bidPrice).toBe(first?.bidPrice);
    expect(again?.bidQty).toBe(first?.bidQty);
    const moved = readBookTickers([{ ...ROW, b: '111700.2', bq: '7' }])?.[0];
    expect(moved?.bidPrice.toString()).toBe('111700.2');
    expect(moved?.bidQty).not.toBe(first?.bidQty);
    expect(moved?.bidQty.toString()).toBe('7');
    // A bad value stays bad when it comes again, and the good one before it is not handed out for it.
    expect(readBookTickers([{ ...ROW, a: '1,5' }])).toBeUndefined();
    expect(readBookTickers([{ ...ROW, a: '1,5' }])).toBeUndefined();
    expect(readBookTickerRow({ ...ROW, a: '111631.9' })?.askPrice.toString()).toBe('111631.9');
  });

  it('the client still skips and reports a bad row of a book ticker reply, and keeps the good ones', async () => {
    const venue = await FixtureVenue.start();
    try {
      venue.always('GET /quote/v1/contract/ticker/bookTicker', { body: [ROW, { ...ROW, s: 'ETH-SWAP-USDT', b: 'n/a' }] });
      const client = clientFor(venue);
      const reports: SkippedRows[] = [];
      client.rest.skippedRows$.subscribe((s) => reports.push(s));
      const reply = await client.market.contractBookTicker();
      expect(reply.ok && reply.value.map((r) => [r.symbol, r.bidPrice.toString()])).toEqual([[BTC, '111631.8']]);
      expect(reports).toEqual([{ endpoint: 'GET /quote/v1/contract/ticker/bookTicker', rows: [expect.objectContaining({ index: 1, row: 's=ETH-SWAP-USDT', field: 'b' })] }]);
      client.stop();
    } finally {
      venue.close();
    }
  });
});
