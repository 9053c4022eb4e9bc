import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { createLogger } from '../../../src/app/logging/logger.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { BTC, T0 } from '../../sim/e2e/sim-harness.js';
import { paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runFor, runUntil } from './virtual-steps.js';

/**
 * The paper daemon's JSON output at info: the strategy's start, then a line for the order it placed
 * and one per fill of it, each with the fields a person (or jq) reads, and the summary line in
 * virtual time. The log is the feature here, so its lines are what the test reads.
 */
let dir: string;
let clock: VirtualClock;
let daemon: Daemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-trade-log-'));
  clock = new VirtualClock(T0);
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

type Line = Record<string, unknown>;

describe('the paper daemon writes its trade log', () => {
  it('started, placed and filled lines for a market order, then a summary line every summaryEvery', async () => {
    const raw: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          raw.push(chunk.toString());
          done();
        },
      }),
    });
    const trades = (): Line[] => raw.map((l) => JSON.parse(l) as Line).filter((l) => l['component'] === 'trade');
    const probe = new Probe('probe', [BTC]);
    const yaml = paperYaml(join(dir, 'state')).replace('log: { level: silent }', 'log: { level: info, summaryEvery: 30s }');
    daemon = await startDaemon(writeConfig(dir, 'paper.yml', yaml), clock, [probe.instance()], {}, logger);
    const d = daemon;
    expect(trades().filter((l) => l['event'] === 'started').map((l) => l['strategy'])).toContain('probe');

    await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
    probe.emit({ type: 'place', key: 'tl-market', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(2) });
    const id = probe.clientOrderId('tl-market');
    await runUntil(clock, () => probe.filled(id) === '2', 'the fills at the strategy');
    await runUntil(clock, () => trades().filter((l) => l['event'] === 'filled' && l['clientOrderId'] === id).length === probe.of('account.fill').length, 'the fill lines');

    // Quantities as the exchange writes them: at the instrument's step (0.1 here).
    const ofOrder = trades().filter((l) => l['clientOrderId'] === id);
    expect(ofOrder[0]).toMatchObject({ event: 'placed', strategy: 'probe', symbol: BTC, side: 'BUY', qty: '2.0', orderType: 'MARKET', level: 30 });
    expect(ofOrder.filter((l) => l['event'] === 'placed')).toHaveLength(1);
    const fills = ofOrder.filter((l) => l['event'] === 'filled');
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) {
      expect(f).toMatchObject({ strategy: 'probe', symbol: BTC, side: 'BUY', feeAsset: 'USDT' });
      expect(String(f['price'])).toMatch(/^\d+(\.\d+)?$/);
      expect(String(f['fee'])).toMatch(/^-?\d+(\.\d+)?$/);
      expect(typeof f['realizedPnl']).toBe('string');
    }
    expect(fills.at(-1)).toMatchObject({ fillKind: 'full', filledQty: '2.0' });
    expect(new Set(fills.map((f) => f['tradeId'])).size).toBe(fills.length);

    // A reconciliation (the periodic job) lists the same order and trades: no line repeats.
    const before = trades().length;
    await d.runJob('reconcile');
    await runFor(clock, 2000);
    expect(trades().slice(before).filter((l) => l['event'] !== 'summary')).toEqual([]);

    await runUntil(clock, () => trades().some((l) => l['event'] === 'summary' && l['strategy'] === 'probe'), 'the summary line', { maxMs: 40_000 });
    const summary = trades().find((l) => l['event'] === 'summary' && l['strategy'] === 'probe');
    expect(summary).toMatchObject({ state: 'running', fillsToday: fills.length, openOrders: 0 });
    expect(String(summary?.['position'])).toMatch(/^LONG 2 @ /);
  });
});
