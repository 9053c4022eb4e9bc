import { Decimal, dec } from '../../../src/core/decimal.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, MINUTE, failure, startSim, value } from '../../sim/e2e/sim-harness.js';
import { RecordedSession, advanceUntil, runWithHeartbeat, waitFor } from './session-harness.js';

/** Recovery of the user stream session against the simulator: pong timeout, socket drops, expired and unknown keys. */
let s: RunningSim;
let trader: ExchangeClient;
const running: RecordedSession[] = [];

beforeAll(async () => {
  s = await startSim({ tickMs: MINUTE });
  trader = s.client('trader');
});
afterEach(async () => {
  s.sim.http.faults.update({ wsDropRate: 0, http5xxRate: 0, streamReorderRate: 0 });
  for (const r of running.splice(0)) await r.stop();
});
afterAll(() => s.stop());

async function started(): Promise<RecordedSession> {
  const r = new RecordedSession(s);
  running.push(r);
  value(await r.session.start());
  expect(r.epochs()).toEqual([1]);
  return r;
}

async function marketBuy(clientOrderId: string): Promise<string> {
  return value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(1), newClientOrderId: clientOrderId })).orderId;
}

describe('UserStreamSession: reconnects', () => {
  it('no pong within 10 s of a ping: the socket is dropped and reconnected after the backoff', async () => {
    const r = await started();
    // Both steps run before any I/O: the ping goes out at +20 s and its pong cannot arrive before +30 s.
    s.clock.advanceBy(20_000);
    s.clock.advanceBy(10_000);
    expect(r.session.state).toBe('backoff');
    expect(r.of('stream.disconnected')).toEqual([{ type: 'stream.disconnected', time: s.clock.now(), reason: 'pong timeout' }]);
    // random 0.5 puts the jitter at zero: the first retry waits exactly 500 ms.
    s.clock.advanceBy(499);
    expect(r.session.state).toBe('backoff');
    await advanceUntil(s, r, () => r.session.state === 'open', 'reconnect', 1);
    expect(r.epochs()).toEqual([1, 2]);
    expect(r.session.reconnects).toBe(1);
  });

  it('a socket dropped by the server (ws drop fault) reconnects with a new epoch and events flow again', async () => {
    const r = await started();
    s.sim.http.faults.update({ wsDropRate: 1 });
    await marketBuy('uss-drop-1');
    await waitFor(() => r.of('stream.disconnected').length > 0, 'the drop');
    s.sim.http.faults.update({ wsDropRate: 0 });
    expect(r.of('stream.disconnected')[0]?.reason).toMatch(/1006/);
    await advanceUntil(s, r, () => r.session.state === 'open', 'reconnect');
    expect(r.epochs()).toEqual([1, 2]);
    const orderId = await marketBuy('uss-drop-2');
    await waitFor(() => r.of('account.fill').some((e) => e.fill.orderId === orderId), 'a fill on the new socket');
    // Epoch 2's connection comes before the new order's events.
    const connectedAt = r.events.findIndex((e) => e.type === 'stream.connected' && e.epoch === 2);
    expect(r.events.findIndex((e) => e.type === 'account.order' && e.order.orderId === orderId)).toBeGreaterThan(connectedAt);
  });

  it('a handshake refused for an unknown key (401) makes the next attempt create a key first', async () => {
    const r = await started();
    const oldKey = value(await trader.userStream.createListenKey());
    s.sim.http.faults.update({ wsDropRate: 1 });
    await marketBuy('uss-refused-1');
    await waitFor(() => r.session.state === 'backoff', 'the drop');
    s.sim.http.faults.update({ wsDropRate: 0 });
    // The key dies while the session waits: its next connect on it is refused.
    value(await trader.userStream.closeListenKey(oldKey));
    await advanceUntil(s, r, () => r.session.state === 'open', 'reconnect on a new key');
    expect(r.epochs()).toEqual([1, 2]);
    expect(r.session.reconnects).toBe(2);
    expect(value(await trader.userStream.createListenKey())).not.toBe(oldKey);
  });
});

describe('UserStreamSession: out-of-order delivery', () => {
  it('a fill delivered ahead of its execution report still gets the position side and client id', async () => {
    const r = await started();
    s.sim.http.faults.update({ streamReorderRate: 1 });
    // Every event is swapped with the next: a lone plan report first shifts the pairs so that the fill's
    // ticket goes out ahead of the execution report of the same fill.
    const [book] = value(await trader.market.contractBookTicker(BTC));
    const trigger = (book?.askPrice ?? dec(0)).mul(2).toDecimalPlaces(1, Decimal.ROUND_DOWN);
    value(await trader.algo.createPlanOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: trigger, quantity: dec(1), newClientOrderId: 'uss-reorder-plan' }));
    const orderId = await marketBuy('uss-reorder-1');
    // The last held frame goes out after the simulator's 1 s hold.
    s.clock.advanceBy(1000);
    const fills = () => r.of('account.fill').filter((e) => e.fill.orderId === orderId);
    await waitFor(() => fills().reduce((sum, e) => sum.add(e.fill.qty), dec(0)).eq(1), 'every fill');
    expect(fills().every((e) => e.fill.positionSide === 'LONG' && e.fill.clientOrderId === 'uss-reorder-1')).toBe(true);
    const firstFill = r.events.findIndex((e) => e.type === 'account.fill' && e.fill.orderId === orderId);
    const filledReport = r.events.findIndex((e) => e.type === 'account.order' && e.order.orderId === orderId && e.order.status === 'FILLED');
    // The ticket overtook the report of its own fill (the order's NEW report had taught its side).
    expect(firstFill).toBeGreaterThan(-1);
    expect(firstFill).toBeLessThan(filledReport);
  });
});

describe('UserStreamSession: listen keys', () => {
  it('listenKeyWillExpire triggers a keepalive: past 60 minutes the same socket is still open', async () => {
    const r = await started();
    await runWithHeartbeat(s, r, 62 * MINUTE);
    expect(r.session.state).toBe('open');
    expect(r.epochs()).toEqual([1]);
    expect(r.of('stream.disconnected')).toEqual([]);
  });

  it('when keepalives fail the key expires at 60 minutes; a new key and a reconnect follow', async () => {
    const r = await started();
    await runWithHeartbeat(s, r, 54 * MINUTE);
    // Every REST call fails from here: the keepalives after listenKeyWillExpire, then the new-key attempts.
    s.sim.http.faults.update({ http5xxRate: 1 });
    await runWithHeartbeat(s, r, 7 * MINUTE);
    expect(r.of('stream.disconnected').map((e) => e.reason)).toEqual(['closed (1000 listenKey expired)']);
    expect(r.session.state).not.toBe('open');
    s.sim.http.faults.update({ http5xxRate: 0 });
    await advanceUntil(s, r, () => r.session.state === 'open', 'reconnect on a new key', 1000);
    expect(r.epochs()).toEqual([1, 2]);
  });

  it('keepAlive on an unknown key (-1125) creates a new key and reconnects on it', async () => {
    const r = await started();
    const oldKey = value(await trader.userStream.createListenKey());
    value(await trader.userStream.closeListenKey(oldKey));
    value(await r.session.keepAlive());
    await advanceUntil(s, r, () => r.session.state === 'open' && r.epochs().length === 2, 'reconnect on the new key');
    expect(r.epochs()).toEqual([1, 2]);
    const newKey = value(await trader.userStream.createListenKey());
    expect(newKey).not.toBe(oldKey);
    expect(failure(await trader.userStream.keepAliveListenKey(oldKey))).toMatchObject({ code: -1125 });
    // The new socket carries the account's events.
    const orderId = await marketBuy('uss-renew-1');
    await waitFor(() => r.of('account.fill').some((e) => e.fill.orderId === orderId), 'a fill on the new key');
  });
});
