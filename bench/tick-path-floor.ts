import { Agent, request } from 'node:http';
import { sleep } from '../src/core/clock.js';
import { systemTime } from '../src/core/system-time.js';
import type { FloorFigures, SignedOrder } from './tick-floor.js';
import { childServer, ORDER_REPLY, percentiles, signedOrder } from './tick-floor.js';

const BOOK_TICKER_PATH = '/quote/v1/contract/ticker/bookTicker';

/**
 * The floor of exactly the tick-to-order path on this machine: a bare client doing what stratd does
 * between a poll reply's arrival and its order's write. It polls the same server (`stratd sim`) for the
 * same book ticker at the same pace (one poll per `paceMs`, the next one `paceMs` after the last one
 * started, as a poll channel does), and on each reply: the status line and headers in (node:http's
 * 'response': the arrival, as stratd stamps it), the body read, `JSON.parse`, the bid read, then a
 * signed LIMIT order of the bench's size (HMAC-SHA256) written on a kept-alive socket to the canned-reply
 * server's child process at `serverNice` ('finish': written, as tick-floor.ts's floors stamp it).
 * Returns p50/p99 of arrival → written in µs.
 */
export async function measurePathFloor(baseUrl: string, symbol: string, options: { readonly samples: number; readonly warmUp: number; readonly paceMs: number; readonly serverNice: number }): Promise<FloorFigures> {
  const orders = await childServer(ORDER_REPLY, options.serverNice);
  const pollAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const orderAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pollUrl = `${baseUrl}${BOOK_TICKER_PATH}?symbol=${encodeURIComponent(symbol)}`;
  try {
    const samples: number[] = [];
    for (let i = 0; i < options.warmUp + options.samples; i++) {
      const startedAt = performance.now();
      const us = await pollThenOrder(pollUrl, pollAgent, orderAgent, orders.port, symbol, i);
      if (i >= options.warmUp) samples.push(us);
      await sleep(systemTime.scheduler, Math.max(0, options.paceMs - (performance.now() - startedAt)));
    }
    return percentiles(samples);
  } finally {
    pollAgent.destroy();
    orderAgent.destroy();
    await orders.stop();
  }
}

/** One poll and its order: µs from the poll reply's head to the order's 'finish'; resolves once the order's reply was read. */
function pollThenOrder(pollUrl: string, pollAgent: Agent, orderAgent: Agent, orderPort: number, symbol: string, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const poll = request(pollUrl, { agent: pollAgent, headers: { accept: 'application/json' } }, (res) => {
      const arrivedAt = performance.now();
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const order = signedOrder(orderPort, n, bidBelow(JSON.parse(text) as unknown, symbol));
          send(order, orderAgent, (writtenAt) => resolve((writtenAt - arrivedAt) * 1000), reject);
        } catch (error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    poll.once('error', reject);
    poll.end();
  });
}

/** The row's bid, 1 % lower, as the bench strategy prices its order (a wrong reply is an error: the floor measures the answered path). */
function bidBelow(reply: unknown, symbol: string): string {
  const rows: unknown = Array.isArray(reply) ? reply : undefined;
  const row = (rows as ReadonlyArray<{ readonly s?: unknown; readonly b?: unknown }> | undefined)?.find((r) => r.s === symbol);
  if (typeof row?.b !== 'string') throw new Error(`no book ticker row for ${symbol} in the poll reply`);
  return (Number(row.b) * 0.99).toFixed(1);
}

/** Writes the order; `written` at its 'finish', called once its reply was read (the socket is free again). */
function send(order: SignedOrder, agent: Agent, written: (at: number) => void, reject: (error: Error) => void): void {
  let writtenAt = 0;
  const req = request(order.url, { method: 'POST', agent, headers: { ...order.headers, 'content-length': String(Buffer.byteLength(order.body)) } }, (res) => {
    res.resume();
    res.on('end', () => written(writtenAt));
  });
  req.once('finish', () => (writtenAt = performance.now()));
  req.once('error', reject);
  req.end(order.body);
}
