import type { z } from 'zod';
import { futuresBalanceListSchema } from '../../src/venue/parsers/account.js';
import { readFuturesBalances } from '../../src/venue/parsers/futures-balance-rows.js';
import { tickers24hSchema } from '../../src/venue/parsers/market.js';
import { regularOrderV1ListSchema, regularOrderV1Schema } from '../../src/venue/parsers/order-v1.js';
import { readRegularOrderV1, readRegularOrdersV1 } from '../../src/venue/parsers/order-v1-rows.js';
import { readTickers24h } from '../../src/venue/parsers/ticker24h-rows.js';
import { parseWire } from '../../src/venue/wire/schema.js';
import { corpusFile } from './corpus/corpus.js';

/**
 * The plain one-pass readers of hot replies (balances, 24h tickers, v1 orders) against the zod schema
 * they stand in for: a payload the reader takes gives the very value the schema gives (same keys in the
 * same order, same decimals), and a reader gives a payload up exactly when the schema would not take it
 * whole (a row skipped, or the reply refused), so the schema's skipping and reporting still decide it.
 */

interface Case {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly read: (payload: unknown) => unknown;
  readonly row: Readonly<Record<string, unknown>>;
  /** Lists of this reply: a bare row is a list of one (tickers) or a refused reply (balances). */
  readonly list: boolean;
  readonly corpus: string;
}

const BALANCE = { balance: '100000', availableBalance: '99986.34405376', positionMargin: '0', orderMargin: '13.65594624', asset: 'USDT', coin: 'USDT', crossUnRealizedPnl: '0', coupon: '0' };
const TICKER = { t: 1795717829631, s: 'BTC-SWAP-USDT', c: '111141.4', h: '111161', l: '111030.1', o: '111030.1', b: '111141.3', a: '111141.4', v: '1017.1', qv: '112978.28839', op: '180165.5', pc: '111.3', pcp: '0.001' };
const ORDER = {
  time: '1795717829780',
  updateTime: '1795717829780',
  orderId: '2124000000000000004',
  clientOrderId: 'tp-0',
  symbol: 'BTC-SWAP-USDT',
  price: '88905.9',
  leverage: '20',
  origQty: '1',
  executedQty: '0',
  executeQty: '0',
  avgPrice: '0',
  marginLocked: '4.55198208',
  type: 'LIMIT',
  side: 'BUY_OPEN',
  timeInForce: 'GTC',
  status: 'PENDING_NEW',
  priceType: 'INPUT',
  contractMultiplier: '0.00100000',
  triggerType: '0',
  fallType: '0',
  activeStatus: '0',
};

const CASES: readonly Case[] = [
  { name: 'futures balance rows', schema: futuresBalanceListSchema, read: readFuturesBalances, row: BALANCE, list: true, corpus: 'futures-balance.json' },
  { name: '24h ticker rows', schema: tickers24hSchema, read: readTickers24h, row: TICKER, list: true, corpus: 'contract-ticker-24hr.json' },
  { name: 'v1 open orders', schema: regularOrderV1ListSchema, read: readRegularOrdersV1, row: ORDER, list: true, corpus: 'open-orders-v1.json' },
  { name: 'a v1 order (place, cancel, query)', schema: regularOrderV1Schema, read: readRegularOrderV1, row: ORDER, list: false, corpus: 'order-v1.json' },
];

/** Wire values put in each field in turn: the kinds of text and numbers live replies carry, and garbage. */
const VALUES: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  '0',
  '12.5',
  ' 12.5 ',
  '-3',
  '+4',
  '2.5e1',
  '.5',
  '5.',
  '1,5',
  '0x10',
  'abc',
  '1e31',
  '1e-31',
  'Infinity',
  'NaN',
  '12345678901234567890',
  '123456789012345678901',
  '99999999999999999999',
  '1795717829780',
  '-1795717829780',
  'LIMIT',
  'MARKET',
  'STOP',
  'BUY_OPEN',
  'SELL_CLOSE',
  'GTC',
  'IOC',
  'NEW',
  'FILLED',
  'INPUT',
  'limit',
  'USDT',
  0,
  5,
  -1,
  1.5,
  2 ** 53,
  2 ** 60,
  1e31,
  1795717829780,
  true,
  false,
  {},
  [],
  ['1'],
];

/** What the schema makes of a payload through the client's own path (parseWire), and how many rows it skipped. */
function bySchema(schema: z.ZodType, payload: unknown): { readonly value: unknown; readonly skipped: number } {
  let skipped = 0;
  const parsed = parseWire(schema, payload, 'test', (s) => (skipped += s.rows.length));
  return { value: parsed.ok ? parsed.value : 'refused', skipped };
}

/** The reader matches the schema on this payload: the same value when it takes it, else the schema does not take it whole. */
function expectSame(c: Case, payload: unknown): 'read' | 'left to the schema' {
  const read = c.read(payload);
  const schema = bySchema(c.schema, payload);
  if (read === undefined) {
    expect(schema.value === 'refused' || schema.skipped > 0).toBe(true);
    return 'left to the schema';
  }
  expect(schema.skipped).toBe(0);
  expect(read).toStrictEqual(schema.value);
  expect(keysOf(read)).toEqual(keysOf(schema.value));
  return 'read';
}

/** Each row's keys in order (key order is what a printed reply shows). */
function keysOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysOf);
  return value !== null && typeof value === 'object' ? Object.keys(value) : value;
}

function withField(row: Readonly<Record<string, unknown>>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...row };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

const wrap = (c: Case, row: unknown): unknown => (c.list ? [row] : row);

describe.each(CASES)('$name read in one plain pass', (c) => {
  it('takes the recorded simulator reply and gives the schema value', () => {
    expect(expectSame(c, wrap(c, c.row))).toBe('read');
  });

  it('takes every real and documented reply of its wire corpus file and gives the schema value', () => {
    const samples = corpusFile(c.corpus).samples;
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) expect([sample.source, expectSame(c, sample.reply)]).toEqual([sample.source, 'read']);
  });

  it('agrees with the schema for every wire value in every field (taken with the same value, or left to the schema)', () => {
    const outcomes = new Set<string>();
    for (const key of [...Object.keys(c.row), 'extra']) {
      for (const value of VALUES) outcomes.add(expectSame(c, wrap(c, withField(c.row, key, value))));
    }
    // The table holds values of both kinds for every case: the comparison ran both ways.
    expect([...outcomes].sort()).toEqual(['left to the schema', 'read']);
  });

  it('agrees with the schema when two fields change at once (absent, null, "", a number)', () => {
    const keys = Object.keys(c.row);
    for (const a of keys) {
      for (const b of keys) {
        if (a >= b) continue;
        for (const value of [undefined, null, '', 7]) expectSame(c, wrap(c, withField(withField(c.row, a, value), b, value)));
      }
    }
  });

  it('agrees with the schema on the reply itself being something else', () => {
    for (const payload of [null, undefined, 'x', 5, [], {}, [null], [[]], [c.row, null], c.list ? c.row : [c.row]]) expectSame(c, payload);
  });

  if (c.list) {
    it('gives a list with one bad row up, and the schema keeps the good rows and reports the bad one', () => {
      const payload = [c.row, withField(c.row, Object.keys(c.row)[2] ?? '', 'n/a'), c.row];
      expect(c.read(payload)).toBeUndefined();
      expect(bySchema(c.schema, payload)).toEqual({ value: [expect.anything(), expect.anything()], skipped: 1 });
    });
  }
});

describe('the readers keep wire values lossless', () => {
  it('a 64-bit order id stays its text and decimals keep every digit', () => {
    const read = readRegularOrderV1({ ...ORDER, orderId: '18446744073709551615', price: '0.123456789012345678901234567', origQty: 3 });
    expect(read?.orderId).toBe('18446744073709551615');
    expect(read?.price.toFixed()).toBe('0.123456789012345678901234567');
    expect(read?.origQty.toFixed()).toBe('3');
  });

  it('a balance row names its coin by `coin`, else `asset`, and an absent coupon is no key', () => {
    const [row] = readFuturesBalances([{ ...BALANCE, coin: undefined, coupon: '' }]) ?? [];
    expect(row?.coin).toBe('USDT');
    expect(row !== undefined && 'coupon' in row).toBe(false);
  });
});
