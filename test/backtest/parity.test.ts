import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runParity } from '../../src/app/parity-command.js';
import type { ParityOutcome } from '../../src/app/parity-command.js';
import { resolveStrategies } from '../../src/app/daemon-strategies.js';
import { prepareRun } from '../../src/app/run-command.js';
import type { DaemonConfig } from '../../src/settings/daemon-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { runBacktest } from '../../src/backtest/backtest-runner.js';
import { formatParityReport } from '../../src/backtest/parity-compare.js';
import { T0 } from '../sim/e2e/sim-harness.js';
import { NEVER, defaultYaml, writeConfig } from '../app/daemon/daemon-harness.js';
import { runFor } from '../app/daemon/virtual-steps.js';

/**
 * `stratd parity` on a short run of each example strategy of config/default.yml: the paper daemon
 * trades the embedded simulator over loopback in virtual time, the engine's market stream is recorded,
 * the recording is backtested and the fill sequences compared.
 */
const STRATEGY_BLOCK = { 'quoter-btc': /  - id: breakout-eth[\s\S]*?risk: \{[^\n]*\}\n/, 'breakout-eth': /  - id: quoter-btc[\s\S]*?risk: \{[^\n]*\}\n/ } as const;

function configFor(dir: string, keep: keyof typeof STRATEGY_BLOCK): string {
  let text = defaultYaml(join(dir, 'state'));
  text = text.replace(STRATEGY_BLOCK[keep], '');
  // Jobs run on the wall clock (node-cron): none may fire during the test.
  text = text.replace(/^jobs:[\s\S]*?catalogSync: .*$/m, `jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}", catalogSync: "${NEVER}" }`);
  return writeConfig(dir, 'parity.yml', text);
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-parity-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function parity(keep: keyof typeof STRATEGY_BLOCK, minutes: number): Promise<ParityOutcome & { readonly config: DaemonConfig }> {
  const prepared = await prepareRun({ config: configFor(dir, keep) }, {});
  if (!prepared.ok) throw prepared.error;
  const { config } = prepared.value;
  expect(prepared.value.strategies.map((s) => s.id)).toEqual([keep]);
  const clock = new VirtualClock(T0);
  const outcome = await runParity({
    config,
    strategies: () => resolveStrategies(config),
    time: clock,
    logger: silentLogger,
    dir: join(dir, 'parity'),
    wait: () => runFor(clock, minutes * 60_000),
    env: {},
  });
  if (!outcome.ok) throw outcome.error;
  return { ...outcome.value, config };
}

function expectConsistent(outcome: ParityOutcome): void {
  const { report, recording, backtest } = outcome;
  expect(recording.events).toBeGreaterThan(0);
  // The backtest replayed exactly the engine's stream: every recorded event, nothing else.
  expect(backtest.summary.events).toBe(recording.events);
  expect(report.liveFills).toBe(recording.fills.length);
  expect(report.backtestFills).toBe(backtest.fills.length);
  expect(formatParityReport(report)).toContain(report.identical ? 'parity: identical' : 'parity: DIVERGENT');
}

describe('stratd parity', () => {
  it('breakout-eth: the paper run and the backtest of its recording make the same fills', async () => {
    const outcome = await parity('breakout-eth', 3);
    expectConsistent(outcome);
    expect(outcome.report.liveFills).toBeGreaterThan(0);
    expect(outcome.report.divergences).toEqual([]);
    expect(outcome.report.identical).toBe(true);
  }, 120_000);

  it('quoter-btc: the comparison runs; the divergence (polled quotes vs every book update) is reported, the backtest side is deterministic', async () => {
    const outcome = await parity('quoter-btc', 3);
    expectConsistent(outcome);
    const { report, recording, backtest } = outcome;
    expect(report.liveFills).toBeGreaterThan(0);
    expect(report.backtestFills).toBeGreaterThan(0);
    // Not faked: the spread quoter requotes on every book update it sees. The paper daemon sees the
    // book once per poll (1 s), the backtest every engine event, so quotes and thus fill prices and
    // times differ. What must never differ is who traded what: every divergence is the same
    // strategy on the same symbol (only side, price, qty or time differ).
    expect(report.identical).toBe(false);
    for (const d of report.divergences) {
      if (d.kind === 'mismatch') expect(d.fields.filter((f) => f === 'strategy' || f === 'symbol')).toEqual([]);
      for (const fill of [d.live, d.backtest]) {
        if (fill === undefined) continue;
        expect(fill.strategy).toBe('quoter-btc');
        expect(fill.symbol).toBe('BTC-SWAP-USDT');
      }
    }
    // Stable: the backtest of the same recording gives the same fill sequence again.
    const strategies = await resolveStrategies(outcome.config);
    if (!strategies.ok) throw strategies.error;
    const again = await runBacktest({
      strategies: strategies.value,
      risk: outcome.config.risk,
      recordings: [recording.path],
      account: outcome.account,
      orphans: outcome.config.orphans,
      from: recording.startTime,
      to: recording.endTime,
    });
    if (!again.ok) throw again.error;
    expect(again.value.summary.fillsSha256).toBe(backtest.summary.fillsSha256);
  }, 120_000);
});
