import { dec } from '../../../src/core/decimal.js';
import { contractFilters } from '../../../src/sim/engine/contract-filters.js';
import { BTC_SWAP_USDC, BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { MarketDataService } from '../../../src/sim/market-data/market-data-service.js';
import { marketDataRoutes } from '../../../src/sim/market-data/market-data-routes.js';
import { exchangeInfoSchema } from '../../../src/venue/parsers/exchange-info.js';
import type { SymbolFilter } from '../../../src/venue/parsers/exchange-info.js';
import {
  indexPriceComponentsSchema,
  indexPricesSchema,
  insuranceFundListSchema,
  longShortRatiosSchema,
  markPriceListSchema,
  markPriceSchema,
  openInterestListSchema,
  riskLimitLevelsSchema,
} from '../../../src/venue/parsers/market.js';
import type { FedMarket } from './market-fixture.js';
import { HOUR, MINUTE, MONTH_END, call, contextFor, errorOf, feedMarket, okData, parsedBy, pricesOf, tradesOf } from './market-fixture.js';

let fed: FedMarket;
beforeAll(() => {
  fed = feedMarket({ hours: 3, start: MONTH_END });
});

/** The filters a contract publishes, keyed by type, as plain text. */
function filtersByType(filters: readonly SymbolFilter[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const { filterType, ...rest } of filters) {
    out[filterType] = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'number' ? String(v) : (v as { toFixed(): string }).toFixed()]));
  }
  return out;
}

describe('exchangeInfo', () => {
  const clock = new VirtualClock(MONTH_END);
  const service = new MarketDataService([BTC_SWAP_USDT, ETH_SWAP_USDT, BTC_SWAP_USDC], clock);
  const reply = marketDataRoutes(service)
    .find((r) => r.endpoint.path === '/api/v1/exchangeInfo')
    ?.handle(contextFor({}, MONTH_END));

  it('parses with the client parser; serverTime a string; rate limits as live', () => {
    if (reply === undefined || reply instanceof Promise || reply.kind !== 'ok') throw new Error('no reply');
    const wire = JSON.parse(JSON.stringify(reply.data)) as Record<string, unknown>;
    expect(wire['serverTime']).toBe(String(MONTH_END));
    const info = parsedBy(exchangeInfoSchema, wire);
    expect(info.rateLimits).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 3000, burst: 3000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 2, limit: 60 },
    ]);
    expect(info.coins?.map((c) => c.coinId)).toEqual(['USDT', 'USDC', 'BTC', 'ETH']);
    expect(info.symbols?.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'BTCUSDC']);
    expect(wire['brokerFilters']).toEqual([]);
    expect(wire['options']).toEqual([]);
  });

  it('every contract publishes exactly contractFilters, with the seven filter types of §5.1', () => {
    if (reply === undefined || reply instanceof Promise || reply.kind !== 'ok') throw new Error('no reply');
    const info = parsedBy(exchangeInfoSchema, JSON.parse(JSON.stringify(reply.data)));
    for (const instrument of [BTC_SWAP_USDT, ETH_SWAP_USDT, BTC_SWAP_USDC]) {
      const contract = info.contracts.find((c) => c.symbol === instrument.symbol);
      if (contract === undefined) throw new Error(instrument.symbol);
      const f = contractFilters(instrument);
      expect(filtersByType(contract.filters)).toEqual({
        PRICE_FILTER: f.priceFilter,
        LOT_SIZE: f.lotSize,
        MIN_NOTIONAL: { minNotional: f.minNotional },
        TRADE_AMOUNT: f.tradeAmount,
        LIMIT_TRADING: f.limitTrading,
        MARKET_TRADING: f.marketTrading,
        OPEN_QUOTE: { noAllowMarketStartTime: '0', noAllowMarketEndTime: '0', limitOrderStartTime: '0', limitOrderEndTime: '0', limitMinPrice: '0', limitMaxPrice: '0' },
      });
      expect(contract).toMatchObject({
        symbolName: instrument.symbol,
        status: 'TRADING',
        index: instrument.baseAsset,
        indexToken: `${instrument.baseAsset}${instrument.category}`,
        marginToken: instrument.category,
        quoteAsset: instrument.category,
        inverse: false,
        isRwa: false,
        closingStartTime: 0,
        closingEndTime: 0,
        categories: [],
      });
      expect(contract.contractMultiplier.toFixed()).toBe(instrument.contractMultiplier);
      expect(contract.riskLimits.map((r) => r.riskLimitId)).toEqual(instrument.riskLimits.map((r) => r.riskLimitId));
    }
  });
});

describe('risk limits', () => {
  it('levels from 1 by quantity with maxLeverage = floor(1 / initialMargin)', () => {
    const rows = okData(call(fed, 'riskLimits', { symbol: 'BTC-SWAP-USDT' }));
    expect(rows).toEqual([
      { level: 1, quantity: '42000', maintainMargin: '0.01', initialMargin: '0.02', maxLeverage: 50 },
      { level: 2, quantity: '84000', maintainMargin: '0.02', initialMargin: '0.04', maxLeverage: 25 },
    ]);
    expect(parsedBy(riskLimitLevelsSchema, rows)).toHaveLength(2);
    expect(errorOf(call(fed, 'riskLimits')).code).toBe(-1102);
    expect(errorOf(call(fed, 'riskLimits', { symbol: 'NOPE' })).code).toBe(-1121);
  });
});

describe('mark price and index', () => {
  it('mark price: one object with a symbol, an array without', () => {
    const mark = pricesOf(fed.events, 'mark', 'BTC-SWAP-USDT').at(-1);
    const one = okData(call(fed, 'markPrice', { symbol: 'BTC-SWAP-USDT' }));
    expect(one).toEqual({ exchangeId: 301, symbolId: 'BTC-SWAP-USDT', price: mark?.price, time: mark?.ts });
    expect(parsedBy(markPriceSchema, one).price.toFixed()).toBe(mark?.price);
    expect(parsedBy(markPriceListSchema, okData(call(fed, 'markPrice')))).toHaveLength(2);
  });

  it('mark price of an unknown symbol: 200 with an empty body (live quirk)', () => {
    expect(call(fed, 'markPrice', { symbol: 'NOPE-SWAP-USDT' })).toEqual({ kind: 'raw', status: 200, body: '' });
  });

  it('index and edp (10-minute average of the index) by index token', () => {
    const events = pricesOf(fed.events, 'index', 'ETH-SWAP-USDT');
    const recent = events.filter((e) => e.ts > fed.end - 10 * MINUTE);
    const average = recent.reduce((s, e) => s.add(e.price), dec(0)).div(recent.length).toDecimalPlaces(2).toFixed();
    const data = okData(call(fed, 'index', { symbol: 'ETHUSDT' }));
    expect(data).toEqual({ index: { ETHUSDT: events.at(-1)?.price }, edp: { ETHUSDT: average } });
    expect(parsedBy(indexPricesSchema, okData(call(fed, 'index'))).index).toHaveProperty('BTCUSDT');
  });

  it('index of an unknown symbol: empty maps; components of an unknown index: {} (live quirks)', () => {
    expect(okData(call(fed, 'index', { symbol: 'NOPEUSDT' }))).toEqual({ index: {}, edp: {} });
    expect(okData(call(fed, 'indexPriceComponents', { symbol: 'NOPEUSDT' }))).toEqual({});
    expect(parsedBy(indexPriceComponentsSchema, {})).toBeUndefined();
  });

  it('index price components: last index, edp, one synthetic component, time', () => {
    const last = pricesOf(fed.events, 'index', 'BTC-SWAP-USDT').at(-1);
    const parsed = parsedBy(indexPriceComponentsSchema, okData(call(fed, 'indexPriceComponents', { symbol: 'BTCUSDT' })));
    expect(parsed?.index.toFixed()).toBe(last?.price);
    expect(parsed?.time).toBe(last?.ts);
    expect(parsed?.components.map((c) => [c.spotPair, c.weight.toFixed()])).toEqual([['BTCUSDT', '1']]);
    expect(errorOf(call(fed, 'indexPriceComponents')).code).toBe(-100012);
  });
});

describe('synthetic positioning', () => {
  it('open interest: contracts, deterministic for the same stream, and moving with the trade flow', () => {
    const parsed = parsedBy(openInterestListSchema, okData(call(fed, 'openInterest', { symbol: 'BTC-SWAP-USDT' })));
    expect(parsed[0]?.symbol).toBe('BTC-SWAP-USDT');
    const size = parsed[0]?.size;
    // ≈ 20 million USDT at the start price, within a plausible band after three hours of flow.
    const notional = size?.mul(BTC_SWAP_USDT.initialPrice).mul(BTC_SWAP_USDT.contractMultiplier);
    expect(notional?.gt(5_000_000) && notional.lt(80_000_000)).toBe(true);
    expect(size?.toFixed()).not.toBe('200000');
    const once = feedMarket({ hours: 0.5, seed: 3 });
    const twice = feedMarket({ hours: 0.5, seed: 3 });
    expect(okData(call(twice, 'openInterest', { symbol: 'ETH-SWAP-USDT' }))).toEqual(okData(call(once, 'openInterest', { symbol: 'ETH-SWAP-USDT' })));
    expect(errorOf(call(fed, 'openInterest', { symbol: 'NOPE' })).code).toBe(-100011);
  });

  it('long/short account ratio: a row per period candle, long share from the taker imbalance', () => {
    const rows = parsedBy(longShortRatiosSchema, okData(call(fed, 'longShortRatio', { symbol: 'ETH-SWAP-USDT', period: '1h' })));
    expect(rows.map((r) => r.timeStamp)).toEqual([MONTH_END, MONTH_END + HOUR, MONTH_END + 2 * HOUR]);
    const firstHour = tradesOf(fed.events, 'ETH-SWAP-USDT').filter((t) => t.ts < MONTH_END + HOUR);
    const volume = firstHour.reduce((s, t) => s.add(t.qty), dec(0));
    const buys = firstHour.filter((t) => !t.buyerIsMaker).reduce((s, t) => s.add(t.qty), dec(0));
    const long = buys.mul(2).sub(volume).div(volume).mul('0.2').add('0.5').toDecimalPlaces(4);
    const row = rows[0];
    expect(row?.longAccount?.toFixed()).toBe(long.toFixed());
    expect(row?.shortAccount?.toFixed()).toBe(dec(1).sub(long).toFixed());
    expect(row?.longShortRatio.toFixed()).toBe(long.div(dec(1).sub(long)).toDecimalPlaces(4).toFixed());
    expect(okData(call(fed, 'longShortRatio', { symbol: 'ETH-SWAP-USDT', period: '5m', limit: '4' }))).toHaveLength(4);
    expect(errorOf(call(fed, 'longShortRatio', { symbol: 'ETH-SWAP-USDT' })).code).toBe(-100012);
    expect(errorOf(call(fed, 'longShortRatio', { symbol: 'ETH-SWAP-USDT', period: '3m' })).code).toBe(-1130);
  });

  it('insurance fund: a value at each 00:00 UTC, newest first, growing with traded volume', () => {
    const data = okData(call(fed, 'insuranceFund', { symbol: 'BTC-SWAP-USDT' }));
    const list = parsedBy(insuranceFundListSchema, data);
    expect(list.map((r) => r.updateTime)).toEqual([Date.UTC(2026, 5, 1), Date.UTC(2026, 4, 31)]);
    const beforeMidnight = tradesOf(fed.events, 'BTC-SWAP-USDT').filter((t) => t.ts < Date.UTC(2026, 5, 1));
    const quote = beforeMidnight.reduce((s, t) => s.add(dec(t.price).mul(t.qty).mul('0.001')), dec(0));
    expect(list[0]?.value.toFixed()).toBe(quote.mul('0.0001').add(1_000_000).toDecimalPlaces(8).toFixed());
    expect(list[1]?.value.toFixed()).toBe('1000000');
    expect(list.every((r) => r.coin === 'USDT' && r.symbol === 'BTC-SWAP-USDT')).toBe(true);
    expect(errorOf(call(fed, 'insuranceFund', { symbol: 'NOPE' })).code).toBe(-1121);
  });

  it('insurance fund keeps 14 days', () => {
    const rows = fed.service.insuranceFund('BTC-SWAP-USDT', MONTH_END + 30 * 24 * HOUR)?.list ?? [];
    expect(rows).toHaveLength(14);
  });
});
