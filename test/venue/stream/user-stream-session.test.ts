import { Decimal, dec } from '../../../src/core/decimal.js';
import { systemTime } from '../../../src/core/system-time.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, MINUTE, failure, startSim, value } from '../../sim/e2e/sim-harness.js';
import { RecordedSession, runWithHeartbeat, waitFor } from './session-harness.js';

/** The user stream session against the simulator over loopback, in virtual time: connecting, events, heartbeat, stop. */
let s: RunningSim;
let trader: ExchangeClient;
const running: RecordedSession[] = [];

beforeAll(async () => {
  s = await startSim({ tickMs: MINUTE });
  trader = s.client('trader');
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
afterAll(() => s.stop());

async function started(): Promise<RecordedSession> {
  const r = new RecordedSession(s);
  running.push(r);
  value(await r.session.start());
  return r;
}

describe('UserStreamSession: connecting and account events', () => {
  it('start creates a key, connects and announces epoch 1', async () => {
    const r = await started();
    expect(r.session.state).toBe('open');
    expect(r.session.reconnects).toBe(0);
    expect(r.events).toEqual([{ type: 'stream.connected', time: s.clock.now(), epoch: 1 }]);
  });

  it('a filled market order arrives as order, fill, position and balance events that agree with REST', async () => {
    const r = await started();
    const placed = value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(3), newClientOrderId: 'uss-open-1' }));
    const ours = (): boolean =>
      r.of('account.order').some((e) => e.order.orderId === placed.orderId && e.order.status === 'FILLED') &&
      r.of('account.fill').reduce((sum, e) => (e.fill.orderId === placed.orderId ? sum.add(e.fill.qty) : sum), dec(0)).eq(3) &&
      r.of('account.position').some((e) => e.position.symbol === ETH) &&
      r.of('account.balance').length > 0;
    await waitFor(ours, 'the order, its fills, the position and the balance');

    const rest = value(await trader.ordersV2.getOrder({ orderId: placed.orderId }));
    const filled = r.of('account.order').filter((e) => e.order.orderId === placed.orderId).at(-1);
    expect(filled).toMatchObject({ source: 'stream', order: { symbol: ETH, clientOrderId: 'uss-open-1', side: 'BUY', positionSide: 'LONG', type: 'MARKET', status: 'FILLED' } });
    expect(filled?.order.filledQty.eq(3)).toBe(true);
    expect(filled?.order.avgPrice.eq(rest.avgPrice)).toBe(true);
    for (const { fill } of r.of('account.fill')) expect(fill).toMatchObject({ symbol: ETH, orderId: placed.orderId, clientOrderId: 'uss-open-1', side: 'BUY', positionSide: 'LONG' });
    // ticketInfo carries no fee: each fill takes it from its execution report, as REST user trades show it.
    const trades = value(await trader.ordersV2.userTrades({ symbol: ETH, limit: 100 })).filter((t) => t.orderId === placed.orderId);
    const streamFees = r.of('account.fill').map((e) => `${e.fill.tradeId}:${e.fill.fee.toFixed()}:${e.fill.feeAsset}`).sort();
    expect(streamFees).toEqual(trades.map((t) => `${t.ticketId ?? t.id}:${t.commission.toFixed()}:${t.commissionAsset}`).sort());
    expect(trades.some((t) => t.commission.gt(0))).toBe(true);

    const [row] = value(await trader.account.positions({ symbol: ETH, side: 'LONG' }));
    const position = r.of('account.position').filter((e) => e.position.symbol === ETH && e.position.positionSide === 'LONG').at(-1)?.position;
    expect(position?.qty.eq(row?.position ?? dec(-1))).toBe(true);
    const balance = r.of('account.balance').at(-1)?.balance;
    expect(balance?.asset).toBe('USDT');
    const [restBalance] = value(await trader.account.futuresBalance());
    expect(balance?.walletBalance.eq(restBalance?.balance ?? dec(-1))).toBe(true);
  });

  it('a closing sell is SELL on the LONG side; the position goes flat', async () => {
    const r = await started();
    const [row] = value(await trader.account.positions({ symbol: ETH, side: 'LONG' }));
    const held = row?.position ?? dec(0);
    expect(held.gt(0)).toBe(true);
    const placed = value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'SELL', positionSide: 'LONG', type: 'MARKET', quantity: held, newClientOrderId: 'uss-close-1' }));
    const flat = (): boolean => r.of('account.position').some((e) => e.position.symbol === ETH && e.position.positionSide === 'LONG' && e.position.qty.isZero());
    await waitFor(() => flat() && r.of('account.order').some((e) => e.order.orderId === placed.orderId && e.order.status === 'FILLED'), 'the close');
    expect(r.of('account.order').filter((e) => e.order.orderId === placed.orderId).every((e) => e.order.side === 'SELL' && e.order.positionSide === 'LONG')).toBe(true);
    expect(r.of('account.fill').every((e) => e.fill.side === 'SELL' && e.fill.positionSide === 'LONG')).toBe(true);
    // Realized PnL of a closing order is split over its fills exactly as the exchange books it.
    const trades = value(await trader.ordersV2.userTrades({ symbol: ETH, limit: 100 })).filter((t) => t.orderId === placed.orderId);
    const streamPnl = r.of('account.fill').reduce((sum, e) => sum.add(e.fill.realizedPnl), dec(0));
    expect(streamPnl.eq(trades.reduce((sum, t) => sum.add(t.realizedPnl), dec(0)))).toBe(true);
  });

  it('a plan order arrives as an algo-order event, created then canceled', async () => {
    const r = await started();
    const [book] = value(await trader.market.contractBookTicker(BTC));
    const trigger = (book?.askPrice ?? dec(0)).mul('1.3').toDecimalPlaces(1, Decimal.ROUND_DOWN);
    const plan = value(await trader.algo.createPlanOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: trigger, quantity: dec(1), newClientOrderId: 'uss-plan-1' }));
    await waitFor(() => r.of('account.algo').length > 0, 'the plan report');
    value(await trader.algo.cancelAlgoOrder({ orderId: plan.orderId }));
    await waitFor(() => r.of('account.algo').some((e) => e.order.status === 'ORDER_CANCELED'), 'the cancel report');
    expect(r.of('account.algo').map((e) => e.order.status)).toEqual(['ORDER_NEW', 'ORDER_CANCELED']);
    expect(r.of('account.algo')[0]?.order).toMatchObject({ orderId: plan.orderId, clientOrderId: 'uss-plan-1', kind: 'PLAN', side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: trigger });
  });
});

describe('UserStreamSession: heartbeat and stop', () => {
  it('pings every 20 s keep the socket open well past the 60 s idle close', async () => {
    const r = await started();
    await runWithHeartbeat(s, r, 3 * MINUTE);
    expect(r.session.state).toBe('open');
    expect(r.session.lastPongAt).toBe(s.clock.now());
    expect(r.epochs()).toEqual([1]);
    expect(r.of('stream.disconnected')).toEqual([]);
  });

  it('runs on real time too: pings on the real scheduler get their pongs', async () => {
    // The simulator's clock stands still meanwhile, so its 5-frames-per-second rule counts every ping: a few only.
    const r = new RecordedSession(s, { time: systemTime, pingIntervalMs: 200, pongTimeoutMs: 2000 });
    running.push(r);
    value(await r.session.start());
    await waitFor(() => r.session.lastPongAt !== undefined, 'a pong');
    expect(r.session.state).toBe('open');
    expect(r.epochs()).toEqual([1]);
  });

  it('stop closes the socket, deletes the key and never reconnects', async () => {
    const r = new RecordedSession(s);
    let completed = false;
    r.session.events$.subscribe({ complete: () => (completed = true) });
    value(await r.session.start());
    // POST while a key is valid answers that same key.
    const listenKey = value(await trader.userStream.createListenKey());
    await r.stop();
    expect(r.session.state).toBe('stopped');
    expect(completed).toBe(true);
    expect(r.of('stream.disconnected')).toEqual([{ type: 'stream.disconnected', time: s.clock.now(), reason: 'stopped' }]);
    expect(failure(await trader.userStream.keepAliveListenKey(listenKey))).toMatchObject({ code: -1125 });
    s.clock.advanceBy(MINUTE);
    expect(r.session.state).toBe('stopped');
    expect(r.session.reconnects).toBe(0);
    expect(failure(await r.session.keepAlive())).toMatchObject({ kind: 'invalid-request' });
  });
});
