import { toobit } from 'ccxt';
import { dec } from '../../../src/core/decimal.js';
import { systemTime } from '../../../src/core/system-time.js';
import type { AccountRef } from '../../../src/sim/engine/types.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { ETH, simConfig } from './sim-harness.js';

/**
 * "A third-party client of this exchange, unmodified, gets no 404 and no signature error from `stratd sim`
 * on any futures route of API-NOTES §4": ccxt's `toobit` class (a devDependency), its URLs pointed at a
 * simulator on 127.0.0.1, calls every unified method that reaches a §4 route, and the simulator's state is
 * checked after each. ccxt stamps requests with the wall clock, so this simulator runs on system time.
 * Every HTTP answer ccxt receives is recorded (its own error hook, observed and passed through).
 */
const CCXT_ETH = 'ETH/USDT:USDT';
const CCXT_BTC_SPOT = 'BTC/USDT';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly code: string | undefined;
}

let sim: SimulatedExchange;
let ex: toobit;
let account: AccountRef;
let userId: string;
const seen: Seen[] = [];

beforeAll(async () => {
  sim = await SimulatedExchange.start({ config: simConfig(), time: systemTime });
  const { baseUrl, accounts } = sim.address;
  expect(new URL(baseUrl).hostname).toBe('127.0.0.1');
  const trader = accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  userId = trader.userId;
  account = { userId, category: 'USDT' };
  ex = new toobit({ apiKey: trader.apiKey, secret: trader.secret, enableRateLimit: false, options: { defaultType: 'swap' } });
  ex.urls['api'] = { common: baseUrl, private: baseUrl };
  const handleErrors = ex.handleErrors.bind(ex);
  ex.handleErrors = (...args: Parameters<toobit['handleErrors']>) => {
    const [status, , url, method, , body] = args;
    seen.push({ method, url, status, code: codeOf(body) });
    return handleErrors(...args);
  };
  await ex.loadMarkets();
}, 120_000);

afterAll(async () => {
  await ex.close();
  await sim.stop();
});

function codeOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed) return String((parsed as { code: unknown }).code);
  } catch {
    return undefined;
  }
  return undefined;
}

function openIds(): string[] {
  return sim.engine.openOrders(account, { symbol: ETH, limit: 1000 }).map((o) => o.orderId);
}

async function restingBuy(): Promise<string> {
  const ticker = await ex.fetchTicker(CCXT_ETH);
  const price = Math.floor((ticker.bid ?? ticker.last ?? 0) * 0.8);
  const order = await ex.createOrder(CCXT_ETH, 'limit', 'buy', 1, price);
  if (order.id === undefined) throw new Error('ccxt answered an order without an id');
  return order.id;
}

describe('ccxt toobit, unmodified, against the simulator', () => {
  afterEach(() => {
    // No 404 (an unknown route, HTML) and no -1022 (signature) on any call so far.
    expect(seen.filter((s) => s.status === 404 || s.code === '-1022')).toEqual([]);
  });

  it('fetchStatus (ping), fetchTime, fetchMarkets list the contracts and the spot pairs', async () => {
    expect((await ex.fetchStatus()).status).toBe('ok');
    expect(Math.abs(((await ex.fetchTime()) ?? 0) - sim.http.now())).toBeLessThan(60_000);
    expect(ex.market(CCXT_ETH).contract).toBe(true);
    expect(ex.market(CCXT_BTC_SPOT).spot).toBe(true);
  });

  it('fetchBalance: spot (GET /api/v1/account) and swap (futures balance) match the simulator', async () => {
    const spot = await ex.fetchBalance({ type: 'spot' });
    const engineSpot = sim.engine.spotBalances(userId).find((b) => b.coin === 'USDT');
    expect(dec(String(spot['USDT']?.total)).eq(engineSpot?.total ?? '-1')).toBe(true);
    const swap = await ex.fetchBalance();
    expect(dec(String(swap['USDT']?.total)).eq(sim.engine.futuresBalance(account).balance)).toBe(true);
  });

  it('setLeverage, setMarginMode and fetchLeverage change and read the simulator settings', async () => {
    await ex.setLeverage(7, CCXT_ETH);
    expect(sim.engine.symbolSettings(account, ETH)[0]?.leverage).toBe(7);
    await ex.setMarginMode('cross', CCXT_ETH);
    expect(sim.engine.symbolSettings(account, ETH)[0]?.marginType).toBe('CROSS');
    const leverage = await ex.fetchLeverage(CCXT_ETH);
    expect(leverage.longLeverage).toBe(7);
  });

  it('createOrder, fetchOpenOrders, fetchOrder, cancelOrders (cancelOrderByIds) and cancelAllOrders (DELETE batchOrders)', async () => {
    const a = await restingBuy();
    const b = await restingBuy();
    expect(openIds()).toEqual(expect.arrayContaining([a, b]));
    const open = await ex.fetchOpenOrders(CCXT_ETH);
    expect(open.map((o) => o.id)).toEqual(expect.arrayContaining([a, b]));
    expect((await ex.fetchOrder(a, CCXT_ETH)).status).toBe('open');

    await ex.cancelOrders([a, b], CCXT_ETH);
    expect(openIds()).toEqual([]);

    const c = await restingBuy();
    const d = await restingBuy();
    expect(openIds()).toEqual(expect.arrayContaining([c, d]));
    await ex.cancelAllOrders(CCXT_ETH);
    expect(openIds()).toEqual([]);

    // ccxt 4.5 wraps each historyOrders row as `{result: row}` before parsing, so its unified fields come
    // out empty (a ccxt defect); the rows the simulator sent are in `info.result`.
    const closed = (await ex.fetchClosedOrders(CCXT_ETH)).map((o) => (o.info as { result?: { orderId?: string; status?: string } }).result);
    expect(closed.map((row) => row?.orderId)).toEqual(expect.arrayContaining([a, b, c, d]));
    expect(closed.find((row) => row?.orderId === a)?.status).toBe('CANCELED');
  });

  it('a market order: fetchPositions and fetchMyTrades (v1 userTrades) show what the simulator holds', async () => {
    const order = await ex.createOrder(CCXT_ETH, 'market', 'buy', 3);
    const fills = sim.engine.userTrades(account, { symbol: ETH, limit: 1000 }).filter((t) => t.orderId === order.id);
    expect(fills.length).toBeGreaterThan(0);

    const trades = await ex.fetchMyTrades(CCXT_ETH);
    expect(trades.filter((t) => t.order === order.id).map((t) => t.id).sort()).toEqual(fills.map((t) => t.id).sort());

    const positions = await ex.fetchPositions([CCXT_ETH]);
    const long = positions.find((p) => p.side === 'long');
    const engineLong = sim.engine.positions(account, ETH, 'LONG')[0];
    expect(dec(String(long?.contracts)).eq(engineLong?.position ?? '-1')).toBe(true);
  });

  it('§4 routes without a unified method, through the implicit API of ccxt: trading-stop, reversePosition, flashClose, positionMargin, autoAddMargin, historyPositions, todayPnl', async () => {
    const long = (): string | undefined => sim.engine.positions(account, ETH, 'LONG')[0]?.position;
    const short = (): string | undefined => sim.engine.positions(account, ETH, 'SHORT')[0]?.position;
    expect(dec(long() ?? '0').gt(0)).toBe(true);
    const held = long() ?? '0';
    const mark = dec(sim.engine.markPrice(ETH) ?? '0');

    await ex.privatePostApiV1FuturesPositionTradingStop({ symbol: ETH, side: 'LONG', stopLoss: mark.mul('0.5').toDecimalPlaces(2).toFixed() });
    const stops = sim.engine.openAlgoOrders(account, { symbol: ETH, stopCategory: 'STOP_PROFIT_LOSS', limit: 100 });
    expect(stops.some((row) => row.tpsl?.stopOrderType === 'STOP_LOSS' && row.positionSide === 'LONG')).toBe(true);

    await ex.privatePostApiV1FuturesReversePosition({ symbol: ETH, side: 'LONG' });
    expect(dec(long() ?? '0').isZero()).toBe(true);
    expect(dec(short() ?? '0').eq(held)).toBe(true);
    await ex.privatePostApiV1FuturesFlashClose({ symbol: ETH, side: 'SHORT' });
    expect(dec(short() ?? '0').isZero()).toBe(true);

    await ex.setMarginMode('isolated', CCXT_ETH);
    await ex.createOrder(CCXT_ETH, 'market', 'buy', 2);
    const before = dec(sim.engine.positions(account, ETH, 'LONG')[0]?.margin ?? '0');
    await ex.privatePostApiV1FuturesPositionMargin({ symbol: ETH, side: 'LONG', amount: '5' });
    expect(await ex.privatePostApiV1FuturesAutoAddMargin({ symbol: ETH, side: 'LONG', enable: 'ON' })).toMatchObject({ enable: 'ON' });
    expect(dec(sim.engine.positions(account, ETH, 'LONG')[0]?.margin ?? '0').sub(before).eq(5)).toBe(true);
    await ex.privatePostApiV1FuturesFlashClose({ symbol: ETH, side: 'LONG' });
    await ex.setMarginMode('cross', CCXT_ETH);
    const closed = (await ex.privateGetApiV1FuturesHistoryPositions({ symbol: ETH })) as { side?: string; closedQuantity?: string }[];
    // Newest first: the isolated long, the short the reverse opened, the long the reverse closed.
    expect(closed.map((row) => row.side)).toEqual(['LONG', 'SHORT', 'LONG']);

    const pnl = (await ex.privateGetApiV1FuturesTodayPnl()) as { dayProfit?: string };
    expect(pnl.dayProfit).toBe(sim.engine.todayPnl(account).dayProfit);
  });

  it('userDataStream POST/PUT/DELETE (ccxt-pro keeps its key with POST), checkApiKey and the voucher list', async () => {
    const first = (await ex.privatePostApiV1UserDataStream()) as { listenKey?: string };
    const again = (await ex.privatePostApiV1UserDataStream()) as { listenKey?: string };
    expect(first.listenKey).toBeDefined();
    expect(again.listenKey).toBe(first.listenKey);
    await ex.privatePutApiV1UserDataStream({ listenKey: first.listenKey });
    await ex.privateDeleteApiV1UserDataStream({ listenKey: first.listenKey });
    expect(await ex.privateGetApiV1AccountCheckApiKey()).toMatchObject({ userId, readOnly: false });
    const vouchers = (await ex.privateGetApiV2FuturesVoucherList({ token: 'USDT' })) as { data?: { vouchers?: { relationId: string }[] } };
    expect(vouchers.data?.vouchers?.map((v) => v.relationId).sort()).toEqual(sim.engine.vouchers(userId, 'USDT').map((v) => v.relationId).sort());
  });

  it('fetchTradingFees (commissionRate) and fetchLedger (futures balance flow)', async () => {
    const fees = await ex.fetchTradingFees({ symbol: CCXT_ETH });
    const rates = sim.engine.commissionRates(ETH);
    if (!rates.ok) throw new Error('no commission rates');
    expect(fees[CCXT_ETH]?.taker).toBe(Number(rates.value.taker));
    const ledger = await ex.fetchLedger('USDT');
    expect(ledger.length).toBeGreaterThan(0);
  });

  it('fetchDepositAddress and withdraw move through the simulated wallet', async () => {
    const address = await ex.fetchDepositAddress('USDT', { network: 'TRC20' });
    expect(address.address).toMatch(/^T/);
    if (address.address === undefined) throw new Error('no deposit address');
    const before = dec(sim.engine.spotBalances(userId).find((b) => b.coin === 'USDT')?.total ?? '0');
    await ex.withdraw('USDT', 25, address.address, undefined, { network: 'TRC20' });
    const after = dec(sim.engine.spotBalances(userId).find((b) => b.coin === 'USDT')?.total ?? '0');
    expect(before.sub(after).eq(25)).toBe(true);
    const withdrawals = await ex.fetchWithdrawals('USDT');
    expect(withdrawals.map((w) => w.amount)).toEqual([25]);
    expect(await ex.fetchDeposits('USDT')).toEqual([]);
  });

  it('spot market data of a listed spot pair: order book, trades and candles are served', async () => {
    const book = await ex.fetchOrderBook(CCXT_BTC_SPOT);
    expect(book.bids).toEqual([]);
    expect(await ex.fetchTrades(CCXT_BTC_SPOT)).toEqual([]);
    const candles = await ex.fetchOHLCV(CCXT_BTC_SPOT, '1m', undefined, 10);
    expect(candles.length).toBeGreaterThan(0);
  });

  it('every answer ccxt received was a success', () => {
    expect(seen.length).toBeGreaterThan(15);
    expect(seen.filter((s) => s.status !== 200)).toEqual([]);
  });
});
