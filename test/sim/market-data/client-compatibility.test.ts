import type { z } from 'zod';
import type { EndpointName } from '../../../src/protocol/endpoints.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import { exchangeInfoSchema } from '../../../src/venue/parsers/exchange-info.js';
import {
  bookTickersSchema,
  fundingHistoryListSchema,
  fundingRatesSchema,
  indexKlinesSchema,
  indexPriceComponentsSchema,
  indexPricesSchema,
  insuranceFundListSchema,
  klinesSchema,
  longShortRatiosSchema,
  markPriceKlinesSchema,
  markPriceListSchema,
  markPriceOneSchema,
  openInterestListSchema,
  orderBookSchema,
  pingSchema,
  priceTickersSchema,
  riskLimitLevelsSchema,
  serverTimeSchema,
  tickers24hSchema,
  tradesSchema,
} from '../../../src/venue/parsers/market.js';
import { parseWire } from '../../../src/venue/wire/schema.js';
import type { FedMarket } from './market-fixture.js';
import { HOUR, START, call, feedMarket, wireText } from './market-fixture.js';

/**
 * Every public route's reply, serialised as the server sends it (JSON.stringify of the data), must
 * parse with the project's own client parsers — the same schemas MarketApi applies to live replies.
 */
interface Case {
  readonly name: EndpointName;
  readonly query: Readonly<Record<string, string>>;
  readonly schema: z.ZodType;
}

const FROM = String(START);
const TO = String(START + 2 * HOUR);

const CASES: readonly Case[] = [
  { name: 'ping', query: {}, schema: pingSchema },
  { name: 'time', query: {}, schema: serverTimeSchema },
  { name: 'exchangeInfo', query: {}, schema: exchangeInfoSchema },
  { name: 'depth', query: { symbol: 'BTC-SWAP-USDT', limit: '5' }, schema: orderBookSchema },
  { name: 'depthMerged', query: { symbol: 'ETH-SWAP-USDT', scale: '2' }, schema: orderBookSchema },
  { name: 'trades', query: { symbol: 'BTC-SWAP-USDT' }, schema: tradesSchema },
  { name: 'klines', query: { symbol: 'BTC-SWAP-USDT', interval: '1h', startTime: FROM }, schema: klinesSchema('1h') },
  { name: 'klines', query: { symbol: 'ETH-SWAP-USDT', interval: '1M', startTime: '0' }, schema: klinesSchema('1M') },
  { name: 'indexKlines', query: { symbol: 'BTCUSDT', interval: '5m', from: FROM, to: TO }, schema: indexKlinesSchema },
  { name: 'indexPriceComponents', query: { symbol: 'ETHUSDT' }, schema: indexPriceComponentsSchema },
  { name: 'markPriceKlines', query: { symbol: 'BTC-SWAP-USDT', interval: '15m', from: FROM, to: TO }, schema: markPriceKlinesSchema },
  { name: 'markPrice', query: { symbol: 'BTC-SWAP-USDT' }, schema: markPriceOneSchema },
  { name: 'markPrice', query: {}, schema: markPriceListSchema },
  { name: 'fundingRate', query: {}, schema: fundingRatesSchema },
  { name: 'fundingRate', query: { symbol: 'ETH-SWAP-USDT' }, schema: fundingRatesSchema },
  { name: 'historyFundingRate', query: { symbol: 'BTC-SWAP-USDT' }, schema: fundingHistoryListSchema },
  { name: 'openInterest', query: { symbol: 'BTC-SWAP-USDT' }, schema: openInterestListSchema },
  { name: 'longShortRatio', query: { symbol: 'BTC-SWAP-USDT', period: '30m' }, schema: longShortRatiosSchema },
  { name: 'insuranceFund', query: { symbol: 'ETH-SWAP-USDT' }, schema: insuranceFundListSchema },
  { name: 'riskLimits', query: { symbol: 'ETH-SWAP-USDT' }, schema: riskLimitLevelsSchema },
  { name: 'contractTicker24h', query: {}, schema: tickers24hSchema },
  { name: 'contractTicker24h', query: { symbol: 'BTC-SWAP-USDT', realtimeInterval: '1d+8' }, schema: tickers24hSchema },
  { name: 'contractTickerPrice', query: {}, schema: priceTickersSchema },
  { name: 'index', query: {}, schema: indexPricesSchema },
  { name: 'index', query: { symbol: 'NOPEUSDT' }, schema: indexPricesSchema },
  { name: 'contractBookTicker', query: { symbol: 'ETH-SWAP-USDT' }, schema: bookTickersSchema },
  { name: 'spotTicker24h', query: {}, schema: tickers24hSchema },
  { name: 'spotTicker24h', query: { symbol: 'ETHUSDT' }, schema: tickers24hSchema },
  { name: 'spotTickerPrice', query: { symbol: 'BTC-SWAP-USDT' }, schema: priceTickersSchema },
  { name: 'spotBookTicker', query: {}, schema: bookTickersSchema },
];

let fed: FedMarket;
beforeAll(() => {
  fed = feedMarket({ hours: 2 });
});

describe('public routes and the client parsers', () => {
  it('there is exactly one route per public (security NONE) endpoint of the table', () => {
    const publicEndpoints = Object.values(ENDPOINTS).filter((e) => e.security === 'NONE');
    expect(fed.routes.map((r) => r.endpoint)).toEqual(publicEndpoints);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(publicEndpoints.length);
  });

  it.each(CASES.map((c) => [`${c.name} ${new URLSearchParams(c.query).toString()}`, c] as const))('%s answers and parses', (_label, c) => {
    const reply = call(fed, c.name, c.query);
    expect(reply.kind).toBe('ok');
    const text = wireText(reply);
    const parsed = parseWire(c.schema, JSON.parse(text) as unknown, c.name);
    if (!parsed.ok) throw new Error(`${c.name}: ${parsed.error.message} at ${parsed.error.field ?? '?'}: ${text.slice(0, 300)}`);
    expect(parsed.value).toBeDefined();
  });

  it('unknown-symbol quirks read as "none" through the client (empty body → undefined, as the transport does)', () => {
    const body = (text: string): unknown => (text.trim() === '' ? undefined : JSON.parse(text));
    const mark = parseWire(markPriceOneSchema, body(wireText(call(fed, 'markPrice', { symbol: 'NOPE-SWAP-USDT' }))), 'markPrice');
    expect(mark).toEqual({ ok: true, value: undefined });
    const components = parseWire(indexPriceComponentsSchema, body(wireText(call(fed, 'indexPriceComponents', { symbol: 'NOPE' }))), 'components');
    expect(components).toEqual({ ok: true, value: undefined });
    const index = parseWire(indexPricesSchema, body(wireText(call(fed, 'index', { symbol: 'NOPE' }))), 'index');
    expect(index).toEqual({ ok: true, value: { index: {}, edp: {} } });
  });

  it('routes also answer before any market data arrived (fresh service, market at the initial prices)', () => {
    const fresh = feedMarket({ hours: 0 });
    for (const c of CASES) {
      const reply = call(fresh, c.name, c.query, START);
      expect(reply.kind).toBe('ok');
      const parsed = parseWire(c.schema, JSON.parse(wireText(reply)) as unknown, c.name);
      if (!parsed.ok) throw new Error(`${c.name}: ${parsed.error.message} at ${parsed.error.field ?? '?'}`);
    }
  });
});
