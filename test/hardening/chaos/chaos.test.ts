import { writeFileSync } from 'node:fs';
import { tempDir } from '../../backtest/backtest-support.js';
import { runChaos } from './chaos-run.js';
import type { ChaosReport } from './chaos-run.js';

/**
 * Issue 8's chaos suite: every example strategy against a simulator injecting all faults at once.
 * `npm test` runs a short version (300 intents: about 14 virtual minutes, every fault kind many times,
 * three steps of the daemon's clock, some 20 reconnects); `npm run chaos` sets CHAOS_INTENTS=10000 (and may set CHAOS_SEED).
 */
const INTENTS = Number(process.env['CHAOS_INTENTS'] ?? 300);
const SEED = Number(process.env['CHAOS_SEED'] ?? 8);
const tmp = tempDir();
afterAll(() => tmp.remove());

function summary(report: ChaosReport): string {
  const { reconnectChecks, ...rest } = report;
  const slowest = Math.max(0, ...reconnectChecks.map((c) => c.agreedAfterMs ?? Infinity));
  return JSON.stringify({ ...rest, reconnectChecks: reconnectChecks.length, slowestConvergenceMs: slowest, lostFills: rest.lostFills.length, unknownFills: rest.unknownFills.length });
}

describe(`chaos: ${INTENTS} intents under every fault at once`, () => {
  let report: ChaosReport;

  beforeAll(async () => {
    report = await runChaos({ intents: INTENTS, maxVirtualMs: 48 * 3_600_000, seed: SEED, dir: tmp.dir, progress: (line) => void process.stdout.write(`${line}\n`) });
    process.stdout.write(`chaos report ${summary(report)}\n`);
    const file = process.env['CHAOS_REPORT'];
    if (file !== undefined) writeFileSync(file, JSON.stringify(report, null, 2));
  }, 60 * 60_000);

  it('reached the intent count with every fault kind injected', () => {
    expect(report.intents).toBeGreaterThanOrEqual(INTENTS);
    for (const kind of ['http_5xx', 'lost_reply', 'ws_drop', 'stream_duplicate', 'stream_reorder']) expect(report.faultsInjected[kind] ?? 0).toBeGreaterThan(0);
    // 5-minute listen keys (the cron keepalive never runs here): the daemon kept them alive on the expiry notices.
    expect(report.listenKeyKeepalives).toBeGreaterThan(0);
  });

  it('market data rode the public market socket: its faults hit it, its books resynced, and every channel is back on it', () => {
    for (const kind of ['market_frame_loss', 'market_frame_reorder', 'market_seq_gap']) expect(report.faultsInjected[kind] ?? 0).toBeGreaterThan(0);
    expect(report.marketSocket).toMatchObject({ state: 'open' });
    expect(report.marketSocket?.reconnects ?? 0).toBeGreaterThan(0);
    expect(report.marketSocket?.resyncs ?? 0).toBeGreaterThan(0);
    const socketChannels = report.marketSources.filter((c) => c.includes(' ws->'));
    expect(socketChannels.length).toBeGreaterThan(0);
    expect(socketChannels.filter((c) => !c.endsWith('->ws'))).toEqual([]);
  });

  it('no client order id exists twice on the exchange', () => {
    expect(report.ordersOnExchange).toBeGreaterThan(0);
    expect(report.duplicateClientOrderIds).toEqual([]);
  });

  it('no fill lost, none invented, none passed on twice', () => {
    expect(report.exchangeFills).toBeGreaterThan(0);
    expect(report.lostFills).toEqual([]);
    expect(report.unknownFills).toEqual([]);
    expect(report.repeatedFills).toEqual([]);
  });

  it('after every reconnect, open orders and positions equal the exchange’s within 5 s', () => {
    expect(report.reconnects).toBeGreaterThan(0);
    expect(report.reconnectChecks.filter((c) => c.agreedAfterMs === undefined)).toEqual([]);
  });

  it('no request refused for rate limits under the squeezed budget', () => {
    expect(report.rateLimitRefusals).toBe(0);
  });

  it('the journal is consistent: nothing left unsettled, every exchange order journaled, final views equal', () => {
    expect(report.unsettledJournal).toEqual([]);
    expect(report.unjournaledOrders).toEqual([]);
    expect(report.finalViewsEqual).toBe(true);
  });
});
