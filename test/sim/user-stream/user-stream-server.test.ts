import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { WebSocketServer } from 'ws';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { NO_FAULTS } from '../../../src/sim/config/fault-settings.js';
import type { FaultSettings } from '../../../src/sim/config/fault-settings.js';
import { FAULTS_INJECTED_TOTAL, ListenKeyRegistry, UserStreamServer, listenKeyOf } from '../../../src/sim/user-stream/index.js';
import {
  EventHub,
  LIVE_EXAMPLES,
  T0,
  USER,
  balanceEvent,
  objectFrame,
  onlyElement,
  orderEvent,
  planEvent,
  positionEvent,
  shapeOf,
  tradeEvent,
} from './fixtures.js';
import { StreamClient } from './ws-client.js';

const USDT = { userId: USER, category: 'USDT' } as const;

interface World {
  readonly clock: VirtualClock;
  readonly registry: ListenKeyRegistry;
  readonly hub: EventHub;
  readonly metrics: Registry;
  readonly stream: UserStreamServer;
  readonly http: Server;
  readonly base: string;
  setFaults(next: Partial<FaultSettings>): void;
}

let world: World;
const clients: StreamClient[] = [];

async function start(prepare?: (metrics: Registry) => void): Promise<World> {
  const clock = new VirtualClock(T0);
  let faults: FaultSettings = NO_FAULTS;
  const registry = new ListenKeyRegistry({ time: clock, faults: () => faults, seed: 11 });
  const hub = new EventHub();
  const metrics = new Registry();
  prepare?.(metrics);
  const stream = new UserStreamServer({ registry, venue: hub, time: clock, faults: () => faults, seed: 5, metrics, limits: { reorderHoldMs: 30_000 } });
  const http = createServer((_req, res) => res.writeHead(404).end());
  stream.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { clock, registry, hub, metrics, stream, http, base: `ws://127.0.0.1:${port}`, setFaults: (next) => (faults = { ...NO_FAULTS, ...next }) };
}

async function connect(listenKey: string): Promise<StreamClient> {
  const client = await StreamClient.open(`${world.base}/api/v1/ws/${listenKey}`);
  clients.push(client);
  return client;
}

/** Lets virtual time pass so the next ping stays within the 5-per-second inbound limit, then round-trips a ping. */
async function drain(client: StreamClient): Promise<string[]> {
  world.clock.advanceBy(1_000);
  return (await client.ping()).before;
}

async function metricValue(name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const metric = world.metrics.getSingleMetric(name);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  const found = values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return found?.value ?? 0;
}

beforeEach(async () => {
  world = await start();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await world.stream.close();
  world.registry.dispose();
  world.http.closeAllConnections();
  await new Promise<void>((resolve) => world.http.close(() => resolve()));
});

describe('user stream: frames over a real socket', () => {
  it('delivers every event kind in the live shapes, in order', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.hub.emit(balanceEvent());
    world.hub.emit(positionEvent());
    world.hub.emit(orderEvent());
    world.hub.emit(tradeEvent());
    world.hub.emit(planEvent());
    const frames = await drain(client);
    expect(frames).toHaveLength(5);
    const [balance, position, order, trade, plan] = frames as [string, string, string, string, string];
    expect(shapeOf(onlyElement(balance))).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.outboundContractAccountInfo)));
    expect(onlyElement(balance)).toMatchObject({ e: 'outboundContractAccountInfo', B: [{ a: 'USDT', f: '9.07317715', l: '1' }] });
    expect(shapeOf(onlyElement(position))).toEqual({ ...shapeOf(onlyElement(LIVE_EXAMPLES.outboundContractPositionInfo)), rr: 'string' });
    expect(onlyElement(position)).toMatchObject({ e: 'outboundContractPositionInfo', P: '12.5', mm: '13.8788', mp: '111030.2', rr: '1.35' });
    expect(shapeOf(onlyElement(order))).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.contractExecutionReport)));
    expect(onlyElement(order)).toMatchObject({ e: 'contractExecutionReport', i: '2120518481434695937', X: 'NEW', N: '' });
    expect(shapeOf(onlyElement(trade))).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.ticketInfo)));
    expect(onlyElement(trade)).toMatchObject({ e: 'ticketInfo', T: '1291488620385157122' });
    expect(shapeOf(objectFrame(plan))).toEqual(shapeOf(objectFrame(LIVE_EXAMPLES.planExecutionReport)));
    expect(objectFrame(plan)).toMatchObject({ eventType: 'planExecutionReport', planOrderType: 'STOP_COMMON', side: 'BUY_OPEN' });
    for (const frame of frames) expect(frame.startsWith('{') ? objectFrame(frame) : onlyElement(frame)).not.toHaveProperty('code');
    expect(await metricValue('stratd_sim_user_stream_frames_sent_total', { kind: 'contractExecutionReport' })).toBe(1);
  });

  it('ping → pong with the server clock (not the echoed number)', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.clock.advanceBy(12_345);
    client.send({ ping: 1 });
    expect(JSON.parse(await client.next())).toEqual({ pong: T0 + 12_345 });
  });

  it('every socket of a key gets every event of its (user, category), and nothing else', async () => {
    const { listenKey } = world.registry.create(USDT);
    const usdcKey = world.registry.create({ userId: USER, category: 'USDC' }).listenKey;
    const [a, b, usdc] = [await connect(listenKey), await connect(listenKey), await connect(usdcKey)];
    expect(world.stream.connectionCount(listenKey)).toBe(2);
    world.hub.emit(balanceEvent({ category: 'USDC', coin: 'USDC' }));
    world.hub.emit(balanceEvent({ userId: '879145609' }));
    world.hub.emit(balanceEvent({ free: '42' }));
    for (const client of [a, b]) {
      const frames = await drain(client);
      expect(frames.map((f) => onlyElement(f)['B'])).toEqual([[{ a: 'USDT', f: '42', l: '1' }]]);
    }
    expect((await drain(usdc)).map((f) => onlyElement(f)['B'])).toEqual([[{ a: 'USDC', f: '9.07317715', l: '1' }]]);
    expect(await metricValue('stratd_sim_user_stream_connections_opened_total')).toBe(3);
  });

  it('pushes listenKeyWillExpire each minute of the last five, then closes the socket when the key expires', async () => {
    world.setFaults({ listenKeyTtlMs: 3 * 60_000 });
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      world.clock.advanceBy(30_000);
      seen.push(...(await client.ping()).before);
    }
    expect(seen).toEqual([
      `{"eventTime":${T0 + 60_000},"eventType":"listenKeyWillExpire","listenKey":"${listenKey}"}`,
      `{"eventTime":${T0 + 120_000},"eventType":"listenKeyWillExpire","listenKey":"${listenKey}"}`,
    ]);
    expect(shapeOf(objectFrame(seen[0] ?? ''))).toEqual(shapeOf(objectFrame(LIVE_EXAMPLES.listenKeyWillExpire)));
    world.clock.advanceBy(30_000);
    expect(await client.closed).toEqual({ code: 1000, reason: 'listenKey expired' });
    expect(await metricValue('stratd_sim_user_stream_connections_closed_total', { reason: 'key_expired' })).toBe(1);
  });

  it('DELETE of the key closes its sockets; the key then no longer connects', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    expect(world.registry.close(USER, listenKey).ok).toBe(true);
    expect(await client.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
    expect(world.stream.connectionCount()).toBe(0);
    const refused = await StreamClient.refused(`${world.base}/api/v1/ws/${listenKey}`);
    expect(refused.status).toBe(401);
  });

  it('an unknown key is refused with HTTP 401 and -1125 before the upgrade', async () => {
    for (const path of ['/api/v1/ws/zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu', '/api/v1/ws/', '/api/v1/ws']) {
      const refused = await StreamClient.refused(`${world.base}${path}`);
      expect(refused).toEqual({ status: 401, body: '{"code":-1125,"msg":"This listenKey does not exist."}' });
    }
    expect(await metricValue('stratd_sim_user_stream_upgrades_rejected_total')).toBe(3);
  });

  it('closes a socket after 60 s without an inbound frame (virtual time); each inbound frame restarts the wait', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.clock.advanceBy(59_999);
    await client.ping();
    world.clock.advanceBy(59_999);
    await client.ping();
    expect(world.stream.connectionCount()).toBe(1);
    world.clock.advanceBy(60_000);
    expect((await client.closed).code).toBe(1006);
    expect(await metricValue('stratd_sim_user_stream_connections_closed_total', { reason: 'idle' })).toBe(1);
  });

  it('more than 5 inbound messages within a second disconnects (1008)', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    for (let i = 0; i < 5; i++) await client.ping();
    world.clock.advanceBy(1_000);
    for (let i = 0; i < 5; i++) await client.ping();
    client.send({ ping: 99 });
    client.send({ ping: 100 });
    expect(await client.closed).toEqual({ code: 1008, reason: 'too many messages' });
    expect(client.pending()).toEqual([]);
    expect(await metricValue('stratd_sim_user_stream_connections_closed_total', { reason: 'inbound_rate' })).toBe(1);
  });

  it('non-ping messages are ignored (no error frame with a code), but count as inbound', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    client.socket.send('not json');
    client.send({ method: 'SUBSCRIBE' });
    expect(await client.ping()).toMatchObject({ before: [] });
  });

  it('leaves other upgrade paths to their own handler', async () => {
    const other = new WebSocketServer({ noServer: true });
    world.http.on('upgrade', (req, socket, head) => {
      if (listenKeyOf(req.url) === undefined) other.handleUpgrade(req, socket, head, (ws) => ws.send('market'));
    });
    const client = await StreamClient.open(`${world.base}/quote/ws/v1`);
    expect(await client.next()).toBe('market');
    expect(world.stream.connectionCount()).toBe(0);
    client.terminate();
    await client.closed;
    await new Promise<void>((resolve) => other.close(() => resolve()));
  });

  it('with no other upgrade listener, other paths get HTTP 404 instead of hanging', async () => {
    expect(await StreamClient.refused(`${world.base}/quote/ws/v1`)).toEqual({ status: 404, body: '' });
  });

  it('close() cuts every socket and stops listening to the engine', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    expect(world.hub.listenerCount()).toBe(1);
    await world.stream.close();
    expect((await client.closed).code).toBe(1006);
    expect(world.hub.listenerCount()).toBe(0);
  });
});

describe('user stream: faults', () => {
  it('streamDuplicateRate 1 sends every event twice', async () => {
    world.setFaults({ streamDuplicateRate: 1 });
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.hub.emit(orderEvent());
    world.hub.emit(tradeEvent());
    const frames = await drain(client);
    expect(frames.map((f) => onlyElement(f)['e'])).toEqual(['contractExecutionReport', 'contractExecutionReport', 'ticketInfo', 'ticketInfo']);
    expect(frames[0]).toBe(frames[1]);
    expect(await metricValue(FAULTS_INJECTED_TOTAL, { kind: 'stream_duplicate' })).toBe(2);
  });

  it('streamReorderRate 1 swaps each event with the next; a held event with no successor goes out after the hold', async () => {
    world.setFaults({ streamReorderRate: 1 });
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    const order = (n: number) => orderEvent({ clientOrderId: `c${n}` });
    for (const n of [1, 2, 3]) world.hub.emit(order(n));
    expect((await drain(client)).map((f) => onlyElement(f)['c'])).toEqual(['c2', 'c1']);
    world.clock.advanceBy(30_000);
    expect((await client.ping()).before.map((f) => onlyElement(f)['c'])).toEqual(['c3']);
    expect(await metricValue(FAULTS_INJECTED_TOTAL, { kind: 'stream_reorder' })).toBe(2);
  });

  it('wsDropRate 1 drops the socket right after delivering an event', async () => {
    world.setFaults({ wsDropRate: 1 });
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.hub.emit(balanceEvent());
    world.hub.emit(positionEvent());
    expect(onlyElement(await client.next())['e']).toBe('outboundContractAccountInfo');
    expect((await client.closed).code).toBe(1006);
    expect(client.pending()).toEqual([]);
    expect(await metricValue(FAULTS_INJECTED_TOTAL, { kind: 'ws_drop' })).toBe(1);
    expect(await metricValue('stratd_sim_user_stream_connections_closed_total', { reason: 'fault_drop' })).toBe(1);
  });

  it('fault rates apply at runtime through the settings getter', async () => {
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.hub.emit(tradeEvent());
    world.setFaults({ streamDuplicateRate: 1 });
    world.hub.emit(tradeEvent());
    world.setFaults({});
    world.hub.emit(tradeEvent());
    expect(await drain(client)).toHaveLength(4);
  });
});

describe('user stream: metrics registry sharing', () => {
  it('reuses a faults counter the HTTP server already registered', async () => {
    await world.stream.close();
    world.registry.dispose();
    world.http.closeAllConnections();
    await new Promise<void>((resolve) => world.http.close(() => resolve()));
    let shared: Counter<string> | undefined;
    world = await start((metrics) => {
      shared = new Counter({ name: FAULTS_INJECTED_TOTAL, help: 'faults', labelNames: ['kind'], registers: [metrics] });
      shared.inc({ kind: 'http_5xx' });
    });
    world.setFaults({ streamDuplicateRate: 1 });
    const { listenKey } = world.registry.create(USDT);
    const client = await connect(listenKey);
    world.hub.emit(tradeEvent());
    await drain(client);
    const values = (await shared?.get())?.values.map((v) => [v.labels['kind'], v.value]);
    expect(values).toEqual([
      ['http_5xx', 1],
      ['stream_duplicate', 1],
    ]);
  });
});
