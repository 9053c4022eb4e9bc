import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { DaemonStatus } from '../../../src/app/control/status.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Environment } from '../../../src/settings/secrets.js';
import type { Intent } from '../../../src/model/intents.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { setFaults } from '../../venue/port/admin-faults.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { jsonOf, stratd } from './control-cli.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * A running daemon (live mode against the simulator over loopback) seen from outside: /healthz,
 * /readyz, /status, /metrics, and the control commands `stratd status|halt|resume|strategies`.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let d: Daemon;
let probe: Probe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-control-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  probe = new Probe('probe', [BTC]);
  d = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'))), clock, [probe.instance()], liveEnv(s));
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  await setFaults(s, { wsDropRate: 0 });
  await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function restingBuy(key: string): Intent {
  const mid: Decimal = d.kernel.cache.midPrice(BTC) ?? dec(0);
  return { type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95').toDecimalPlaces(1), quantity: dec(1) };
}

/** The token the daemon wrote into its state directory at start. */
function token(): string {
  return readFileSync(join(dir, 'state', 'control.token'), 'utf8').trim();
}

/** The control commands with the daemon's token in the environment. */
function withToken(): Environment {
  return { STRATD_HEALTH_TOKEN: token() };
}

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const reply = await fetch(`${d.health.url}${path}`, { headers: { authorization: `Bearer ${token()}` } });
  return { status: reply.status, body: await reply.json() };
}

describe('health endpoints of a running daemon', () => {
  it('/healthz and /readyz answer 200; /readyz answers 503 with the reason while the user stream is down, 200 again once it is back', async () => {
    expect(await get('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ok' } });

    await setFaults(s, { wsDropRate: 1 });
    probe.emit(restingBuy('drop'));
    await waitFor(() => !d.readiness().healthy, 'the stream drop');
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unhealthy', reasons: [expect.stringMatching(/^user stream USDT (backoff|connecting)$/)] });
    // Liveness is not readiness: a reconnecting daemon is alive.
    expect((await get('/healthz')).status).toBe(200);

    await setFaults(s, { wsDropRate: 0 });
    await runUntil(clock, () => d.readiness().healthy, 'the stream back and reconciled');
    expect((await get('/readyz')).status).toBe(200);
    expect(d.status().components.userStreams).toEqual([expect.objectContaining({ category: 'USDT', state: 'open', reconnects: 1, epoch: 2 })]);
    expect(d.status().lastErrors['user-stream:USDT']).toEqual({ message: expect.any(String), at: expect.any(Number) });
  });

  it('/status: strategies, positions, open orders, PnL today, kill switch, components and last errors', async () => {
    probe.emit(restingBuy('rest-1'));
    const id = probe.clientOrderId('rest-1');
    await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'NEW', 'the resting order');
    probe.emit({ type: 'place', key: 'mkt', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(2) });
    await runUntil(clock, () => d.kernel.cache.positions().some((p) => p.symbol === BTC && p.qty.eq(2)), 'the position');

    const { status, body } = await get('/status');
    expect(status).toBe(200);
    const st = body as DaemonStatus;
    expect(st).toMatchObject({ mode: 'live', state: 'running', ready: { ready: true, reasons: [] }, killSwitch: { engaged: false, reason: '' }, reload: null });
    expect(st.pnlToday).toMatch(/^-?\d+(\.\d+)?$/);
    expect(st.strategies).toEqual([
      {
        id: 'probe',
        state: 'running',
        symbols: [BTC],
        queued: 0,
        delivered: expect.any(Number),
        params: {},
        limits: {},
        // The trade log's tally since the daily reset: the market order's fills, opening (no realized PnL yet).
        today: { fills: expect.any(Number), realizedPnl: '0', fees: expect.stringMatching(/^\d+(\.\d+)? USDT$/) },
      },
    ]);
    expect(st.strategies[0]?.today?.fills).toBeGreaterThan(0);
    expect(st.balances).toEqual([expect.objectContaining({ asset: 'USDT', walletBalance: expect.stringMatching(/^\d+(\.\d+)?$/) })]);
    expect(st.positions).toEqual([expect.objectContaining({ symbol: BTC, side: 'LONG', qty: '2' })]);
    expect(st.openOrders).toEqual([expect.objectContaining({ strategy: 'probe', symbol: BTC, clientOrderId: id, side: 'BUY', type: 'LIMIT', quantity: '1', status: 'NEW' })]);
    expect(st.openAlgoOrders).toEqual([]);
    expect(st.components.reconciliation).toMatchObject({ ok: true });
    expect(st.components.userStreams).toEqual([expect.objectContaining({ category: 'USDT', state: 'open', reconnects: 0, epoch: 1 })]);
    expect(st.components.clock).toMatchObject({ synced: true });
    expect(st.components.rateBudget).toMatchObject({ banned: false });
    // The harness's channels ride the public market socket (via: ws, the default), not polled while it delivers.
    expect(st.components.market.socket).toMatchObject({ state: 'open', errorFrames: 0 });
    expect(st.components.market.channels).toContainEqual(expect.objectContaining({ key: `${BTC}/bookTicker`, via: 'ws', source: 'ws' }));
    expect(Object.keys(st.components.jobs).sort()).toEqual(['dailyReset', 'exchangeInfoRefresh', 'listenKeyKeepalive', 'reconcile']);
    // The exchange's answer to the daemon's own orders agrees with /status.
    expect(value(await s.client('trader', { recvWindowMs: 60_000 }).ordersV2.openOrders({})).map((o) => o.clientOrderId)).toEqual([id]);
  });

  it('/metrics: events by source, bus lag, handler time, intents, commands, REST latency, rate budget, reconnects, jobs, event loop, heap', async () => {
    probe.emit(restingBuy('m-1'));
    await runUntil(clock, () => d.kernel.cache.order(probe.clientOrderId('m-1'))?.status === 'NEW', 'the order');
    expect((await d.runJob('reconcile')).status).toBe('ok');
    const metrics = await scrape(d.health.url);
    const names = new Set(metrics.map((m) => m.name));
    for (const name of [
      'stratd_bus_lag_seconds_bucket',
      'stratd_nodejs_eventloop_lag_seconds',
      'stratd_nodejs_heap_size_used_bytes',
      'stratd_rate_queued_requests',
      'stratd_clock_offset_seconds',
      'stratd_intents_total',
    ]) {
      expect(names).toContain(name);
    }
    expect(sample(metrics, 'stratd_events_total', { source: 'market' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_events_total', { source: 'stream' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_events_total', { source: 'rest' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_events_total', { source: 'job' })).toBe(1);
    expect(sample(metrics, 'stratd_bus_lag_seconds_count', { source: 'market' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_strategy_handler_seconds_count', { strategy: 'probe' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_intents_total', { strategy: 'probe', outcome: 'approved' })).toBe(1);
    expect(sample(metrics, 'stratd_commands_total', { command: 'place-order', outcome: 'submitted', code: '' })).toBe(1);
    expect(sample(metrics, 'stratd_rest_request_seconds_count', { endpoint: 'POST /api/v2/futures/order', status: '2xx' })).toBe(1);
    expect(sample(metrics, 'stratd_rest_request_seconds_count', { endpoint: 'GET /api/v1/time', status: '2xx' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_rate_budget_used', { budget: 'weight' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_rate_budget_limit', { budget: 'orders' })).toBeGreaterThan(0);
    expect(sample(metrics, 'stratd_user_stream_reconnects_total', { category: 'USDT' })).toBe(0);
    expect(sample(metrics, 'stratd_user_stream_connected', { category: 'USDT' })).toBe(1);
    expect(sample(metrics, 'stratd_job_runs_total', { job: 'reconcile' })).toBe(1);
    expect(sample(metrics, 'stratd_job_failures_total', { job: 'reconcile' })).toBe(0);
    expect(sample(metrics, 'stratd_market_channel_on_socket', { symbol: BTC, channel: 'bookTicker' })).toBe(1);
    expect(sample(metrics, 'stratd_market_polls_total', { symbol: BTC, channel: 'bookTicker' })).toBe(0);
    expect(sample(metrics, 'stratd_clock_synced', {})).toBe(1);
    expect(sample(metrics, 'stratd_ready', {})).toBe(1);
    expect(sample(metrics, 'stratd_kill_switch_engaged', {})).toBe(0);
  });
});

describe('control commands against the running daemon', () => {
  it('stratd halt cancels everything on the exchange and denies opening orders; stratd resume lets them through', async () => {
    probe.emit(restingBuy('h-1'));
    await runUntil(clock, () => d.kernel.cache.openOrders().length === 1, 'the resting order');

    const halted = await stratd(['halt', '--reason', 'maintenance window', '--url', d.health.url], withToken());
    expect(halted).toMatchObject({ code: 0, stderr: '' });
    expect(jsonOf(halted)).toEqual({ killSwitch: { engaged: true, reason: 'maintenance window', since: clock.now() } });
    await runUntil(clock, () => d.kernel.cache.openOrders().length === 0, 'the order cancelled');
    expect(value(await s.client('trader', { recvWindowMs: 60_000 }).ordersV2.openOrders({}))).toEqual([]);
    probe.emit(restingBuy('h-2'));
    expect(probe.of('intent.denied').map((e) => e.denial.code)).toEqual(['KILL_SWITCH']);
    const shown = await stratd(['status', '--url', d.health.url], withToken());
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('kill switch ENGAGED');
    expect(shown.stdout).toContain('maintenance window');

    const resumed = await stratd(['resume', '--url', d.health.url], withToken());
    expect(jsonOf(resumed)).toEqual({ killSwitch: { engaged: false, reason: 'reset by hand' } });
    probe.emit(restingBuy('h-3'));
    await runUntil(clock, () => d.kernel.cache.order(probe.clientOrderId('h-3'))?.status === 'NEW', 'the order after resume');
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);
  });

  it('stratd strategies stop|start NAME; an unknown name is an error', async () => {
    const stopped = await stratd(['strategies', 'stop', 'probe', '--url', d.health.url], withToken());
    expect(jsonOf(stopped)).toEqual({ strategy: { id: 'probe', state: 'stopped' } });
    expect(d.kernel.strategies.state('probe')).toBe('stopped');
    expect(d.status().strategies[0]?.state).toBe('stopped');
    const started = await stratd(['strategies', '--url', d.health.url, 'start', 'probe'], withToken());
    expect(jsonOf(started)).toEqual({ strategy: { id: 'probe', state: 'running' } });
    expect(d.kernel.strategies.state('probe')).toBe('running');

    const unknown = await stratd(['strategies', 'stop', 'nobody', '--url', d.health.url], withToken());
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'stratd strategies stop: no strategy nobody\n' });
  });

  it('stratd status: a summary, --json the whole status; the address from --config; an unreachable daemon is exit 1', async () => {
    const summary = await stratd(['status', '--url', d.health.url], withToken());
    expect(summary.code).toBe(0);
    expect(summary.stdout.split('\n')[0]).toMatch(/^stratd live · running · ready · up /);
    expect(summary.stdout).toContain('  probe  running  BTC-SWAP-USDT');
    expect(summary.stdout).toContain('user streams: USDT open (reconnects 0)');

    const port = new URL(d.health.url).port;
    const file = writeConfig(dir, 'ops.yml', liveYaml(join(dir, 'state'), { healthPort: Number(port) }));
    const json = await stratd(['status', '--json', '--config', file]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(jsonOf(json)).toMatchObject({ mode: 'live', state: 'running', strategies: [{ id: 'probe' }] });

    const anyPort = await stratd(['status', '--config', writeConfig(dir, 'any.yml', liveYaml(join(dir, 'state')))]);
    expect(anyPort.code).toBe(2);
    expect(anyPort.stderr).toContain('health.port');

    const down = await stratd(['status', '--url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^stratd status: cannot reach the daemon at http:\/\/127\.0\.0\.1:9/);
    expect((await stratd(['halt', '--url', 'ftp://127.0.0.1'])).code).toBe(2);
  });
});
