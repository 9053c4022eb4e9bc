import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { KeyringEntry } from '../../../src/sim/server/index.js';
import { SimHttpServer } from '../../../src/sim/server/index.js';
import { FAULTS_INJECTED_TOTAL, ListenKeyRegistry, UserStreamServer, listenKeyRoutes } from '../../../src/sim/user-stream/index.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { EventHub, T0, USER, onlyElement, tradeEvent } from './fixtures.js';
import { StreamClient } from './ws-client.js';

const KEY: KeyringEntry = { apiKey: 'simTraderKey000000001', secret: 'simTraderSecret000001', userId: USER, readOnly: false, accountType: 'FUTURES' };

/** The composition the simulator's root performs, driven by the project's own client. */
describe('user stream wired into the simulator HTTP server', () => {
  let http: SimHttpServer;
  let registry: ListenKeyRegistry;
  let stream: UserStreamServer;
  let hub: EventHub;
  let client: ExchangeClient;
  let wsBase: string;
  const sockets: StreamClient[] = [];

  beforeEach(async () => {
    const clock = new VirtualClock(T0);
    http = new SimHttpServer({ time: clock, seed: 1, keys: [KEY], adminToken: 'admin-token-0000000000', host: '127.0.0.1', port: 0 });
    const time = { clock: { now: () => http.now() }, scheduler: clock };
    registry = new ListenKeyRegistry({ time, faults: () => http.faults.current, seed: 1 });
    http.mount(listenKeyRoutes(registry));
    hub = new EventHub();
    stream = new UserStreamServer({ registry, venue: hub, time, faults: () => http.faults.current, seed: 1, metrics: http.registry });
    stream.attach(http.httpServer);
    const { baseUrl } = await http.start();
    wsBase = baseUrl.replace('http://', 'ws://');
    client = new ExchangeClient({ baseUrl, credentials: { apiKey: KEY.apiKey, apiSecret: KEY.secret }, time: clock, timeoutMs: 2000 });
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.terminate();
    await stream.close();
    registry.dispose();
    await http.stop();
  });

  it('the project client creates, refreshes and closes a key; the socket gets the account’s events', async () => {
    const created = await client.userStream.createListenKey();
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const again = await client.userStream.createListenKey();
    expect(again).toEqual(created);

    const socket = await StreamClient.open(`${wsBase}/api/v1/ws/${created.value}`);
    sockets.push(socket);
    hub.emit(tradeEvent());
    expect(onlyElement(await socket.next())).toMatchObject({ e: 'ticketInfo', c: 'stratd-42' });

    expect((await client.userStream.keepAliveListenKey(created.value)).ok).toBe(true);
    expect((await client.userStream.closeListenKey(created.value)).ok).toBe(true);
    expect(await socket.closed).toEqual({ code: 1000, reason: 'listenKey closed' });

    const unknown = await client.userStream.keepAliveListenKey(created.value);
    expect(unknown.ok ? undefined : { kind: unknown.error.kind, code: unknown.error.code, status: unknown.error.httpStatus }).toEqual({ kind: 'rejected', code: -1125, status: 400 });
  });

  it('USDC-M keys are separate; fault settings changed on the server apply to the stream and share its faults counter', async () => {
    const usdt = await client.userStream.createListenKey();
    const usdc = await client.userStream.createListenKey('USDC');
    if (!usdt.ok || !usdc.ok) throw new Error('listen key refused');
    expect(usdc.value).not.toBe(usdt.value);

    expect(http.faults.update({ streamDuplicateRate: 1 }).ok).toBe(true);
    const socket = await StreamClient.open(`${wsBase}/api/v1/ws/${usdt.value}`);
    sockets.push(socket);
    hub.emit(tradeEvent());
    expect(await socket.next()).toBe(await socket.next());
    const faults = await http.registry.getSingleMetric(FAULTS_INJECTED_TOTAL)?.get();
    expect(faults?.values.find((v) => v.labels['kind'] === 'stream_duplicate')?.value).toBe(1);
  });
});
