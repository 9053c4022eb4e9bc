import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { BTC, BTC_USDC, T0, value } from '../../sim/e2e/sim-harness.js';
import { cacheView, expectViewsAgree } from './account-views.js';
import { defaultYaml, embeddedTrader, paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * The assembled daemon in paper mode (config/default.yml's shape: the embedded simulator on loopback),
 * in virtual time: a strategy's intents travel through the risk engine and the executor to the
 * exchange, fills come back over the user stream, and the cache, the exchange and /metrics agree.
 */
let dir: string;
let clock: VirtualClock;
let daemon: Daemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-paper-'));
  clock = new VirtualClock(T0);
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('the paper daemon end to end', () => {
  it('a strategy order fills: kernel cache, exchange and /metrics agree; /healthz answers 200', async () => {
    const probe = new Probe('probe', [BTC]);
    daemon = await startDaemon(writeConfig(dir, 'paper.yml', paperYaml(join(dir, 'state'))), clock, [probe.instance()]);
    const d = daemon;
    expect(d.venue.sim).toBeDefined();
    expect(d.health.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(d.kernel.state).toBe('running');
    // The feed's start-up snapshot: the risk engine has a mark price before the first book reaches a strategy.
    expect(d.kernel.cache.markPrice(BTC)).toBeDefined();

    await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
    const mid = d.kernel.cache.midPrice(BTC) ?? dec(0);
    probe.emit({ type: 'place', key: 'rt-market', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(2) });
    probe.emit({ type: 'place', key: 'rt-rest', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.97'), quantity: dec(1) });
    const marketId = probe.clientOrderId('rt-market');
    const restId = probe.clientOrderId('rt-rest');

    const cache = d.kernel.cache;
    await runUntil(
      clock,
      () => cache.order(marketId)?.status === 'FILLED' && cache.order(restId)?.status === 'NEW' && (cache.position(BTC, 'LONG')?.qty.eq(2) ?? false),
      'the fill and the resting order in the cache',
    );
    // Back to the strategy as events: accepted, filled.
    expect(probe.of('command.submitted').map((e) => (e.command.type === 'place-order' ? e.command.clientOrderId : e.command.type)).sort()).toEqual([marketId, restId].sort());
    expect(probe.of('intent.denied')).toEqual([]);
    await runUntil(clock, () => probe.filled(marketId) === '2', 'the fills at the strategy');

    // The exchange agrees with the cache.
    const client = embeddedTrader(d, clock);
    const onExchange = value(await client.ordersV2.getOrder({ origClientOrderId: marketId }));
    expect(onExchange).toMatchObject({ symbol: BTC, status: 'FILLED', side: 'BUY', positionSide: 'LONG' });
    expect(onExchange.executedQty.toFixed()).toBe('2');
    await expectViewsAgree(d, client);
    expect(cacheView(d).orders.map((o) => o.clientOrderId)).toEqual([restId]);
    expect(cacheView(d).positions).toEqual([{ symbol: BTC, positionSide: 'LONG', qty: '2' }]);

    // /metrics counts what the exchange shows: two orders, and one fill per trade of the market order.
    const trades = value(await client.ordersV2.userTrades({ symbol: BTC })).filter((t) => t.orderId === onExchange.orderId);
    expect(trades.length).toBeGreaterThan(0);
    const samples = await scrape(d.health.url);
    expect(sample(samples, 'stratd_orders_submitted_total', { strategy: 'probe', symbol: BTC })).toBe(2);
    expect(sample(samples, 'stratd_fills_total', { strategy: 'probe', symbol: BTC })).toBe(trades.length);
    expect(probe.of('account.fill').filter((e) => e.fill.clientOrderId === marketId)).toHaveLength(trades.length);

    const health = await fetch(`${d.health.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});

describe('the paper daemon with a USDC-margined symbol', () => {
  it('runs a second user stream session for USDC-M: the round trip and the views agree there too', async () => {
    const market = `  - symbol: ${BTC_USDC}\n    bookTicker: { every: 1s }\n    markPrice: { every: 1s }\n`;
    const probe = new Probe('usdc', [BTC_USDC]);
    daemon = await startDaemon(writeConfig(dir, 'usdc.yml', paperYaml(join(dir, 'state'), market)), clock, [probe.instance()]);
    const d = daemon;
    await runUntil(clock, () => d.kernel.cache.midPrice(BTC_USDC) !== undefined && d.kernel.cache.markPrice(BTC_USDC) !== undefined, 'market data');
    const mid = d.kernel.cache.midPrice(BTC_USDC) ?? dec(0);
    probe.emit({ type: 'place', key: 'u-market', symbol: BTC_USDC, side: 'SELL', orderType: 'MARKET', quantity: dec(3) });
    probe.emit({ type: 'place', key: 'u-rest', symbol: BTC_USDC, side: 'SELL', orderType: 'LIMIT', price: mid.mul('1.04'), quantity: dec(1) });
    const marketId = probe.clientOrderId('u-market');
    await runUntil(clock, () => d.kernel.cache.position(BTC_USDC, 'SHORT')?.qty.eq(3) ?? false, 'the short position');
    await runUntil(clock, () => probe.filled(marketId) === '3', 'the fills');
    const client = embeddedTrader(d, clock);
    await expectViewsAgree(d, client);
    expect(cacheView(d)).toEqual({
      orders: [expect.objectContaining({ clientOrderId: probe.clientOrderId('u-rest'), symbol: BTC_USDC, side: 'SELL', status: 'NEW' })],
      positions: [{ symbol: BTC_USDC, positionSide: 'SHORT', qty: '3' }],
    });
    expect(d.kernel.cache.balance('USDC')).toBeDefined();
  });
});

describe('config/default.yml', () => {
  it('runs its two example strategies in paper mode: both start, the quoter places orders, local and exchange orders agree', async () => {
    daemon = await startDaemon(writeConfig(dir, 'default.yml', defaultYaml(join(dir, 'state'))), clock);
    const d = daemon;
    expect(d.kernel.strategies.status().map((s) => [s.id, s.state])).toEqual([
      ['quoter-btc', 'running'],
      ['breakout-eth', 'running'],
    ]);
    // The quoter's open orders, read in the same turn as the condition that waited for them: a quote can
    // fill on the exchange at the instant it rests, its stream event arriving over real I/O afterwards.
    const quoterSides = (): string[] =>
      d.kernel.cache
        .openOrders(BTC)
        .filter((o) => d.kernel.executor.ownerOf(o.clientOrderId) === 'quoter-btc')
        .map((o) => o.side)
        .sort();
    await runUntil(clock, () => quoterSides().join() === 'BUY,SELL', 'a buy and a sell quote of quoter-btc', { stepMs: 500 });
    // Virtual time stands still: once the replies and stream events are in, the cache and the exchange show the same orders.
    const client = embeddedTrader(d, clock);
    await expectViewsAgree(d, client);
    const samples = await scrape(d.health.url);
    expect(sample(samples, 'stratd_orders_submitted_total', { strategy: 'quoter-btc', symbol: BTC })).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${d.health.url}/healthz`)).status).toBe(200);
  });
});
