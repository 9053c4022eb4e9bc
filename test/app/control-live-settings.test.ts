import { Writable } from 'node:stream';
import { z } from 'zod';
import { LiveSettings, setLogLevel } from '../../src/app/control/live-settings.js';
import type { StrategyControl } from '../../src/app/control/live-settings.js';
import type { ReloadPlan } from '../../src/app/daemon/reload.js';
import { createLogger } from '../../src/app/logging/logger.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import type { HandlerContext, StrategyHandlers } from '../../src/engine/strategy/api.js';
import { defineStrategy, defineStreamStrategy } from '../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { RunnerState } from '../../src/engine/strategy/runner.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import { EMPTY } from 'rxjs';

/** Reloadable settings: limits read live, params swapped under a restarted instance, the log level. */
const params = z.strictObject({ size: z.number() });

function instance(id: string, seen: unknown[]): StrategyInstance {
  const definition = defineStrategy({
    name: 'recorder',
    description: 'records the params it was created with',
    params,
    create: (ctx) => {
      seen.push(ctx.params);
      return { onEvent: () => undefined };
    },
  });
  return { id, symbols: ['BTC-SWAP-USDT'], definition, params: { size: 1 }, limits: { maxOpenOrders: 2 } };
}

/** What StrategyHost does with a definition: create it with a context. */
function create(i: StrategyInstance): StrategyHandlers {
  const definition = i.definition;
  if (definition.style !== 'handlers') throw new Error('LiveSettings hands the kernel handler-style definitions');
  return definition.create({ id: i.id, params: i.params } as HandlerContext<unknown>);
}

class Host implements StrategyControl {
  readonly calls: string[] = [];
  constructor(private readonly states: Record<string, RunnerState>) {}
  state(id: string): RunnerState | undefined {
    return this.states[id];
  }
  async stop(id: string): Promise<boolean> {
    this.calls.push(`stop ${id}`);
    return true;
  }
  async start(id: string): Promise<boolean> {
    this.calls.push(`start ${id}`);
    return true;
  }
}

function plan(parts: Partial<ReloadPlan>): ReloadPlan {
  return { strategies: [], applied: [], rejected: [], effective: {} as DaemonConfig, ...parts };
}

describe('LiveSettings', () => {
  it('limits handed to the kernel read the newest values (global and per strategy)', async () => {
    const live = new LiveSettings({ maxOpenOrders: 10, dailyLossLimit: dec(100) }, [instance('a', [])]);
    const [a] = live.instances;
    expect(live.globalLimits.maxOpenOrders).toBe(10);
    expect(a?.limits.maxOpenOrders).toBe(2);
    await live.apply(plan({ globalLimits: { maxNotional: dec(5000) }, strategies: [{ id: 'a', limits: { maxPosition: dec(3) } }] }), new Host({ a: 'running' }), silentLogger);
    expect(live.globalLimits.maxOpenOrders).toBeUndefined();
    expect(live.globalLimits.dailyLossLimit).toBeUndefined();
    expect(live.globalLimits.maxNotional?.toFixed()).toBe('5000');
    expect('maxNotional' in live.globalLimits).toBe(true);
    expect({ ...live.globalLimits }).toEqual({ maxNotional: dec(5000) });
    expect(a?.limits.maxOpenOrders).toBeUndefined();
    expect(a?.limits.maxPosition?.toFixed()).toBe('3');
    expect(live.limits('a')).toBe(a?.limits);
  });

  it('new params: a running instance is stopped and started and is created with them; a stopped one only keeps them', async () => {
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const live = new LiveSettings({}, [instance('a', seenA), instance('b', seenB)]);
    const [a, b] = live.instances;
    if (a === undefined || b === undefined) throw new Error('two instances');
    create(a);
    create(b);
    const host = new Host({ a: 'running', b: 'stopped' });
    await live.apply(plan({ strategies: [{ id: 'a', params: { size: 2 } }, { id: 'b', params: { size: 3 } }] }), host, silentLogger);
    expect(host.calls).toEqual(['stop a', 'start a']);
    // The host's next create (its start) builds with the new params.
    create(a);
    create(b);
    expect(seenA).toEqual([{ size: 1 }, { size: 2 }]);
    expect(seenB).toEqual([{ size: 1 }, { size: 3 }]);
    expect(live.params('a')).toEqual({ size: 2 });
  });

  it('a stream-style strategy becomes handlers built with the live params; wrap sees every handler set', () => {
    const seen: unknown[] = [];
    const definition = defineStreamStrategy({
      name: 'stream',
      description: 'no intents',
      params,
      run: (ctx) => {
        seen.push(ctx.params);
        return EMPTY;
      },
    });
    const wrapped: string[] = [];
    const live = new LiveSettings({}, [{ id: 's', symbols: [], definition, params: { size: 7 }, limits: {} }], (id, h) => {
      wrapped.push(id);
      return h;
    });
    const [s] = live.instances;
    if (s === undefined) throw new Error('one instance');
    const handlers = create(s);
    expect(s.definition.style).toBe('handlers');
    expect(wrapped).toEqual(['s']);
    handlers.onStart?.();
    expect(seen).toEqual([{ size: 7 }]);
  });

  it('the log level changes on a pino logger (children included); a logger without a level reports it', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination: sink });
    const child = logger.child({ component: 'x' });
    expect(setLogLevel(logger, 'debug')).toBe(true);
    child.debug({}, 'now visible');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.some((l) => l.includes('now visible'))).toBe(true);
    const live = new LiveSettings({}, []);
    expect(await live.apply(plan({ logLevel: 'warn' }), new Host({}), silentLogger)).toEqual([{ path: 'log.level', reason: 'this logger cannot change its level: needs a restart' }]);
  });
});
