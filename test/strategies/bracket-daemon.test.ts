import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Daemon } from '../../src/app/daemon/daemon.js';
import { dec } from '../../src/core/decimal.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import type { OrderV2 } from '../../src/venue/parsers/order-v2.js';
import { embeddedTrader, NEVER, SIM_YML, startDaemon, writeConfig } from '../app/daemon/daemon-harness.js';
import { Probe } from '../app/daemon/probe-strategy.js';
import { runUntil } from '../app/daemon/virtual-steps.js';
import { ETH, T0, value } from '../sim/e2e/sim-harness.js';

/**
 * config/strategies/bracket.yml run by the assembled paper daemon: the embedded simulator on loopback,
 * the guard's `tpsl` intents travelling through the risk engine and the executor as signed v2
 * algo-order calls, so the plan orders really exist on the exchange and are read back over its REST
 * API. A probe strategy opens, grows and closes the position the guard watches.
 */

const BRACKET_YML = fileURLToPath(new URL('../../config/strategies/bracket.yml', import.meta.url));

/**
 * The shipped config with only what a test must change: state in `stateDir`, the simulator's YAML by
 * absolute path, any free health port, silent logs, cron jobs that never fire, a generous pong timeout
 * (virtual time runs ahead of loopback I/O), no breakout (the probe opens positions instead) and no
 * trailing (the random walk would move the stop-loss while the test reads it).
 */
function bracketYaml(stateDir: string): string {
  let text = readFileSync(BRACKET_YML, 'utf8');
  const replace = (from: RegExp, to: string): void => {
    if (!from.test(text)) throw new Error(`config/strategies/bracket.yml no longer matches ${String(from)}`);
    text = text.replace(from, to);
  };
  replace(/^stateDir: .*$/m, `stateDir: ${stateDir}`);
  replace(/^(\s+)config: \.\.\/sim\.yml.*$/m, `$1config: ${SIM_YML}`);
  replace(/^health: .*$/m, 'health: { host: 127.0.0.1, port: 0 }');
  replace(/^log: .*$/m, 'log: { level: silent }');
  replace(/^(\s+)pongTimeout: .*$/m, '$1pongTimeout: 2m');
  replace(/^(\s+(?:listenKeyKeepalive|exchangeInfoRefresh|reconcile|dailyReset)): .*$/gm, `$1: "${NEVER}"`);
  replace(/^(\s+- id: breakout-eth)$/m, '$1\n    enabled: false');
  replace(/^(\s+)trailingStopPct: .*$/m, '$1trailingStopPct: 0');
  return text;
}

let dir: string;
let clock: VirtualClock;
let daemon: Daemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-bracket-'));
  clock = new VirtualClock(T0);
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The exchange's open plan rows on ETH as [clientOrderId, type, side, positionSide, stopPrice, origQty, triggerBy]. */
function rows(orders: readonly OrderV2[]): string[][] {
  return orders
    .map((o) => [o.clientOrderId, o.type, o.side, o.positionSide, o.stopPrice?.toFixed() ?? '', o.origQty.toFixed(), o.triggerBy ?? ''])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('bracket guard in the paper daemon (plan orders over loopback)', () => {
  it('places closing plan orders on a position opened by another strategy, moves them when it grows, cancels them when it is closed', async () => {
    const probe = new Probe('opener', [ETH]);
    daemon = await startDaemon(writeConfig(dir, 'bracket.yml', bracketYaml(join(dir, 'state'))), clock, [probe.instance()]);
    const d = daemon;
    expect(d.kernel.strategies.status().map((s) => [s.id, s.state])).toEqual([
      ['guard-eth', 'running'],
      ['opener', 'running'],
    ]);
    const cache = d.kernel.cache;
    const client = embeddedTrader(d, clock);
    const guardPlans = (): number => cache.openAlgoOrders(ETH).filter((o) => d.kernel.executor.ownerOf(o.clientOrderId) === 'guard-eth').length;
    await runUntil(clock, () => cache.markPrice(ETH) !== undefined && cache.midPrice(ETH) !== undefined, 'ETH market data');

    probe.emit({ type: 'place', key: 'open-1', symbol: ETH, side: 'BUY', orderType: 'MARKET', quantity: dec(10) });
    await runUntil(clock, () => cache.position(ETH, 'LONG')?.qty.eq(10) === true && guardPlans() === 2, 'the position and its two stops');
    const entry = cache.position(ETH, 'LONG')?.avgPrice ?? dec(0);
    const onTick = (v: string): string => entry.mul(v).toNearest('0.01').toFixed();
    // What the exchange itself answers: two STOP_MARKET plan rows closing the whole long, on the mark price.
    // The guard's keys (sl1, tp2) name the orders: their client ids are known before they exist.
    const slId = d.kernel.executor.clientOrderId('guard-eth', 'sl1');
    const tpId = d.kernel.executor.clientOrderId('guard-eth', 'tp2');
    expect(rows(value(await client.algo.openAlgoOrders({ symbol: ETH })))).toEqual([
      [slId, 'STOP_MARKET', 'SELL', 'LONG', onTick('0.995'), '10', 'MARK_PRICE'],
      [tpId, 'STOP_MARKET', 'SELL', 'LONG', onTick('1.01'), '10', 'MARK_PRICE'],
    ]);

    // The position grows: the same two rows, now for 25 contracts at the new average entry.
    probe.emit({ type: 'place', key: 'open-2', symbol: ETH, side: 'BUY', orderType: 'MARKET', quantity: dec(15) });
    await runUntil(
      clock,
      () => cache.position(ETH, 'LONG')?.qty.eq(25) === true && cache.openAlgoOrders(ETH).filter((o) => o.quantity.eq(25)).length === 2,
      'the stops resized',
    );
    const average = cache.position(ETH, 'LONG')?.avgPrice ?? dec(0);
    const grown = rows(value(await client.algo.openAlgoOrders({ symbol: ETH })));
    expect(grown).toEqual([
      [slId, 'STOP_MARKET', 'SELL', 'LONG', average.mul('0.995').toNearest('0.01').toFixed(), '25', 'MARK_PRICE'],
      [tpId, 'STOP_MARKET', 'SELL', 'LONG', average.mul('1.01').toNearest('0.01').toFixed(), '25', 'MARK_PRICE'],
    ]);

    // Closed by its owner: the guard cancels both rows on the exchange.
    probe.emit({ type: 'place', symbol: ETH, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true });
    await runUntil(clock, () => cache.position(ETH, 'LONG') === undefined && guardPlans() === 0, 'the stops removed');
    expect(value(await client.algo.openAlgoOrders({ symbol: ETH }))).toEqual([]);
    const finished = value(await client.algo.historyAlgoOrders({ symbol: ETH }));
    expect(finished.filter((o) => o.clientOrderId === slId || o.clientOrderId === tpId).map((o) => o.status)).toEqual(['ORDER_CANCELED', 'ORDER_CANCELED']);
  });
});
