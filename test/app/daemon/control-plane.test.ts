import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { DaemonStatus } from '../../../src/app/control/status.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Environment } from '../../../src/settings/secrets.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim } from '../../sim/e2e/sim-harness.js';
import { jsonOf, stratd } from './control-cli.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * The control plane of a running daemon trusts no one: no token, no control (also on loopback); a
 * foreign Host is refused; a daily-loss halt outlives a plain resume, and only an override with a
 * reason lifts it, without moving the loss baseline.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let d: Daemon;
let probe: Probe;
let config: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-control-plane-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  probe = new Probe('probe', [BTC]);
  // Any loss at all trips the limit: the fee of one market order does.
  config = writeConfig(dir, 'live.yml', `${liveYaml(join(dir, 'state'))}risk: { dailyLossLimit: 0.000001 }\n`);
  d = await startDaemon(config, clock, [probe.instance()], liveEnv(s));
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function token(): string {
  return readFileSync(join(dir, 'state', 'control.token'), 'utf8').trim();
}

function withToken(): Environment {
  return { STRATD_HEALTH_TOKEN: token() };
}

/** POST /control/halt with the given Host header and token, over loopback; the status. */
function haltWith(host: string, bearer: string | undefined): Promise<number> {
  const url = new URL(d.health.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/control/halt',
        headers: { host, 'content-type': 'application/json', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the control plane of a running daemon', () => {
  it('on loopback: no token, no control (401) and no /status; the CLI without a token says where to find it', async () => {
    const host = new URL(d.health.url).host;
    expect(await haltWith(host, undefined)).toBe(401);
    expect(await haltWith(host, 'f'.repeat(64))).toBe(401);
    expect((await fetch(`${d.health.url}/status`)).status).toBe(401);
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);

    const refused = await stratd(['halt', '--url', d.health.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('control.token');
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);
    // --config names the state directory: its token goes with the request.
    const halted = await stratd(['halt', '--url', d.health.url, '--config', config]);
    expect(halted).toMatchObject({ code: 0, stderr: '' });
    expect(d.kernel.risk.killSwitch.engaged).toBe(true);
    expect(sample(await scrape(d.health.url), 'stratd_control_auth_failures_total', {})).toBe(4);
  });

  it('a Host that is not this server is refused (421), even with the token', async () => {
    const port = new URL(d.health.url).port;
    for (const host of [`attacker.example:${port}`, `rebound.example.org:${port}`, `127.0.0.1:${Number(port) + 1}`]) expect(await haltWith(host, token())).toBe(421);
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);
    expect(await haltWith(`localhost:${port}`, token())).toBe(200);
    expect(d.kernel.risk.killSwitch.engaged).toBe(true);
    expect(sample(await scrape(d.health.url), 'stratd_control_host_refusals_total', {})).toBe(3);
  });

  it('a daily-loss halt: resume is refused and the halt stays; an override with a reason lifts it for the day, logged and counted; the baseline does not move', async () => {
    probe.emit({ type: 'place', key: 'loss', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) });
    await runUntil(clock, () => d.kernel.risk.killSwitch.engaged, 'the daily loss limit');
    const loss = d.kernel.risk.dayPnl();
    expect(loss.lt(0)).toBe(true);
    expect(d.status().killSwitch).toMatchObject({ engaged: true, dailyLoss: true });

    const plain = await stratd(['resume', '--url', d.health.url], withToken());
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('until the daily reset');
    expect(d.kernel.risk.killSwitch).toMatchObject({ engaged: true, dailyLoss: true });
    const shown = await stratd(['status', '--url', d.health.url], withToken());
    expect(shown.stdout).toContain('the daily loss limit holds it until the daily reset');

    const noReason = await stratd(['resume', '--override-daily-loss', '--url', d.health.url], withToken());
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    expect(d.kernel.risk.killSwitch.engaged).toBe(true);

    const overridden = await stratd(['resume', '--override-daily-loss', '--reason', 'hedging the book by hand', '--url', d.health.url], withToken());
    expect(overridden).toMatchObject({ code: 0, stderr: '' });
    // The day's PnL moves with the mark price (market replies still arrive over real I/O while the CLI
    // runs): what holds at every instant is that it is a loss, counted from the day's start.
    expect(jsonOf(overridden)).toEqual({
      killSwitch: { engaged: false, reason: 'daily loss limit overridden by hand: hedging the book by hand', override: { reason: 'hedging the book by hand', at: expect.any(Number), dayPnl: expect.any(String) } },
    });
    const atOverride = dec((jsonOf(overridden) as { killSwitch: { override: { dayPnl: string } } }).killSwitch.override.dayPnl);
    expect(atOverride.lt(0)).toBe(true);
    // The loss still counts from the day's start: a moved baseline would start the day again near 0.
    expect(d.kernel.risk.dayPnl().lt(loss.div(2))).toBe(true);
    expect(dec((d.status() as DaemonStatus).pnlToday).lt(loss.div(2))).toBe(true);
    expect(sample(await scrape(d.health.url), 'stratd_daily_loss_overrides_total', {})).toBe(1);
    // Opening orders go through again for the rest of the day.
    probe.emit({ type: 'place', key: 'after', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) });
    await runUntil(clock, () => d.kernel.cache.positions().some((p) => p.symbol === BTC && p.qty.eq(2)), 'the order after the override');
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);
  });
});

describe('the control commands and the token', () => {
  it('never send it over plain HTTP to another machine (exit 2, nothing sent); https or loopback is fine', async () => {
    const env = { STRATD_HEALTH_TOKEN: 'a-token-of-at-least-16-chars' };
    const remote = await stratd(['status', '--url', 'http://stratd.example:9464'], env);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('never sent over plain HTTP');
    // Loopback over plain HTTP is fine (nothing listens on port 9: unreachable, exit 1).
    expect((await stratd(['status', '--url', 'http://127.0.0.1:9'], env)).code).toBe(1);
    expect((await stratd(['status', '--url', 'http://[::1]:9'], env)).code).toBe(1);
  });

  it('a manual trade lands in the external ledger; POST /control/strategies/{id}/claim with the token moves it to the strategy; without the token 401', async () => {
    s.sim.engine.placeOrder({ userId: '879141111', category: 'USDT' }, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC', quantity: dec(2), clientOrderId: 'web-manual-1', generation: 'v2' });
    await runUntil(clock, () => d.kernel.ledgers.position('external', BTC, 'LONG')?.qty.eq(2) === true, 'the manual position in the external ledger');
    const claim = (bearer: string | undefined): Promise<Response> =>
      fetch(`${d.health.url}/control/strategies/probe/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
        body: JSON.stringify({ symbol: BTC, side: 'LONG', qty: '1.5' }),
      });
    expect((await claim(undefined)).status).toBe(401);
    const claimed = await claim(token());
    expect(claimed.status).toBe(200);
    expect(await claimed.json()).toMatchObject({ claim: { strategy: 'probe', symbol: BTC, side: 'LONG', qty: '1.5' } });
    expect(probe.ctx.position(BTC, 'LONG')?.qty.toFixed()).toBe('1.5');
    const status = (await (await fetch(`${d.health.url}/status`, { headers: { authorization: `Bearer ${token()}` } })).json()) as DaemonStatus;
    expect(status.ledgers).toEqual(expect.arrayContaining([expect.objectContaining({ owner: 'probe', qty: '1.5' }), expect.objectContaining({ owner: 'external', qty: '0.5' })]));
    const bad = await fetch(`${d.health.url}/control/strategies/probe/claim`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` }, body: JSON.stringify({ symbol: BTC, side: 'SHORT' }) });
    expect(bad.status).toBe(409);
  });
});
