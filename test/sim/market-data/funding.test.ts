import { fundingHistoryListSchema, fundingRatesSchema } from '../../../src/venue/parsers/market.js';
import { MarketDataService } from '../../../src/sim/market-data/market-data-service.js';
import type { FedMarket } from './market-fixture.js';
import { HOUR, INSTRUMENTS, START, call, errorOf, feedMarket, fundingOf, okData, parsedBy } from './market-fixture.js';

const MIDNIGHT = Date.UTC(2026, 0, 2);
const EIGHT = MIDNIGHT + 8 * HOUR;
const SIXTEEN = MIDNIGHT + 16 * HOUR;

let fed: FedMarket;
beforeAll(() => {
  fed = feedMarket({ hours: 10, start: START, channels: ['funding'] });
});

/** Settlements read straight off the funding events: where nextFundingTime moves on, the previous rate settled. */
function settlements(symbol: string): { time: number; rate: string }[] {
  const out: { time: number; rate: string }[] = [];
  let previous: { nextFundingTime: number; rate: string } | undefined;
  for (const e of fundingOf(fed.events, symbol)) {
    if (previous !== undefined && e.nextFundingTime > previous.nextFundingTime) out.push({ time: previous.nextFundingTime, rate: previous.rate });
    previous = e;
  }
  return out;
}

describe('funding history', () => {
  it('a row at each 8 h settlement, newest first, at the rate in force before it', () => {
    for (const symbol of ['BTC-SWAP-USDT', 'ETH-SWAP-USDT']) {
      const expected = settlements(symbol);
      expect(expected.map((s) => s.time)).toEqual([MIDNIGHT, EIGHT]);
      const rows = okData(call(fed, 'historyFundingRate', { symbol })) as Record<string, string>[];
      expect(rows.map(({ symbol: s, settleTime, settleRate, period }) => ({ s, settleTime, settleRate, period }))).toEqual(
        [...expected].reverse().map((e) => ({ s: symbol, settleTime: String(e.time), settleRate: e.rate, period: '8H' })),
      );
      expect(rows.every((r) => typeof r['id'] === 'string')).toBe(true);
      const parsed = parsedBy(fundingHistoryListSchema, rows);
      expect(parsed[0]?.settleTime).toBe(EIGHT);
    }
  });

  it('ids rise with settlement order across symbols; fromId/endId bound them inclusively; limit', () => {
    const btc = okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT' })) as { id: string }[];
    const eth = okData(call(fed, 'historyFundingRate', { symbol: 'ETH-SWAP-USDT' })) as { id: string }[];
    const ids = [...btc, ...eth].map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(ids).toEqual([1, 2, 3, 4]);
    const [newest, older] = btc.map((r) => r.id);
    if (newest === undefined || older === undefined) throw new Error('two rows expected');
    expect(okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', limit: '1' }))).toEqual([btc[0]]);
    expect(okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', endId: String(Number(newest) - 1) }))).toEqual([btc[1]]);
    expect(okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', fromId: newest }))).toEqual([btc[0]]);
    expect(okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', fromId: older, endId: newest }))).toEqual(btc);
    expect(okData(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', limit: '5000' }))).toEqual(btc);
  });

  it('refuses a missing or unknown symbol and a malformed id', () => {
    expect(errorOf(call(fed, 'historyFundingRate')).code).toBe(-1102);
    expect(errorOf(call(fed, 'historyFundingRate', { symbol: 'NOPE' })).code).toBe(-1121);
    expect(errorOf(call(fed, 'historyFundingRate', { symbol: 'BTC-SWAP-USDT', fromId: 'x1' })).code).toBe(-1130);
  });
});

describe('current funding rate', () => {
  it('the latest published rate, the next boundary as a string, interest, cap and floor', () => {
    const last = fundingOf(fed.events, 'ETH-SWAP-USDT').at(-1);
    expect(okData(call(fed, 'fundingRate', { symbol: 'ETH-SWAP-USDT' }))).toEqual([
      {
        symbol: 'ETH-SWAP-USDT',
        rate: last?.rate,
        period: '8H',
        nextFundingTime: String(SIXTEEN),
        interest: '0.0001',
        fundingRateCap: '0.003',
        fundingRateFloor: '-0.003',
      },
    ]);
    const all = parsedBy(fundingRatesSchema, okData(call(fed, 'fundingRate')));
    expect(all.map((r) => r.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
  });

  it('for 75 s after a settlement the row still names the settled instant and rate (live)', () => {
    const settled = settlements('BTC-SWAP-USDT').at(-1);
    expect(okData(call(fed, 'fundingRate', { symbol: 'BTC-SWAP-USDT' }, EIGHT + 10_000))).toMatchObject([{ nextFundingTime: String(EIGHT), rate: settled?.rate }]);
    expect(okData(call(fed, 'fundingRate', { symbol: 'BTC-SWAP-USDT' }, EIGHT + 80_000))).toMatchObject([{ nextFundingTime: String(SIXTEEN) }]);
    const prompt = new MarketDataService(INSTRUMENTS, fed.clock, { fundingRowLagMs: 0 });
    for (const e of fed.events) if (e.type === 'funding') prompt.ingest(e);
    expect(prompt.fundingRate('BTC-SWAP-USDT', EIGHT + 10_000)?.nextFundingTime).toBe(String(SIXTEEN));
  });

  it('unknown symbol: 400 -1130 (live quirk)', () => {
    const reply = call(fed, 'fundingRate', { symbol: 'NOPE-SWAP-USDT' });
    expect(errorOf(reply)).toEqual({ code: -1130, msg: "Data sent for paramter 'symbol' is not valid." });
    expect(reply.kind === 'error' ? reply.status : undefined).toBe(400);
  });
});
