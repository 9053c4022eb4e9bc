import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveStrategies } from '../../src/app/daemon/strategies.js';
import { planReload, sameValue } from '../../src/app/daemon/reload.js';
import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import { SIM_YML } from './daemon/daemon-harness.js';

/** The reload diff: which changes a running daemon takes (params, risk, log level) and which need a restart. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-reload-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Edits {
  readonly head?: string;
  readonly market?: string;
  readonly risk?: string;
  readonly strategies?: string;
  readonly tail?: string;
}

const STRATEGIES = `strategies:
  - id: brk-btc
    module: breakout
    symbols: [BTC-SWAP-USDT]
    params: { quantity: 1, windowMs: 20000 }
    risk: { maxPosition: 5 }
  - id: quoter-eth
    module: spread-quoter
    symbols: [ETH-SWAP-USDT]
    params: { quantity: 1 }
  - id: idle
    module: breakout
    symbols: [ETH-SWAP-USDT]
    enabled: false
`;

function yaml(e: Edits = {}): string {
  return `${e.head ?? `mode: paper\nstateDir: ${join(dir, 'state')}\nsim: { config: ${SIM_YML}, key: trader, port: 0 }`}
market:
${e.market ?? '  - symbol: BTC-SWAP-USDT\n    bookTicker: { every: 1s }'}
  - symbol: ETH-SWAP-USDT
    bookTicker: { every: 1s }
risk: ${e.risk ?? '{ maxOpenOrders: 10, dailyLossLimit: 100 }'}
${e.strategies ?? STRATEGIES}${e.tail ?? 'health: { host: 127.0.0.1, port: 0 }\nlog: { level: info }'}
`;
}

let files = 0;
async function load(text: string, env: Record<string, string> = {}): Promise<{ config: DaemonConfig; strategies: StrategyInstance[] }> {
  const file = join(dir, `config-${++files}.yml`);
  writeFileSync(file, text);
  const config = loadDaemonConfig(file, { env });
  if (!config.ok) throw config.error;
  const strategies = await resolveStrategies(config.value);
  if (!strategies.ok) throw strategies.error;
  return { config: config.value, strategies: strategies.value };
}

/** Both configs from the same file path, as a reload reads it: only the content differs. */
async function plan(before: string, after: string, env: Record<string, string> = {}): Promise<ReturnType<typeof planReload>> {
  const current = await load(before, env);
  const next = await load(after, env);
  return planReload({ ...current.config, file: 'stratd.yml' }, { ...next.config, file: 'stratd.yml' }, next.strategies);
}

describe('planReload', () => {
  it('the same config again changes nothing', async () => {
    const p = await plan(yaml(), yaml({ risk: '{ maxOpenOrders: 10, dailyLossLimit: 100.0 }' }));
    expect(p.applied).toEqual([]);
    expect(p.rejected).toEqual([]);
    expect(p.strategies).toEqual([]);
    expect(p.globalLimits).toBeUndefined();
    expect(p.logLevel).toBeUndefined();
  });

  it('strategy params, risk limits (global and per strategy) and the log level apply; the effective config carries them', async () => {
    const strategies = STRATEGIES.replace('windowMs: 20000', 'windowMs: 45000').replace('params: { quantity: 1 }\n', 'params: { quantity: 1 }\n    risk: { maxOpenOrders: 2 }\n');
    const p = await plan(yaml(), yaml({ risk: '{ maxOpenOrders: 3 }', strategies, tail: 'health: { host: 127.0.0.1, port: 0 }\nlog: { level: debug }' }));
    expect(p.applied).toEqual(['risk', 'log.level', 'strategies[brk-btc].params', 'strategies[quoter-eth].risk']);
    expect(p.rejected).toEqual([]);
    expect(p.globalLimits).toEqual({ maxOpenOrders: 3 });
    expect(p.logLevel).toBe('debug');
    expect(p.strategies.map((s) => s.id)).toEqual(['brk-btc', 'quoter-eth']);
    // The params as the module's schema validated them: defaults filled in, decimals parsed.
    expect(p.strategies[0]).toMatchObject({ id: 'brk-btc', params: { windowMs: 45000, quantity: dec(1), cooldownMs: 30000 } });
    expect(p.strategies[0]).not.toHaveProperty('limits');
    expect(p.strategies[1]).toEqual({ id: 'quoter-eth', limits: { maxOpenOrders: 2 } });
    expect(p.effective.risk).toEqual({ maxOpenOrders: 3 });
    expect(p.effective.log.level).toBe('debug');
    expect(p.effective.strategies.find((s) => s.id === 'brk-btc')?.params).toEqual({ quantity: 1, windowMs: 45000 });
    expect(p.effective.strategies.find((s) => s.id === 'quoter-eth')?.risk).toEqual({ maxOpenOrders: 2 });
  });

  it('venue, market channels, stateDir, health address and the other fixed sections are reported, not applied', async () => {
    const p = await plan(
      yaml(),
      yaml({
        head: `mode: paper\nstateDir: ${join(dir, 'elsewhere')}\nsim: { config: ${SIM_YML}, key: sub-account, port: 0 }\norphans: cancel`,
        market: '  - symbol: BTC-SWAP-USDT\n    bookTicker: { every: 2s }',
        risk: '{ maxOpenOrders: 4, dailyLossLimit: 100 }',
        tail: 'health: { host: 127.0.0.1, port: 9555 }\nlog: { level: info }\nshutdown: { cancelOpenOrders: true }\njobs: { reconcile: "*/10 * * * *" }',
      }),
    );
    expect(p.rejected.map((r) => r.path)).toEqual(['sim', 'stateDir', 'market', 'jobs', 'orphans', 'shutdown', 'health']);
    expect(p.rejected.every((r) => r.reason.includes('restart'))).toBe(true);
    // What can change still does.
    expect(p.applied).toEqual(['risk']);
    expect(p.effective.stateDir).toBe(join(dir, 'state'));
    expect(p.effective.health.port).toBe(0);
    expect(p.effective.market[0]?.bookTicker?.everyMs).toBe(1000);
    expect(p.effective.venue.mode === 'paper' && p.effective.venue.key).toBe('trader');
  });

  it('log.summaryEvery needs a restart (the summary timer keeps its period); the level beside it still changes', async () => {
    const p = await plan(yaml(), yaml({ tail: 'health: { host: 127.0.0.1, port: 0 }\nlog: { level: debug, summaryEvery: 5m }' }));
    expect(p.rejected).toEqual([{ path: 'log.summaryEvery', reason: 'needs a restart' }]);
    expect(p.applied).toEqual(['log.level']);
    expect(p.effective.log).toEqual({ level: 'debug', summaryEveryMs: 60_000 });
  });

  it('paper to live is a mode change (and loses the embedded catalog)', async () => {
    const env = { BASE: 'http://127.0.0.1:9', STREAM: 'ws://127.0.0.1:9', KEY: 'k', SECRET: 's' };
    const live = 'mode: live\nstateDir: ' + join(dir, 'state') + '\nexchange: { baseUrl: "${BASE}", streamUrl: "${STREAM}", apiKey: "${KEY}", apiSecret: "${SECRET}" }';
    const p = await plan(yaml(), yaml({ head: live }), env);
    expect(p.rejected.map((r) => r.path)).toEqual(['mode', 'catalog']);
    expect(p.rejected[0]?.reason).toBe('paper to live needs a restart');
    expect(p.effective.venue.mode).toBe('paper');
  });

  it('strategy ids, modules, symbols and enabled need a restart; their params wait with them', async () => {
    const strategies = `strategies:
  - id: brk-btc
    module: breakout
    symbols: [ETH-SWAP-USDT]
    params: { quantity: 2, windowMs: 20000 }
  - id: idle
    module: breakout
    symbols: [ETH-SWAP-USDT]
    enabled: true
    params: { windowMs: 60000 }
  - id: brand-new
    module: breakout
    symbols: [BTC-SWAP-USDT]
`;
    const p = await plan(yaml(), yaml({ strategies }));
    expect(p.rejected).toEqual([
      { path: 'strategies[brk-btc].symbols', reason: 'needs a restart' },
      { path: 'strategies[quoter-eth]', reason: 'removing a strategy needs a restart (stratd strategies stop quoter-eth stops it now)' },
      { path: 'strategies[idle].enabled', reason: 'needs a restart (stratd strategies start idle does it now)' },
      { path: 'strategies[brand-new]', reason: 'a new strategy needs a restart' },
    ]);
    // brk-btc's new params go with its new symbols; idle is not running, its params are only remembered.
    expect(p.applied).toEqual(['strategies[idle].params']);
    expect(p.strategies).toEqual([]);
    const brk = p.effective.strategies.find((s) => s.id === 'brk-btc');
    expect(brk).toMatchObject({ symbols: ['BTC-SWAP-USDT'], params: { quantity: 1, windowMs: 20000 } });
    expect(p.effective.strategies.map((s) => s.id)).toEqual(['brk-btc', 'quoter-eth', 'idle']);
    expect(p.effective.strategies.find((s) => s.id === 'idle')).toMatchObject({ enabled: false, params: { windowMs: 60000 } });
  });

  it('a module change is reported and nothing of that strategy applies', async () => {
    const p = await plan(yaml(), yaml({ strategies: STRATEGIES.replace('module: spread-quoter\n    symbols: [ETH-SWAP-USDT]\n    params: { quantity: 1 }', 'module: breakout\n    symbols: [ETH-SWAP-USDT]\n    params: { quantity: 3 }') }));
    expect(p.rejected).toEqual([{ path: 'strategies[quoter-eth].module', reason: 'needs a restart' }]);
    expect(p.applied).toEqual([]);
    expect(p.strategies).toEqual([]);
  });
});

describe('sameValue', () => {
  it('compares decimals by value, ignores undefined keys and functions, and sees array order', () => {
    expect(sameValue({ a: dec('1.50'), b: undefined }, { a: dec('1.5') })).toBe(true);
    expect(sameValue({ a: dec('1.5') }, { a: '1.5' })).toBe(false);
    expect(sameValue({ f: () => 1 }, { f: () => 2 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue([{ x: [1] }], [{ x: [1] }])).toBe(true);
    expect(sameValue(null, {})).toBe(false);
  });
});
