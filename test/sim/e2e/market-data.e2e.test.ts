import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, BTC_USDC, ETH, MINUTE, startSim, T0, value } from './sim-harness.js';

/** Every public method of the project's MarketApi against a running simulator, over loopback. */
let s: RunningSim;
let market: ExchangeClient['market'];
const HOUR = 60 * MINUTE;

beforeAll(async () => {
  // Past the 08:00 UTC funding settlement, so klines, funding history and ratios have rows.
  s = await startSim({ warmupMs: 8 * HOUR + 10 * MINUTE, tickMs: 10 * MINUTE });
  market = s.publicClient().market;
});
afterAll(() => s.stop());

describe('public market data through ExchangeClient.market', () => {
  it('ping and time: the server clock is the virtual clock', async () => {
    value(await market.ping());
    expect(value(await market.serverTime())).toBe(s.clock.now());
  });

  it('exchangeInfo lists the configured contracts with filters and risk limits', async () => {
    const info = value(await market.exchangeInfo());
    expect(info.contracts.map((c) => c.symbol).sort()).toEqual([BTC, BTC_USDC, ETH].sort());
    const btc = info.contracts.find((c) => c.symbol === BTC);
    expect(btc?.filters.map((f) => f.filterType)).toContain('PRICE_FILTER');
    expect(btc?.riskLimits.length).toBeGreaterThan(0);
  });

  it('depth and merged depth: sorted sides that do not cross', async () => {
    const book = value(await market.depth({ symbol: BTC, limit: 5 }));
    expect(book.bids).toHaveLength(5);
    expect(book.asks).toHaveLength(5);
    expect(book.time).toBe(s.clock.now());
    const [bid] = book.bids;
    const [ask] = book.asks;
    expect(bid?.price.lt(ask?.price ?? 0)).toBe(true);
    expect(book.bids.every((l, i, all) => i === 0 || l.price.lt(all[i - 1]?.price ?? 0))).toBe(true);
    const merged = value(await market.depthMerged({ symbol: ETH, scale: 1, limit: 10 }));
    expect(merged.bids.length).toBeGreaterThan(0);
    expect(merged.asks.length).toBeGreaterThan(0);
  });

  it('recent trades, klines, index and mark-price klines', async () => {
    const trades = value(await market.trades({ symbol: BTC, limit: 10 }));
    expect(trades).toHaveLength(10);
    expect(trades.every((t) => t.time <= s.clock.now() && t.qty.gt(0))).toBe(true);

    const klines = value(await market.klines({ symbol: BTC, interval: '1m', startTime: T0, endTime: T0 + 30 * MINUTE, limit: 20 }));
    expect(klines.length).toBe(20);
    expect(klines[0]?.openTime).toBe(T0);
    const latest = value(await market.klines({ symbol: ETH, interval: '1h' }));
    expect(latest.length).toBeGreaterThan(0);

    const index = value(await market.indexKlines({ symbol: 'BTCUSDT', interval: '5m', from: T0, to: T0 + HOUR }));
    expect(index.length).toBeGreaterThan(0);
    const mark = value(await market.markPriceKlines({ symbol: BTC, interval: '15m', from: T0, to: T0 + HOUR }));
    expect(mark.length).toBeGreaterThan(0);
  });

  it('mark price (one and all), index prices and their components', async () => {
    const one = value(await market.markPrice(BTC));
    expect(one?.symbolId).toBe(BTC);
    expect(value(await market.markPrice('NOPE-SWAP-USDT'))).toBeUndefined();
    const all = value(await market.markPrices());
    expect(all.map((m) => m.symbolId).sort()).toEqual([BTC, BTC_USDC, ETH].sort());
    const index = value(await market.index(BTC));
    expect(Object.keys(index.index).length).toBeGreaterThan(0);
    const components = value(await market.indexPriceComponents('BTCUSDT'));
    expect(components?.components.length ?? 0).toBeGreaterThan(0);
  });

  it('funding rate (all, one), settled history, open interest, long/short ratio, insurance, risk limits', async () => {
    const rates = value(await market.fundingRate());
    expect(rates.map((r) => r.symbol).sort()).toEqual([BTC, BTC_USDC, ETH].sort());
    expect(value(await market.fundingRate(ETH)).map((r) => r.symbol)).toEqual([ETH]);
    const history = value(await market.historyFundingRate({ symbol: BTC, limit: 5 }));
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((h) => h.symbol === BTC && h.settleTime <= s.clock.now())).toBe(true);
    const oi = value(await market.openInterest(BTC));
    expect(oi[0]?.symbol).toBe(BTC);
    const ratios = value(await market.longShortRatio({ symbol: BTC, period: '5m', limit: 5 }));
    expect(ratios.length).toBeGreaterThan(0);
    const insurance = value(await market.insuranceFund(BTC));
    expect(insurance.every((row) => row.symbol === BTC)).toBe(true);
    const levels = value(await market.riskLimits(BTC));
    expect(levels.length).toBeGreaterThan(0);
  });

  it('contract tickers: 24h (one, all, realtime interval), price and book tickers', async () => {
    const one = value(await market.contractTicker24h({ symbol: BTC }));
    expect(one.map((t) => t.symbol)).toEqual([BTC]);
    const all = value(await market.contractTicker24h());
    expect(all.length).toBe(3);
    expect(value(await market.contractTicker24h({ symbol: ETH, realtimeInterval: '1d' })).length).toBe(1);
    const price = value(await market.contractTickerPrice(BTC));
    expect(price.map((p) => p.symbol)).toEqual([BTC]);
    expect(value(await market.contractTickerPrice()).length).toBe(3);
    const book = value(await market.contractBookTicker(ETH));
    expect(book[0]?.bidPrice.lt(book[0]?.askPrice ?? 0)).toBe(true);
    expect(value(await market.contractBookTicker()).length).toBe(3);
  });

  it('spot ticker endpoints also answer contract symbols', async () => {
    const t24 = value(await market.spotTicker24h(BTC));
    expect(t24.map((t) => t.symbol)).toEqual([BTC]);
    const price = value(await market.spotTickerPrice(ETH));
    expect(price.map((p) => p.symbol)).toEqual([ETH]);
    const book = value(await market.spotBookTicker(BTC));
    expect(book.map((b) => b.symbol)).toEqual([BTC]);
  });
});
