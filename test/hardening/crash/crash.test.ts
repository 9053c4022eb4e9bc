import { writeFileSync } from 'node:fs';
import { tempDir } from '../../backtest/backtest-support.js';
import { runCrashes } from './crash-run.js';
import type { CrashReport } from './crash-run.js';

/**
 * Issue 8's crash suite: `stratd run` killed with SIGKILL at random moments, between journal write and
 * send, between send and reply, between send and the journal's fsync, and between a cancel's send and
 * its journal row (issue 18). `npm test` runs a short version (two of each kind); `npm run crash` sets CRASH_KILLS=60.
 */
const KILLS = Number(process.env['CRASH_KILLS'] ?? 10);
const SEED = Number(process.env['CRASH_SEED'] ?? 8);
const tmp = tempDir();
afterAll(() => tmp.remove());

describe(`crash: ${KILLS} × kill -9 of stratd run`, () => {
  let report: CrashReport;

  beforeAll(async () => {
    report = await runCrashes({ kills: KILLS, seed: SEED, dir: tmp.dir, progress: (line) => void process.stdout.write(`${line}\n`) });
    process.stdout.write(`crash report ${JSON.stringify({ ...report, positionMismatches: report.positionMismatches.length })}\n`);
    const file = process.env['CRASH_REPORT'];
    if (file !== undefined) writeFileSync(file, JSON.stringify(report, null, 2));
  }, 60 * 60_000);

  it('delivered every kill, each kind (random, after journaling, after writing the request, after writing it before the fsync, after sending a cancel before its journal row) at least once', () => {
    expect(report.kills.random + report.kills.journaled + report.kills.written + report.kills.unsynced + report.kills.cancelSent).toBe(KILLS);
    expect(report.kills.journaled).toBeGreaterThan(0);
    expect(report.kills.written).toBeGreaterThan(0);
    expect(report.kills.unsynced).toBeGreaterThan(0);
    expect(report.kills.cancelSent).toBeGreaterThan(0);
    expect(report.unexpectedExits).toEqual([]);
    expect(report.ordersOnExchange).toBeGreaterThan(0);
  });

  it('no duplicate order: each client order id at most once on the exchange', () => {
    expect(report.duplicateClientOrderIds).toEqual([]);
  });

  it('the journal is consistent: every exchange order journaled before its send, no contradiction, crashes settled by the restart (an order a sent, unjournaled cancel ended included)', () => {
    expect(report.unjournaled).toEqual([]);
    expect(report.contradictions).toEqual([]);
    expect(report.leftUnsettled).toEqual([]);
  });

  it('after every restart the daemon’s positions equal the exchange’s, and the last life stops cleanly', () => {
    expect(report.positionMismatches).toEqual([]);
    expect(report.finalStopExitCode).toBe(0);
  });
});
