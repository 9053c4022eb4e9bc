import { createHmac } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What any order path on this machine has to pay: percentiles in microseconds. */
export interface BareFloor {
  readonly samples: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

const SECRET = 'bench-floor-secret-0123456789abcdef0123456789abcdef';
const REPLY = JSON.stringify({ orderId: '1946223373930131968', clientOrderId: 'tick-floor', status: 'NEW' });

/**
 * The floor of tick-to-order: a bare `http.request` of a signed v1 order (HMAC-SHA256 over its form body,
 * as the exchange wants it) over a kept-alive loopback socket to a server that answers a canned reply.
 * Each sample runs from the start of signing to the request written to the socket (`end`'s callback), the
 * span the daemon's own `stratd_tick_to_order_seconds` ends with; the reply is awaited before the next.
 */
export async function bareHttpFloor(samples = 2000, warmUp = 300): Promise<BareFloor> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(REPLY) }).end(REPLY));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const spans: number[] = [];
  try {
    for (let i = 0; i < warmUp + samples; i++) {
      const started = process.hrtime.bigint();
      const form = `symbol=BTC-SWAP-USDT&side=BUY_OPEN&type=LIMIT&quantity=1&price=95000.1&newClientOrderId=tick-${i}&timestamp=${1_767_225_600_000 + i}&recvWindow=5000`;
      const body = `${form}&signature=${createHmac('sha256', SECRET).update(form).digest('hex')}`;
      const written = await new Promise<bigint>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, method: 'POST', path: '/api/v1/futures/order', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), 'X-BB-APIKEY': 'bench' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(at));
          },
        );
        let at = 0n;
        req.on('error', reject);
        req.end(body, () => {
          at = process.hrtime.bigint();
        });
      });
      if (i >= warmUp) spans.push(Number(written - started) / 1000);
    }
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  spans.sort((a, b) => a - b);
  const at = (q: number): number => Math.round(spans[Math.min(spans.length - 1, Math.floor(q * spans.length))] ?? 0);
  return { samples: spans.length, p50Us: at(0.5), p99Us: at(0.99) };
}
