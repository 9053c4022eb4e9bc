import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import type { BusEvent, HandlerContext } from '../../../src/engine/strategy/api.js';
import { defineStrategy } from '../../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { Intent } from '../../../src/model/intents.js';
import type { RiskLimits } from '../../../src/model/risk-limits.js';

const params = z.strictObject({});
type ProbeContext = HandlerContext<z.output<typeof params>>;

/**
 * A strategy the test drives: it records every event it receives and emits the intents the test
 * hands it (through its own context, so they take the strategy road: risk engine, executor).
 * `onStart` emits `startIntents`, as a strategy that places its orders at start would.
 */
export class Probe {
  readonly events: BusEvent[] = [];
  private context: ProbeContext | undefined;

  constructor(
    readonly id: string,
    readonly symbols: readonly string[],
    private readonly startIntents: readonly Intent[] = [],
  ) {}

  instance(limits: RiskLimits = {}): StrategyInstance {
    const definition = defineStrategy({
      name: 'probe',
      description: 'emits what the test asks for and records what it sees',
      params,
      create: (ctx) => {
        this.context = ctx;
        return {
          onStart: () => {
            for (const intent of this.startIntents) ctx.emit(intent);
          },
          onEvent: (event) => {
            this.events.push(event);
          },
        };
      },
    });
    return { id: this.id, symbols: this.symbols, definition, params: {}, limits };
  }

  get ctx(): ProbeContext {
    if (this.context === undefined) throw new Error(`strategy ${this.id} has not been created by a daemon yet`);
    return this.context;
  }

  emit(intent: Intent): void {
    this.ctx.emit(intent);
  }

  clientOrderId(key: string): string {
    return this.ctx.clientOrderIdFor(key);
  }

  of<T extends BusEvent['type']>(type: T): Array<Extract<BusEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<BusEvent, { type: T }> => e.type === type);
  }

  /** Contracts the strategy has seen filled on one of its orders (its account.fill events). */
  filled(clientOrderId: string): string {
    return this.of('account.fill')
      .filter((e) => e.fill.clientOrderId === clientOrderId)
      .reduce((sum, e) => sum.add(e.fill.qty), dec(0))
      .toFixed();
  }
}
