import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dec } from '../../../src/core/decimal.js';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { SignalRecord } from '../../../src/app/signals/index.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSignal } from '../../../src/app/signals/index.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim } from '../../sim/e2e/sim-harness.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from '../daemon/daemon-harness.js';
import { ioPause, runUntil } from '../daemon/virtual-steps.js';

/**
 * POST /signals of a running daemon (live mode against the simulator over loopback): a signed signal
 * reaches the exchange as an order of the `signal` strategy, through the risk engine; an unsigned, a
 * wrongly signed and a replayed (stale) one are refused; a repeated idempotency key is answered with
 * the first answer and places nothing more; a dry run is risk-checked and not sent.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let d: Daemon;

const SIGNAL_YAML = `strategies:
  - id: tv
    module: signal
    symbols: [${BTC}]
    params: { quantity: 2 }
    risk: { maxPosition: 5 }
signals: { replayWindow: 60s, allowToken: true }
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-signals-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  d = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')) + SIGNAL_YAML), clock, [], liveEnv(s));
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterAll(async () => {
  await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function secret(): string {
  return readFileSync(join(dir, 'state', 'signal.secret'), 'utf8').trim();
}

interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

/** Posts while virtual time runs (the endpoint waits for the order's fate on the daemon's scheduler). */
async function post(body: string, headers: Record<string, string>, query = ''): Promise<Reply> {
  let reply: Reply | undefined;
  const sent = fetch(`${d.health.url}/signals${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
    .then(async (r) => {
      reply = { status: r.status, body: (await r.json()) as Record<string, unknown>, headers: r.headers };
    });
  await runUntil(clock, () => reply !== undefined, 'the signal answer', { stepMs: 50 });
  await sent;
  if (reply === undefined) throw new Error('no answer');
  return reply;
}

function signed(body: string, timestamp = clock.now(), key = secret()): Record<string, string> {
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signSignal(key, String(timestamp), body) };
}

function longQty(): string {
  return d.kernel.cache.position(BTC, 'LONG')?.qty.toFixed() ?? '0';
}

describe('external signals over loopback', () => {
  it('keeps its secret like the control token: a private file of the state directory', () => {
    expect(statSync(join(dir, 'state', 'signal.secret')).mode & 0o077).toBe(0);
    expect(secret()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a signed buy places a market order of the signal strategy through risk, and the position opens', async () => {
    const body = JSON.stringify({ id: 'alert-1', strategy: 'tv', symbol: BTC, action: 'buy' });
    const reply = await post(body, signed(body));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: 'alert-1', strategy: 'tv', outcome: 'placed', dryRun: false, orders: [{ state: 'submitted', side: 'BUY', positionSide: 'LONG', orderType: 'MARKET' }] });
    const [order] = reply.body['orders'] as Array<{ clientOrderId: string }>;
    expect(d.kernel.executor.ownerOf(order?.clientOrderId ?? '')).toBe('tv');
    await runUntil(clock, () => longQty() === '2', 'the long position');
  });

  it('the same idempotency key again is answered with the first answer and places nothing', async () => {
    const body = JSON.stringify({ id: 'alert-1', strategy: 'tv', symbol: BTC, action: 'buy' });
    const reply = await post(body, signed(body));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('idempotent-replay')).toBe('true');
    expect(reply.body).toMatchObject({ id: 'alert-1', outcome: 'placed' });
    await ioPause(20);
    expect(longQty()).toBe('2');
  });

  it('refuses an unsigned signal, a wrong signature and a replayed (stale) one: nothing is placed', async () => {
    const body = JSON.stringify({ id: 'alert-2', strategy: 'tv', symbol: BTC, action: 'buy' });
    const unsigned = await post(body, {});
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toMatchObject({ code: 'UNSIGNED' });
    const forged = await post(body, signed(body, clock.now(), 'not-the-secret-at-all-0123456789'));
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ code: 'BAD_SIGNATURE' });
    // Captured and sent again two minutes later: correctly signed, but outside the 60 s window.
    const old = signed(body, clock.now() - 120_000);
    const replayed = await post(body, old);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ code: 'STALE' });
    // A signature over another body does not carry over.
    const other = JSON.stringify({ id: 'alert-2', strategy: 'tv', symbol: BTC, action: 'sell' });
    const swapped = await post(other, signed(body));
    expect(swapped.status).toBe(401);
    await ioPause(20);
    expect(longQty()).toBe('2');
    expect(journaled().map((r) => r.key)).not.toContain('alert-2');
  });

  it('a signal the risk engine denies is answered 422 with the denial, and journaled', async () => {
    const body = JSON.stringify({ id: 'alert-3', strategy: 'tv', symbol: BTC, action: 'buy', quantity: 10 });
    const reply = await post(body, signed(body));
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ outcome: 'denied', orders: [{ state: 'denied', code: expect.any(String) }] });
    expect(longQty()).toBe('2');
    expect(journaled().find((r) => r.key === 'alert-3')).toMatchObject({ strategy: 'tv', mode: 'signature', answer: { status: 422 } });
  });

  it('a dry run is risk-checked and not sent', async () => {
    const body = JSON.stringify({ id: 'alert-4', strategy: 'tv', symbol: BTC, action: 'sell', dryRun: true });
    const reply = await post(body, signed(body));
    expect(reply.status).toBe(200);
    // closeOpposite: the long is closed first, then the short opens.
    expect(reply.body).toMatchObject({
      outcome: 'dry-run',
      dryRun: true,
      orders: [
        { state: 'approved', side: 'SELL', positionSide: 'LONG', closePosition: true },
        { state: 'approved', side: 'SELL', positionSide: 'SHORT', quantity: '2' },
      ],
    });
    await ioPause(20);
    expect(longQty()).toBe('2');
    expect(d.kernel.cache.position(BTC, 'SHORT')?.qty.toFixed() ?? '0').toBe('0');
  });

  it('TradingView style: the token in the body (allowed here), an ISO {{timenow}} and marketPosition flat close the long', async () => {
    const iso = new Date(clock.now()).toISOString();
    const body = JSON.stringify({ id: 'tv-exit-1', strategy: 'tv', symbol: BTC, action: 'SELL', marketPosition: 'flat', timestamp: iso, token: secret() });
    const reply = await post(body, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ outcome: 'placed', orders: [{ state: 'submitted', side: 'SELL', positionSide: 'LONG' }] });
    await runUntil(clock, () => longQty() === '0', 'the long closed');
    // The token is never journaled.
    expect(JSON.stringify(journaled())).not.toContain(secret());
    // A token signal without a timestamp, or with a stale one, is refused.
    const stale = JSON.stringify({ id: 'tv-exit-2', strategy: 'tv', symbol: BTC, action: 'buy', timestamp: clock.now() - 300_000, token: secret() });
    expect((await post(stale, {})).body).toMatchObject({ code: 'STALE' });
    const wrong = JSON.stringify({ id: 'tv-exit-3', strategy: 'tv', symbol: BTC, action: 'buy', timestamp: clock.now() });
    expect((await post(wrong, {}, '?token=wrong')).status).toBe(401);
  });

  it('acts on the signal strategy\'s own ledger: a manual long on the symbol is neither closed nor dry-run closed', async () => {
    expect(longQty()).toBe('0');
    s.sim.engine.placeOrder({ userId: '879141111', category: 'USDT' }, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC', quantity: dec(3), clientOrderId: 'manual-signal-1', generation: 'v2' });
    await runUntil(clock, () => longQty() === '3', 'the manual long seen by the daemon');
    expect(d.kernel.ledgers.position('tv', BTC, 'LONG')?.qty.toFixed() ?? '0').toBe('0');
    const dry = JSON.stringify({ id: 'own-1', strategy: 'tv', symbol: BTC, action: 'close', dryRun: true });
    expect((await post(dry, signed(dry))).body).toMatchObject({ outcome: 'dry-run', dryRun: true, orders: [] });
    const close = JSON.stringify({ id: 'own-2', strategy: 'tv', symbol: BTC, action: 'sell', marketPosition: 'flat' });
    expect((await post(close, signed(close))).body).toMatchObject({ outcome: 'nothing', orders: [] });
    await ioPause(20);
    expect(longQty()).toBe('3');
    // The person closes their long again (the tests after this one start flat).
    s.sim.engine.placeOrder({ userId: '879141111', category: 'USDT' }, { symbol: BTC, side: 'SELL', positionSide: 'LONG', type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC', quantity: dec(3), clientOrderId: 'manual-signal-2', generation: 'v2' });
    await runUntil(clock, () => longQty() === '0', 'the manual long closed');
  });

  it('answers a bad body with the field at fault, and an unknown strategy with 404', async () => {
    const bad = JSON.stringify({ id: 'x-1', strategy: 'tv', symbol: BTC, action: 'hold' });
    const invalid = await post(bad, signed(bad));
    expect(invalid.status).toBe(400);
    expect(String(invalid.body['error'])).toMatch(/^action: /);
    const unknown = JSON.stringify({ id: 'x-2', strategy: 'nobody', symbol: BTC, action: 'buy' });
    expect((await post(unknown, signed(unknown))).status).toBe(404);
  });

  it('a stopped signal strategy answers 503 and does not journal the key, so the sender may send it again', async () => {
    await d.stopStrategy('tv');
    const body = JSON.stringify({ id: 'alert-5', strategy: 'tv', symbol: BTC, action: 'buy' });
    const refused = await post(body, signed(body));
    expect(refused.status).toBe(503);
    expect(journaled().map((r) => r.key)).not.toContain('alert-5');
    await d.startStrategy('tv');
    const again = await post(body, signed(body));
    expect(again.body).toMatchObject({ outcome: 'placed' });
    await runUntil(clock, () => longQty() === '2', 'the long position');
  });
});

function journaled(): readonly SignalRecord[] {
  return d.signals();
}
