import { Decimal, dec } from '../../../src/core/decimal.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, ETH, failure, MINUTE, startSim, value } from './sim-harness.js';
import { arrayEventBody, arrayEventName, StreamSocket } from './stream-socket.js';

/** The user data stream end to end: listen keys through the project's client, frames over a real WebSocket. */
let s: RunningSim;
let trader: ExchangeClient;
const sockets: StreamSocket[] = [];

beforeAll(async () => {
  // One-minute market ticks: an hour of virtual time stays cheap, and requests catch the market up anyway.
  s = await startSim({ tickMs: MINUTE });
  trader = s.client('trader');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});
afterAll(() => s.stop());

async function openStream(): Promise<{ listenKey: string; socket: StreamSocket }> {
  const listenKey = value(await trader.userStream.createListenKey());
  const socket = await StreamSocket.open(s.sim.address.streamUrl, listenKey);
  sockets.push(socket);
  return { listenKey, socket };
}

describe('user data stream', () => {
  it('a filled market order pushes execution report, ticket, position and balance frames in array framing', async () => {
    const { socket } = await openStream();
    const order = value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(3), newClientOrderId: 'ws-mkt-1' }));
    const filled = (frames: readonly unknown[]): boolean =>
      frames.some((f) => arrayEventName(f) === 'contractExecutionReport' && arrayEventBody(f)['X'] === 'FILLED') &&
      ['ticketInfo', 'outboundContractPositionInfo', 'outboundContractAccountInfo'].every((name) => frames.some((f) => arrayEventName(f) === name));
    const frames = await socket.until(filled);
    expect(frames.every((f) => arrayEventName(f) !== undefined)).toBe(true);

    const reports = frames.filter((f) => arrayEventName(f) === 'contractExecutionReport').map(arrayEventBody);
    expect(reports.every((r) => r['c'] === 'ws-mkt-1' && r['i'] === order.orderId && r['s'] === ETH)).toBe(true);
    expect(reports.at(-1)).toMatchObject({ X: 'FILLED', z: '3' });
    const tickets = frames.filter((f) => arrayEventName(f) === 'ticketInfo').map(arrayEventBody);
    expect(tickets.reduce((sum, t) => sum.add(String(t['q'])), dec(0)).eq(3)).toBe(true);
    const position = arrayEventBody(frames.filter((f) => arrayEventName(f) === 'outboundContractPositionInfo').at(-1));
    expect(position).toMatchObject({ s: ETH, S: 'LONG', P: '3' });
    const balance = arrayEventBody(frames.find((f) => arrayEventName(f) === 'outboundContractAccountInfo'));
    expect(balance['B']).toEqual([expect.objectContaining({ a: 'USDT' })]);
  });

  it('a plan order pushes planExecutionReport as a bare object: created, then canceled', async () => {
    const { socket } = await openStream();
    const [book] = value(await trader.market.contractBookTicker(BTC));
    const trigger = (book?.askPrice ?? dec(0)).mul('1.3').toDecimalPlaces(1, Decimal.ROUND_DOWN);
    const plan = value(
      await trader.algo.createPlanOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: trigger, quantity: dec(1), newClientOrderId: 'ws-plan-1' }),
    );
    const created = await socket.next();
    expect(Array.isArray(created)).toBe(false);
    expect(created).toMatchObject({ eventType: 'planExecutionReport', orderId: plan.orderId, clientOrderId: 'ws-plan-1', symbolId: BTC, status: 'ORDER_NEW', side: 'BUY_OPEN', triggerPrice: trigger.toString() });
    value(await trader.algo.cancelAlgoOrder({ orderId: plan.orderId }));
    expect(await socket.next()).toMatchObject({ eventType: 'planExecutionReport', orderId: plan.orderId, status: 'ORDER_CANCELED' });
  });

  it('keepalive extends the key; DELETE closes the socket; the key is unknown afterwards', async () => {
    const { listenKey, socket } = await openStream();
    value(await trader.userStream.keepAliveListenKey(listenKey));
    expect(value(await trader.userStream.createListenKey())).toBe(listenKey);
    value(await trader.userStream.closeListenKey(listenKey));
    expect(await socket.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
    expect(failure(await trader.userStream.keepAliveListenKey(listenKey))).toMatchObject({ kind: 'rejected', code: -1125 });
  });

  it('without keepalive the key expires after 60 minutes of virtual time, with listenKeyWillExpire notices in the last 5', async () => {
    const { listenKey, socket } = await openStream();
    const expiresAt = s.clock.now() + 60 * MINUTE;
    // Heartbeats every 50 s keep the socket inside its 60 s idle rule while virtual time runs.
    while (s.clock.now() < expiresAt - 50_000) {
      s.clock.advanceBy(50_000);
      await socket.ping();
    }
    s.clock.advanceTo(expiresAt);
    expect(await socket.closed).toEqual({ code: 1000, reason: 'listenKey expired' });
    const notices = socket.drain();
    // Bare objects, one a minute from five minutes before expiry; eventTime is a number.
    expect(notices).toEqual([5, 4, 3, 2, 1].map((m) => ({ eventTime: expiresAt - m * MINUTE, eventType: 'listenKeyWillExpire', listenKey })));
    expect(failure(await trader.userStream.keepAliveListenKey(listenKey))).toMatchObject({ code: -1125 });
  });
});
