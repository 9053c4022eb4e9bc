import { fileURLToPath } from 'node:url';
import { tap } from 'rxjs';
import { prepareRun } from '../../src/app/commands/run.js';
import { dec } from '../../src/core/decimal.js';
import type { StrategyDefinition } from '../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { Intent } from '../../src/model/intents.js';
import type { KlineUpdated } from '../../src/model/market-events.js';
import type { RiskLimits } from '../../src/model/risk-limits.js';
import type { KernelRig } from '../engine/kernel/kernel-support.js';
import { BTC } from '../engine/kernel/kernel-support.js';

/** Shared by the trend and funding-carry tests: a library strategy run by the kernel over a World. */

export const MINUTE = 60_000;

/** A definition whose emitted intents are also recorded, in order, as the strategy emitted them. */
export function recorded(definition: StrategyDefinition): { readonly definition: StrategyDefinition; readonly intents: Intent[] } {
  const intents: Intent[] = [];
  if (definition.style === 'handlers') {
    return {
      intents,
      definition: {
        ...definition,
        create: (ctx) =>
          definition.create({
            ...ctx,
            emit: (intent) => {
              intents.push(intent);
              ctx.emit(intent);
            },
          }),
      },
    };
  }
  return { intents, definition: { ...definition, run: (ctx, events$) => definition.run(ctx, events$).pipe(tap((intent) => intents.push(intent))) } };
}

/** A configured instance: params go through the definition's schema as the daemon's loader does. */
export function instanceOf(id: string, definition: StrategyDefinition, params: Record<string, unknown>, options: { symbols?: readonly string[]; limits?: RiskLimits } = {}): StrategyInstance {
  return { id, symbols: options.symbols ?? [BTC], definition, params: definition.params.parse(params), limits: options.limits ?? {} };
}

/** A closed kline that ends now: high and low 50 either side of the close (a true range of 100 while closes move less than 50). */
export function closedKline(rig: KernelRig, close: number, interval: KlineUpdated['interval'] = '1m', symbol = BTC): KlineUpdated {
  const closeTime = rig.clock.now() - 1;
  return {
    type: 'market.kline',
    symbol,
    time: rig.clock.now(),
    interval,
    openTime: closeTime + 1 - MINUTE,
    closeTime,
    open: dec(close),
    high: dec(close + 50),
    low: dec(close - 50),
    close: dec(close),
    volume: dec(10),
    closed: true,
  };
}

/** One minute passes and its kline closes at `close`; everything it causes runs. */
export async function minute(rig: KernelRig, close: number): Promise<void> {
  rig.clock.advanceBy(MINUTE);
  rig.kernel.ingest(closedKline(rig, close));
  await rig.settle();
}

/** Intents as comparable rows (decimals become their text through Decimal#toJSON). */
export function rows(intents: readonly Intent[]): unknown[] {
  return JSON.parse(JSON.stringify(intents)) as unknown[];
}

/** config/strategies/<name>.yml through `prepareRun`, as `stratd run --config` loads it (no environment). */
export async function prepareExample(name: string): Promise<{ readonly mode: string; readonly strategies: ReadonlyArray<{ id: string; module: string; params: unknown }> }> {
  const file = fileURLToPath(new URL(`../../config/strategies/${name}.yml`, import.meta.url));
  const prepared = await prepareRun({ config: file }, {});
  if (!prepared.ok) throw prepared.error;
  return {
    mode: prepared.value.config.venue.mode,
    strategies: prepared.value.strategies.map((s) => ({ id: s.id, module: s.definition.name, params: s.params })),
  };
}
