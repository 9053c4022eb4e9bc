import type { FaultSettings } from '../../../src/sim/config/fault-settings.js';
import { FAULTS_INJECTED_TOTAL } from '../../../src/sim/user-stream/index.js';
import { setFaults } from '../../venue/port/admin-faults.js';
import type { RunningSim } from '../e2e/sim-harness.js';
import { MINUTE, startSim, value } from '../e2e/sim-harness.js';
import { StreamSocket } from '../e2e/stream-socket.js';

/**
 * The periodic drop fault `wsDropEveryMs: {min, max}`: every user-stream socket is cut (no close frame)
 * after a lifetime drawn uniformly in [min, max] of virtual time, from a PRNG seeded by the simulator's
 * seed. Changing the setting at run time (admin endpoint or FaultState) arms or disarms the sockets
 * already open. A whole simulator (SimulatedExchange) over loopback, on a virtual clock.
 */
type Range = NonNullable<FaultSettings['wsDropEveryMs']>;

let s: RunningSim;
const sockets: StreamSocket[] = [];

async function start(seed?: number): Promise<RunningSim> {
  // One-minute market ticks: stepping virtual time a millisecond at a time stays cheap.
  return startSim({ tickMs: MINUTE, warmupMs: MINUTE, ...(seed === undefined ? {} : { seed }) });
}

beforeEach(async () => {
  s = await start();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await s.stop();
});

/** Opens one more user-stream socket on the trader's listen key (the same key for every socket). */
async function openSocket(sim: RunningSim = s): Promise<StreamSocket> {
  const listenKey = value(await sim.client('trader').userStream.createListenKey());
  const socket = await StreamSocket.open(sim.sim.address.streamUrl, listenKey);
  sockets.push(socket);
  return socket;
}

/** A sample of the simulator's metrics registry (the one /metrics serves), 0 when absent. */
async function metric(sim: RunningSim, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const found = sim.sim.http.registry.getSingleMetric(name);
  if (found === undefined) return 0;
  const { values } = await found.get();
  return values.find((v) => Object.entries(labels).every(([k, label]) => v.labels[k] === label))?.value ?? 0;
}

const drops = (sim: RunningSim = s): Promise<number> => metric(sim, FAULTS_INJECTED_TOTAL, { kind: 'ws_drop' });
const openSockets = (sim: RunningSim = s): Promise<number> => metric(sim, 'stratd_sim_user_stream_connections');

/** A ping answered by a pong: the socket is open (a cut socket would never answer). */
async function assertOpen(socket: StreamSocket): Promise<void> {
  await socket.ping();
}

/**
 * Moves virtual time a millisecond at a time until `count` sockets were cut or `untilMs` passed;
 * answers when each cut happened, in ms after `from`.
 */
async function cutTimes(sim: RunningSim, from: number, untilMs: number, count: number): Promise<number[]> {
  const times: number[] = [];
  let seen = await drops(sim);
  while (times.length < count && sim.clock.now() - from < untilMs) {
    sim.clock.advanceBy(1);
    const now = await drops(sim);
    for (; seen < now; seen++) times.push(sim.clock.now() - from);
  }
  return times;
}

/** Opens `count` sockets at one virtual instant under `range`, then measures their lifetimes (sorted). */
async function lifetimes(sim: RunningSim, range: Range, count: number): Promise<number[]> {
  await setFaults(sim, { wsDropEveryMs: range });
  const opened: StreamSocket[] = [];
  for (let i = 0; i < count; i++) opened.push(await openSocket(sim));
  const from = sim.clock.now();
  const times = await cutTimes(sim, from, range.max + 1000, count);
  for (const socket of opened) expect((await socket.closed).code).toBe(1006);
  return times;
}

describe('user stream: the periodic drop fault (wsDropEveryMs)', () => {
  it('cuts a socket when its lifetime ends, not a millisecond before; the client sees the cut and the counter grows', async () => {
    await setFaults(s, { wsDropEveryMs: { min: 3000, max: 3000 } });
    const socket = await openSocket();
    expect(await openSockets()).toBe(1);

    s.clock.advanceBy(2999);
    await assertOpen(socket);
    expect(await drops()).toBe(0);
    expect(await openSockets()).toBe(1);

    s.clock.advanceBy(1);
    // Cut without a close frame: the client sees an abnormal closure.
    expect(await socket.closed).toEqual({ code: 1006, reason: '' });
    expect(await drops()).toBe(1);
    expect(await metric(s, 'stratd_sim_user_stream_connections_closed_total', { reason: 'fault_drop' })).toBe(1);
    expect(await openSockets()).toBe(0);
    const text = await (await fetch(`${s.sim.address.baseUrl}/metrics`)).text();
    expect(text).toContain('stratd_sim_faults_injected_total{kind="ws_drop"} 1');

    // The listen key lives on: a new socket connects, and gets its own lifetime.
    const again = await openSocket();
    s.clock.advanceBy(2999);
    await assertOpen(again);
    s.clock.advanceBy(1);
    expect((await again.closed).code).toBe(1006);
    expect(await drops()).toBe(2);
  });

  it('each socket lives a drawn time inside [min, max]: none is cut before min, all are cut by max', async () => {
    const range = { min: 1000, max: 1400 };
    const times = await lifetimes(s, range, 5);
    expect(times).toHaveLength(5);
    for (const t of times) {
      expect(t).toBeGreaterThanOrEqual(range.min);
      expect(t).toBeLessThanOrEqual(range.max);
    }
    // Drawn, not fixed: the sockets do not all die together.
    expect(new Set(times).size).toBeGreaterThan(1);
    expect(await openSockets()).toBe(0);
  });

  it('the same seed draws the same lifetimes; another seed draws others', async () => {
    const range = { min: 1000, max: 1400 };
    const first = await lifetimes(s, range, 4);
    const runWith = async (seed: number): Promise<number[]> => {
      const other = await start(seed);
      try {
        return await lifetimes(other, range, 4);
      } finally {
        await other.stop();
      }
    };
    expect(await runWith(s.config.seed)).toEqual(first);
    expect(await runWith(s.config.seed + 1)).not.toEqual(first);
  });

  it('turned on at run time through the admin endpoint: a socket already open is armed from that moment', async () => {
    const socket = await openSocket();
    s.clock.advanceBy(10_000);
    await assertOpen(socket);
    expect(await drops()).toBe(0);

    await setFaults(s, { wsDropEveryMs: { min: 3000, max: 3000 } });
    s.clock.advanceBy(2999);
    await assertOpen(socket);
    expect(await drops()).toBe(0);
    s.clock.advanceBy(1);
    expect((await socket.closed).code).toBe(1006);
    expect(await drops()).toBe(1);
  });

  it('turned on at run time through FaultState: every open socket gets a lifetime inside the range', async () => {
    const open = [await openSocket(), await openSocket(), await openSocket()];
    s.clock.advanceBy(5000);
    expect(s.sim.http.faults.update({ wsDropEveryMs: { min: 1000, max: 1400 } }).ok).toBe(true);
    const times = await cutTimes(s, s.clock.now(), 2000, 3);
    expect(times).toHaveLength(3);
    for (const t of times) expect(t >= 1000 && t <= 1400).toBe(true);
    for (const socket of open) expect((await socket.closed).code).toBe(1006);
  });

  it('turned off (null) at run time: armed sockets are disarmed and stay open past max; turned on again, they are re-armed', async () => {
    await setFaults(s, { wsDropEveryMs: { min: 2000, max: 3000 } });
    const [a, b] = [await openSocket(), await openSocket()];
    s.clock.advanceBy(1000);
    await setFaults(s, { wsDropEveryMs: null });

    // Well past max, with heartbeats inside the 60 s idle rule: nobody is cut.
    for (let i = 0; i < 5; i++) {
      s.clock.advanceBy(2000);
      await assertOpen(a);
      await assertOpen(b);
    }
    expect(await drops()).toBe(0);
    expect(await openSockets()).toBe(2);

    // Another fault change while off arms nothing.
    await setFaults(s, { streamDuplicateRate: 0 });
    s.clock.advanceBy(5000);
    await assertOpen(a);
    expect(await drops()).toBe(0);

    // On again (in process this time): both get fresh lifetimes from now.
    expect(s.sim.http.faults.update({ wsDropEveryMs: { min: 2000, max: 3000 } }).ok).toBe(true);
    s.clock.advanceBy(1999);
    await assertOpen(a);
    await assertOpen(b);
    s.clock.advanceBy(1001);
    expect((await a.closed).code).toBe(1006);
    expect((await b.closed).code).toBe(1006);
    expect(await drops()).toBe(2);
  });

  it('off (the default): sockets are never cut', async () => {
    const socket = await openSocket();
    for (let i = 0; i < 3; i++) {
      s.clock.advanceBy(50_000);
      await assertOpen(socket);
    }
    expect(await drops()).toBe(0);
    expect(await openSockets()).toBe(1);
  });
});
