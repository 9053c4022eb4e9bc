import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Registry } from 'prom-client';
import type { ConnectionLimits } from '../../src/app/control/connection-guard.js';
import { HealthServer } from '../../src/app/control/server.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { waitFor } from '../venue/stream/session-harness.js';

/**
 * Slow or idle clients cannot hold the health server's descriptors: beyond the per-address cap a new
 * connection is closed at once, beyond the total cap too, and a silent connection is closed after the
 * idle timeout. Counts are bounded; everything stays on loopback (127.0.0.2 is loopback as well).
 */
const TOKEN = 'a-test-token-of-32-characters-xx';

interface Held {
  readonly sockets: Socket[];
  closed: number;
}

/** Opens `count` silent connections from `localAddress`; counts those the server closes. */
async function hold(port: number, count: number, localAddress: string): Promise<Held> {
  const held: Held = { sockets: [], closed: 0 };
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, localAddress });
          socket.on('error', () => undefined);
          socket.once('close', () => {
            held.closed += 1;
          });
          socket.once('connect', () => resolve());
          socket.once('close', () => resolve());
          held.sockets.push(socket);
        }),
    ),
  );
  return held;
}

function release(held: Held): void {
  for (const socket of held.sockets) socket.destroy();
}

describe('HealthServer connection limits', () => {
  let server: HealthServer;
  let url = '';
  let refused: string[] = [];
  const open = (limits: Partial<ConnectionLimits>): Promise<void> => {
    refused = [];
    server = new HealthServer({
      port: 0,
      registry: new Registry(),
      logger: silentLogger,
      token: TOKEN,
      clock: new VirtualClock(0),
      status: () => ({ ok: true }),
      limits,
      events: { connectionRefused: (address) => refused.push(address) },
    });
    return server.start().then((started) => {
      if (!started.ok) throw started.error;
      url = started.value.url;
    });
  };
  afterEach(() => server.stop());

  it('beyond the per-address cap new connections are closed at once; other addresses are still served', async () => {
    await open({ maxConnectionsPerAddress: 5, maxConnections: 100 });
    const port = Number(new URL(url).port);
    const flood = await hold(port, 40, '127.0.0.2');
    await waitFor(() => flood.closed >= 35, 'the connections over the cap closed');
    expect(refused).toHaveLength(35);
    expect(refused.every((a) => a === '127.0.0.2')).toBe(true);
    // 127.0.0.1 has its own budget: the server still answers while 127.0.0.2 holds its five.
    expect((await fetch(`${url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect(flood.closed).toBe(35);
    release(flood);
  });

  it('beyond the total cap new connections are closed, whatever their address', async () => {
    await open({ maxConnections: 6, maxConnectionsPerAddress: 100 });
    const port = Number(new URL(url).port);
    const first = await hold(port, 3, '127.0.0.3');
    const second = await hold(port, 3, '127.0.0.4');
    const third = await hold(port, 4, '127.0.0.5');
    await waitFor(() => third.closed === 4, 'the connections over the total cap closed');
    expect(first.closed + second.closed).toBe(0);
    release(first);
    release(second);
    await waitFor(() => first.closed + second.closed === 6, 'the first six released');
    expect((await fetch(`${url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('a silent connection, and one that never finishes its head, are closed (idle and headers timeouts)', async () => {
    await open({ idleTimeoutMs: 300, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const port = Number(new URL(url).port);
    const silent = await hold(port, 3, '127.0.0.6');
    const slow = await hold(port, 1, '127.0.0.7');
    slow.sockets[0]?.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await waitFor(() => silent.closed === 3 && slow.closed === 1, 'the idle and slow connections closed', 10_000);
  });
});
