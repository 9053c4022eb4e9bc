import { gunzipSync } from 'node:zlib';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { RunningSim } from '../e2e/sim-harness.js';
import { BTC, ETH, startSim } from '../e2e/sim-harness.js';
import { waitFor } from '../../venue/stream/session-harness.js';

/** The simulator's `/quote/ws/v1` framing as API-NOTES §8 and §7 describe it, with a raw `ws` client. */
let s: RunningSim;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  s = await startSim({ tickMs: 1000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});
afterAll(() => s.stop());

interface Client {
  readonly socket: WebSocket;
  readonly frames: Array<Record<string, unknown>>;
  readonly binary: boolean[];
  closed: { code: number } | undefined;
  send(value: unknown): void;
}

async function open(): Promise<Client> {
  const socket = new WebSocket(`${s.sim.address.streamUrl}/quote/ws/v1`, { perMessageDeflate: false });
  sockets.push(socket);
  const client: Client = {
    socket,
    frames: [],
    binary: [],
    closed: undefined,
    send: (value) => socket.send(typeof value === 'string' ? value : JSON.stringify(value)),
  };
  socket.on('message', (data: RawData, isBinary: boolean) => {
    const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data));
    client.binary.push(isBinary);
    client.frames.push(JSON.parse((isBinary ? gunzipSync(buffer) : buffer).toString('utf8')) as Record<string, unknown>);
  });
  socket.on('close', (code) => {
    client.closed = { code };
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return client;
}

describe('simulator market socket: framing', () => {
  it('a diffDepth subscription of two symbols answers a snapshot each (f:true, e:301, o:0), then deltas with o rising by one', async () => {
    const c = await open();
    c.send({ symbol: `${BTC},${ETH}`, topic: 'diffDepth', event: 'sub', params: { binary: false } });
    await waitFor(() => c.frames.length >= 2, 'two snapshots');
    const snapshots = c.frames.slice(0, 2);
    expect(snapshots.map((f) => f['symbol'])).toEqual([BTC, ETH]);
    for (const frame of snapshots) {
      expect(frame).toMatchObject({ topic: 'diffDepth', f: true, params: { realtimeInterval: '24h', binary: 'false' }, shared: false });
      expect(frame['symbolName']).toBe(frame['symbol']);
      expect(frame['data']).toEqual([expect.objectContaining({ e: 301, s: frame['symbol'], o: 0, v: expect.any(String), b: expect.any(Array), a: expect.any(Array) })]);
    }
    for (let i = 0; i < 4; i++) s.clock.advanceBy(1000);
    await waitFor(() => c.frames.filter((f) => f['symbol'] === BTC && f['f'] === false).length >= 3, 'BTC deltas');
    const sequences = c.frames.filter((f) => f['symbol'] === BTC && f['f'] === false).map((f) => (f['data'] as Array<Record<string, unknown>>)[0]?.['o']);
    expect(sequences.every((o, i) => i === 0 || o === Number(sequences[i - 1]) + 1)).toBe(true);
    expect(c.frames.some((f) => 'code' in f)).toBe(false);
  });

  it('error frames with string codes, and the socket stays open', async () => {
    const c = await open();
    c.send('not json');
    c.send({ symbol: BTC, topic: 'diffDepth', event: 'subscribe' });
    c.send({ symbol: BTC, topic: 'nope', event: 'sub' });
    c.send({ symbol: `${BTC}, ${ETH}`, topic: 'trade', event: 'sub' });
    await waitFor(() => c.frames.length >= 4, 'four answers');
    expect(c.frames).toEqual([
      { code: '-10001', desc: 'Invalid JSON!' },
      { code: '-10002', desc: 'Invalid event!' },
      { code: '-10004', desc: 'Invalid topic!' },
      { code: '-100010', desc: 'Invalid Symbols!' },
    ]);
    expect(c.closed).toBeUndefined();
  });

  it('binary:true sends gzip frames; kline, markPrice, bookTicker and index topics in their live envelopes; cancel stops a topic', async () => {
    const c = await open();
    c.send({ symbol: BTC, topic: 'kline_1m', event: 'sub', params: { binary: true } });
    await waitFor(() => c.frames.length >= 1, 'the kline snapshot');
    expect(c.binary[0]).toBe(true);
    expect(c.frames[0]).toMatchObject({ symbol: BTC, topic: 'kline', params: { klineType: '1m', binary: 'true' }, f: true });
    expect(c.frames[0]?.['data']).toEqual([expect.objectContaining({ t: expect.any(Number), s: BTC, o: expect.any(String), c: expect.any(String), v: expect.any(String) })]);
    // At most 5 messages a second (§7): the (virtual) second moves on between bursts.
    s.clock.advanceBy(1000);
    c.send({ symbol: BTC, topic: 'markPrice', event: 'sub' });
    c.send({ symbol: BTC, topic: 'bookTicker', event: 'sub' });
    c.send({ symbol: 'BTCUSDT', topic: 'index', event: 'sub' });
    const byTopic = (topic: string): Record<string, unknown> | undefined => c.frames.find((f) => f['topic'] === topic);
    await waitFor(() => ['markPrice', 'bookTicker', 'index'].every((t) => byTopic(t) !== undefined), 'three more snapshots');
    // markPrice (live) and bookTicker: data an object, no top-level symbol.
    expect(byTopic('markPrice')).not.toHaveProperty('symbol');
    expect(byTopic('markPrice')?.['data']).toEqual({ exchangeId: expect.any(Number), symbolId: BTC, price: expect.any(String), time: expect.any(Number) });
    expect(byTopic('bookTicker')).not.toHaveProperty('symbol');
    expect(byTopic('bookTicker')?.['data']).toMatchObject({ s: BTC, b: expect.any(String), a: expect.any(String) });
    expect(c.frames.every((f, i) => c.binary[i] === (f['topic'] === 'kline'))).toBe(true);
    expect(byTopic('index')).toMatchObject({ symbol: 'BTCUSDT', data: [expect.objectContaining({ index: expect.any(String) })] });
    s.clock.advanceBy(1000);
    c.send({ symbol: BTC, topic: 'markPrice', event: 'cancel' });
    c.send({ event: 'cancel_all' });
    // The pong answers after both cancels: nothing of the cancelled topics is pushed after it.
    c.send({ ping: 1 });
    await waitFor(() => c.frames.some((f) => 'pong' in f), 'the pong');
    const after = c.frames.length;
    for (let i = 0; i < 3; i++) s.clock.advanceBy(1000);
    c.send({ ping: 2 });
    await waitFor(() => c.frames.filter((f) => 'pong' in f).length >= 2, 'the second pong');
    expect(c.frames.slice(after).filter((f) => !('pong' in f))).toEqual([]);
  });

  it('more than 5 messages within a second closes the socket (1008); 60 s without one cuts it', async () => {
    const flood = await open();
    for (let i = 0; i < 6; i++) flood.send({ ping: i });
    await waitFor(() => flood.closed !== undefined, 'the flood close');
    expect(flood.closed?.code).toBe(1008);

    const idle = await open();
    s.clock.advanceBy(30_000);
    idle.send({ ping: 1 });
    await waitFor(() => idle.frames.length >= 1, 'the pong');
    s.clock.advanceBy(59_000);
    expect(idle.closed).toBeUndefined();
    s.clock.advanceBy(2_000);
    await waitFor(() => idle.closed !== undefined, 'the idle cut');
    expect(idle.closed?.code).toBe(1006);
  });
});
