import { Decimal, dec } from '../../../src/core/decimal.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, ETH, failure, startSim, value } from './sim-harness.js';

/**
 * The routes of API-NOTES §4 that document 000 only names or omits, and the wallet and voucher routes:
 * the project's client against a running simulator, asserting on the simulator's state afterwards.
 */
let s: RunningSim;
let trader: ExchangeClient;

beforeAll(async () => {
  s = await startSim();
  trader = s.client('trader');
});
afterAll(() => s.stop());
// Virtual time between tests keeps the client's ORDERS budget fresh.
beforeEach(() => s.clock.advanceBy(2_500));

async function priceNear(symbol: string, factor: string): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(symbol));
  if (book === undefined) throw new Error(`no book ticker for ${symbol}`);
  return book.bidPrice.mul(factor).toDecimalPlaces(symbol === ETH ? 2 : 1, Decimal.ROUND_DOWN);
}

async function restingBuys(symbol: string, ids: readonly string[]): Promise<string[]> {
  const price = await priceNear(symbol, '0.9');
  const out: string[] = [];
  for (const id of ids) {
    out.push(value(await trader.ordersV1.orderV1Create({ symbol, side: 'BUY_OPEN', type: 'LIMIT', price, quantity: dec(1), newClientOrderId: id })).orderId);
  }
  return out;
}

async function longOf(symbol: string): Promise<Decimal> {
  const long = value(await trader.account.positions({ symbol })).find((p) => p.side === 'LONG');
  return long?.position ?? dec(0);
}

describe('v1 order lists and cancels', () => {
  it('historyOrders lists finished orders only, pages below orderId, honours limit', async () => {
    const [a, b, c] = await restingBuys(BTC, ['hist-a', 'hist-b', 'hist-c']);
    const open = value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'BUY_OPEN', type: 'LIMIT', price: await priceNear(BTC, '0.9'), quantity: dec(1), newClientOrderId: 'hist-open' }));
    for (const id of [a, b, c]) value(await trader.ordersV1.orderV1Cancel({ orderId: id ?? '' }));

    const history = value(await trader.ordersV1.historyOrdersV1({ symbol: BTC }));
    const ids = history.map((o) => o.orderId);
    expect(ids).toEqual(expect.arrayContaining([a, b, c]));
    expect(ids).not.toContain(open.orderId);
    expect(history.find((o) => o.orderId === a)?.status).toBe('CANCELED');
    expect(history.every((o) => o.kind === 'regular' && o.symbol === BTC)).toBe(true);

    const belowC = value(await trader.ordersV1.historyOrdersV1({ symbol: BTC, orderId: c ?? '' })).map((o) => o.orderId);
    expect(belowC).toEqual(expect.arrayContaining([a, b]));
    expect(belowC).not.toContain(c);
    expect(value(await trader.ordersV1.historyOrdersV1({ symbol: BTC, limit: 1 }))).toHaveLength(1);
    value(await trader.ordersV1.orderV1Cancel({ orderId: open.orderId }));
  });

  it('userTrades (v1) lists the fills of a market order with v1 sides', async () => {
    const filled = value(await trader.ordersV1.orderV1Create({ symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(4), newClientOrderId: 'ut-mkt' }));
    const trades = value(await trader.ordersV1.userTradesV1({ symbol: ETH }));
    const fills = trades.filter((t) => t.orderId === filled.orderId);
    expect(fills.reduce((sum, t) => sum.add(t.qty), dec(0)).eq(4)).toBe(true);
    expect(fills.every((t) => t.side === 'BUY_OPEN' && t.symbol === ETH)).toBe(true);
    expect(value(await trader.ordersV1.userTradesV1({ symbol: ETH, limit: 1 }))).toHaveLength(1);
  });

  it('DELETE batchOrders cancels every open order of the symbol, of one side when asked', async () => {
    await restingBuys(BTC, ['all-1', 'all-2']);
    const sellPrice = (await priceNear(BTC, '1.2')).toDecimalPlaces(1);
    const sell = value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'SELL_OPEN', type: 'LIMIT', price: sellPrice, quantity: dec(1), newClientOrderId: 'all-sell' }));
    const ethOrder = (await restingBuys(ETH, ['all-eth']))[0];

    value(await trader.ordersV1.cancelAllV1({ symbol: BTC, side: 'BUY' }));
    const left = value(await trader.ordersV1.openOrdersV1({ symbol: BTC })).map((o) => o.orderId);
    expect(left).toEqual([sell.orderId]);

    const reply = value(await trader.ordersV1.cancelAllV1({ symbol: BTC }));
    expect(String(reply.code)).toBe('200');
    expect(value(await trader.ordersV1.openOrdersV1({ symbol: BTC }))).toEqual([]);
    // Other symbols keep their orders.
    expect(value(await trader.ordersV1.openOrdersV1({ symbol: ETH })).map((o) => o.orderId)).toContain(ethOrder);
    value(await trader.ordersV1.cancelAllV1({ symbol: ETH }));
  });

  it('DELETE cancelOrderByIds cancels the known ids and lists the others with -2013', async () => {
    const [a, b] = await restingBuys(BTC, ['ids-1', 'ids-2']);
    const failures = value(await trader.ordersV1.cancelOrderByIds([a ?? '', b ?? '', '1234567890123']));
    expect(failures).toEqual([{ orderId: '1234567890123', code: -2013 }]);
    expect(value(await trader.ordersV1.openOrdersV1({ symbol: BTC }))).toEqual([]);
    expect(value(await trader.ordersV1.orderV1Get({ orderId: a ?? '' })).status).toBe('CANCELED');
    // An order of another symbol than the one named is, for this call, unknown.
    const [eth] = await restingBuys(ETH, ['ids-eth']);
    expect(value(await trader.ordersV1.cancelOrderByIds([eth ?? ''], { symbol: BTC }))).toEqual([{ orderId: eth, code: -2013 }]);
    expect(value(await trader.ordersV1.cancelOrderByIds([eth ?? '']))).toEqual([]);
    expect(failure(await trader.ordersV1.cancelOrderByIds([]))).toMatchObject({ kind: 'invalid-request' });
  });
});

describe('position routes', () => {
  it('flashClose closes a long at market; reversePosition turns a long into a short of the same size', async () => {
    value(await trader.ordersV1.orderV1Create({ symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(3), newClientOrderId: 'fc-open' }));
    const held = await longOf(ETH);
    expect(held.gte(3)).toBe(true);
    const close = value(await trader.positions.flashClose(ETH, 'LONG'));
    expect(close).toMatchObject({ symbol: ETH, side: 'SELL_CLOSE' });
    expect(close.origQty.eq(held)).toBe(true);
    expect((await longOf(ETH)).isZero()).toBe(true);
    expect(failure(await trader.positions.flashClose(ETH, 'LONG'))).toMatchObject({ kind: 'rejected', code: -3145 });

    value(await trader.ordersV1.orderV1Create({ symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(2), newClientOrderId: 'rv-open' }));
    const [closing, opening] = value(await trader.positions.reversePosition(ETH, 'LONG'));
    expect(closing?.side).toBe('SELL_CLOSE');
    expect(opening?.side).toBe('SELL_OPEN');
    expect((await longOf(ETH)).isZero()).toBe(true);
    const short = value(await trader.account.positions({ symbol: ETH, side: 'SHORT' }))[0];
    expect(short?.position.eq(2)).toBe(true);
    value(await trader.positions.flashClose(ETH, 'SHORT'));
  });

  it('positionMargin adds isolated margin and is refused on cross; trading-stop sets the position TP/SL', async () => {
    value(await trader.account.marginType(BTC, 'ISOLATED'));
    value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(5), newClientOrderId: 'pm-open' }));
    const before = value(await trader.account.positions({ symbol: BTC, side: 'LONG' }))[0];
    const added = value(await trader.positions.positionMargin(BTC, 'LONG', dec(25)));
    const after = value(await trader.account.positions({ symbol: BTC, side: 'LONG' }))[0];
    expect(after?.margin.sub(before?.margin ?? 0).eq(25)).toBe(true);
    expect(added.margin.eq(after?.margin ?? -1)).toBe(true);

    const mark = await priceNear(BTC, '1');
    const stops = value(await trader.positions.tradingStop({ symbol: BTC, side: 'LONG', takeProfit: mark.mul('1.2').toDecimalPlaces(1), stopLoss: mark.mul('0.8').toDecimalPlaces(1) }));
    expect(stops.takeProfit?.eq(mark.mul('1.2').toDecimalPlaces(1))).toBe(true);
    const tpsl = value(await trader.ordersV1.openOrdersV1({ symbol: BTC, type: 'STOP' }));
    expect(tpsl.filter((o) => o.kind === 'tpsl')).toHaveLength(2);

    value(await trader.positions.flashClose(BTC, 'LONG'));
    value(await trader.account.marginType(BTC, 'CROSS'));
    value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(1), newClientOrderId: 'pm-cross' }));
    expect(failure(await trader.positions.positionMargin(BTC, 'LONG', dec(5)))).toMatchObject({ kind: 'rejected', code: -3150 });
    value(await trader.positions.flashClose(BTC, 'LONG'));
  });

  it('commissionRate, todayPnl and the v2 leverage setter', async () => {
    const rates = value(await trader.positions.commissionRate(BTC));
    expect(rates.closeTakerFee.gt(0)).toBe(true);
    expect(rates.closeMakerFee.lte(rates.closeTakerFee)).toBe(true);
    const pnl = value(await trader.positions.todayPnl());
    expect(pnl.dayProfit.isFinite()).toBe(true);
    const set = value(await trader.positions.leverageV2(ETH, 7));
    expect(set.leverage).toBe(7);
    expect(value(await trader.account.accountLeverage(ETH))[0]?.leverage.eq(7)).toBe(true);
  });
});

describe('spot account, wallet and vouchers', () => {
  it('GET /api/v1/account lists the spot balances; a withdrawal debits them, a repeat with the same clientOrderId does not', async () => {
    const usdt = (): Promise<Decimal | undefined> => trader.wallet.spotAccount().then((r) => value(r).balances.find((b) => b.coin === 'USDT')?.total);
    const before = await usdt();
    expect(before?.gt(100)).toBe(true);
    const address = value(await trader.wallet.depositAddress('USDT', 'TRX'));
    expect(address.address).toMatch(/^T/);
    expect(value(await trader.wallet.depositAddress('USDT', 'TRX')).address).toBe(address.address);

    const sent = value(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'ERC20', address: `0x${'ab'.repeat(20)}`, quantity: dec(50), clientOrderId: 'w-1' }));
    expect(sent.success).toBe(true);
    expect((await usdt())?.eq((before ?? dec(0)).sub(50))).toBe(true);
    const again = value(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'ERC20', address: `0x${'ab'.repeat(20)}`, quantity: dec(50), clientOrderId: 'w-1' }));
    expect(again.id).toBe(sent.id);
    expect((await usdt())?.eq((before ?? dec(0)).sub(50))).toBe(true);

    // Below the chain's minimum (exchangeInfo coins: ERC20 USDT 20), a malformed address, more than the balance.
    expect(failure(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'ERC20', address: `0x${'ab'.repeat(20)}`, quantity: dec(5) }))).toMatchObject({ code: -1130 });
    expect(failure(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'TRX', address: 'not-an-address', quantity: dec(50) }))).toMatchObject({ code: -1130 });
    expect(failure(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'TRX', address: address.address, quantity: dec(10_000_000) }))).toMatchObject({ code: -1131 });
    expect(failure(await s.client('read-only').wallet.withdraw({ coin: 'USDT', chainType: 'TRX', address: address.address, quantity: dec(50) }))).toMatchObject({ code: -1020 });

    // The history lists the one withdrawal once, its ERC20 fee (3 USDT) taken from the quantity.
    const history = value(await trader.wallet.withdrawOrders({ coin: 'USDT' }));
    expect(history.map((w) => w.id)).toEqual([sent.id]);
    expect(history[0]?.arriveQuantity?.eq(47)).toBe(true);
  });

  it('a withdrawal to the UID of another simulated user is an internal transfer: no fee, credited to its spot account', async () => {
    const sub = s.client('sub-account');
    const subKey = s.config.keys.find((k) => k.name === 'sub-account');
    const spot = async (client: ExchangeClient): Promise<Decimal> => value(await client.wallet.spotAccount()).balances.find((b) => b.coin === 'USDT')?.total ?? dec(0);
    const [mine, theirs] = [await spot(trader), await spot(sub)];
    value(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'TRX', address: subKey?.userId ?? '', addressType: 'UID', quantity: dec(30) }));
    expect((await spot(trader)).eq(mine.sub(30))).toBe(true);
    expect((await spot(sub)).eq(theirs.add(30))).toBe(true);
    const [received] = value(await sub.wallet.depositOrders({ coin: 'USDT', limit: 1 }));
    expect(received?.quantity.eq(30)).toBe(true);
    expect(failure(await trader.wallet.withdraw({ coin: 'USDT', chainType: 'TRX', address: '1', addressType: 'UID', quantity: dec(30) }))).toMatchObject({ code: -1153 });
  });

  it('vouchers: list by token and status, receive once, threshold and read-only refusals, coupon on the futures balance', async () => {
    const all = value(await trader.wallet.voucherList('USDT'));
    expect(all.length).toBeGreaterThanOrEqual(2);
    const free = all.find((v) => v.claimThreshold === undefined && v.voucherStatus === 'NOT_USED');
    const gated = all.find((v) => v.claimThreshold !== undefined);
    if (free === undefined || gated === undefined) throw new Error('the simulator grants a free and a gated voucher');

    expect(failure(await s.client('read-only').wallet.voucherReceive(free.relationId))).toMatchObject({ code: -1020 });
    const received = value(await trader.wallet.voucherReceive(free.relationId));
    expect(received.voucherStatus).toBe('USING');
    expect(failure(await trader.wallet.voucherReceive(free.relationId))).toMatchObject({ code: -1406 });
    expect(failure(await trader.wallet.voucherReceive('987600000000000099'))).toMatchObject({ code: -1405 });

    expect(value(await trader.wallet.voucherList('USDT', 'USING')).map((v) => v.relationId)).toEqual([free.relationId]);
    const coupon = value(await trader.account.futuresBalance()).find((b) => b.coin === 'USDT')?.coupon;
    expect(coupon?.eq(received.voucherBalance)).toBe(true);
    expect(value(await trader.wallet.voucherList('USDC'))).toEqual([]);
    // The sub-account has traded nothing: its gated voucher is out of reach.
    const sub = s.client('sub-account');
    const subGated = value(await sub.wallet.voucherList('USDT')).find((v) => v.claimThreshold !== undefined);
    expect(failure(await sub.wallet.voucherReceive(subGated?.relationId ?? '1'))).toMatchObject({ code: -1407 });
  });

  it('GET /api/v1/account/checkApiKey tells what the key may do; a wrong secret is -1022', async () => {
    expect(value(await trader.wallet.checkApiKey())).toMatchObject({ readOnly: false, accountType: 'FUTURES' });
    expect(value(await s.client('read-only').wallet.checkApiKey())).toMatchObject({ readOnly: true });
    const key = s.config.keys.find((k) => k.name === 'trader');
    const wrong = s.client('trader', { credentials: { apiKey: key?.apiKey ?? '', apiSecret: 'not-the-secret' } });
    expect(failure(await wrong.wallet.checkApiKey())).toMatchObject({ code: -1022 });
  });

  it('GET /api/v1/auth/exchangeInfo answers exchangeInfo to a signed caller', async () => {
    const signed = value(await trader.market.exchangeInfoSigned());
    expect(signed.contracts.map((c) => c.symbol)).toEqual(expect.arrayContaining([BTC, ETH]));
    expect(failure(await s.publicClient().market.exchangeInfoSigned())).toMatchObject({ kind: 'invalid-request', rule: 'credentials' });
  });
});
