import { createHash } from 'node:crypto';
import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { Decimal } from '../../core/decimal.js';
import type { Kernel } from '../../engine/kernel.js';
import type { SignalIntentOptions } from '../../engine/strategy/api-signals.js';
import { signalIntents } from '../../engine/strategy/api-signals.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { Intent } from '../../model/intents.js';
import type { ExternalSignal } from '../../model/signal-events.js';

/** The module name of the bundled signal strategy (strategies/signal). */
export const SIGNAL_STRATEGY = 'signal';

/** What became of one intent a signal gave rise to. */
export interface SignalOrder {
  readonly key: string;
  readonly clientOrderId: string;
  readonly side?: string;
  readonly positionSide?: string;
  readonly orderType?: string;
  readonly quantity?: string;
  readonly closePosition?: boolean;
  /** approved: passed risk (dry run); submitted: the exchange took it; pending: sent, no answer yet. */
  readonly state: 'approved' | 'submitted' | 'pending' | 'denied' | 'failed';
  readonly code?: string;
  readonly message?: string;
}

/** A signal strategy instance the endpoint may feed. */
export interface SignalStrategy {
  readonly id: string;
  readonly symbols: readonly string[];
  readonly options: Omit<SignalIntentOptions, 'keyPrefix'>;
}

/**
 * Between the endpoint and the kernel: which instances take signals, the dry run (the intents the
 * strategy would emit, risk-checked, not sent) and the real thing (the signal on the bus, the
 * strategy's intents through risk and executor, their fate read from the bus).
 */
export class SignalDispatch {
  private readonly strategies: ReadonlyMap<string, SignalStrategy>;

  constructor(
    private readonly kernel: Kernel,
    instances: readonly StrategyInstance[],
    private readonly time: TimeSource,
  ) {
    this.strategies = new Map(instances.flatMap((i) => (i.definition.name === SIGNAL_STRATEGY ? [[i.id, signalStrategy(i)] as const] : [])));
  }

  strategy(id: string): SignalStrategy | undefined {
    return this.strategies.get(id);
  }

  /** Why the strategy cannot take a signal now (the kernel not running, the instance stopped), or undefined. */
  notReady(id: string): string | undefined {
    if (this.kernel.state !== 'running') return `the daemon is ${this.kernel.state}`;
    const state = this.kernel.strategies.status().find((s) => s.id === id)?.state;
    return state === 'running' ? undefined : `strategy ${id} is ${state ?? 'unknown'}`;
  }

  /** The intents the strategy would emit for the signal, each with the risk engine's answer. */
  dryRun(strategy: SignalStrategy, signal: ExternalSignal): readonly SignalOrder[] {
    const ref = signalRef(strategy.id, signal.key);
    return this.intentsOf(strategy, signal, ref).map((intent) => {
      const checked = this.kernel.risk.preview(strategy.id, intent);
      const key = intent.type === 'place' ? (intent.key ?? '') : '';
      const base = { ...describe(intent), key, clientOrderId: this.kernel.executor.clientOrderId(strategy.id, key) };
      return checked.ok ? { ...base, state: 'approved' as const } : { ...base, state: 'denied' as const, code: checked.error.code, message: checked.error.message };
    });
  }

  /**
   * Puts the signal on the bus for its strategy and answers what became of the intents it emitted: once
   * the strategy has handled it, each intent is denied, failed or submitted (the exchange's answer), or
   * still pending when `waitMs` (on the daemon's scheduler) runs out.
   */
  async submit(strategy: SignalStrategy, signal: ExternalSignal, waitMs: number): Promise<readonly SignalOrder[]> {
    const ref = signalRef(strategy.id, signal.key);
    const fates = new Map<string, SignalOrder>();
    const ids = new Map<string, string>(); // client order id → intent key
    const idOf = (key: string): string => {
      const id = this.kernel.executor.clientOrderId(strategy.id, key);
      ids.set(id, key);
      return id;
    };
    let settle: (() => void) | undefined;
    const subscription: Subscription = this.kernel.events$.subscribe((event) => {
      const fate = fateOf(event, strategy.id, ref, idOf, ids);
      if (fate === undefined) return;
      fates.set(fate.key, { ...(fates.get(fate.key) ?? {}), ...fate });
      settle?.();
    });
    try {
      const { time } = this;
      this.kernel.ingest({ type: 'signal.received', time: time.clock.now(), strategyId: strategy.id, signal, ref });
      await this.kernel.strategies.idle();
      // Every intent the strategy emitted is decided by the risk engine now: denied (seen above) or
      // journaled and on its way (the executor knows its owner).
      const emitted: string[] = [];
      for (let n = 0; ; n++) {
        const key = `${ref}-${n}`;
        const id = idOf(key);
        if (!fates.has(key) && this.kernel.executor.ownerOf(id) !== strategy.id) break;
        emitted.push(key);
        if (!fates.has(key)) fates.set(key, { key, clientOrderId: id, state: 'pending' });
      }
      const undecided = (): boolean => emitted.some((key) => fates.get(key)?.state === 'pending');
      if (undecided()) {
        await new Promise<void>((resolve) => {
          const timer = time.scheduler.schedule(() => resolve(), waitMs);
          settle = () => {
            if (undecided()) return;
            timer.unsubscribe();
            resolve();
          };
        });
      }
      return emitted.map((key) => fates.get(key) ?? { key, clientOrderId: idOf(key), state: 'pending' });
    } finally {
      subscription.unsubscribe();
    }
  }

  private intentsOf(strategy: SignalStrategy, signal: ExternalSignal, ref: string): readonly Intent[] {
    return signalIntents(signal, (symbol, side) => this.kernel.cache.position(symbol, side)?.qty, { ...strategy.options, keyPrefix: ref });
  }
}

/**
 * The intent-key prefix of a signal: a digest of the strategy and the idempotency key, so the client
 * order ids of its orders are fixed by the key (a repeat that slipped past the journal would meet the
 * executor's own duplicate check).
 */
export function signalRef(strategyId: string, key: string): string {
  return `sig${createHash('sha256').update(`${strategyId}\n${key}`).digest('hex').slice(0, 12)}`;
}

function fateOf(event: BusEvent, strategyId: string, ref: string, idOf: (key: string) => string, ids: ReadonlyMap<string, string>): SignalOrder | undefined {
  if (event.type === 'intent.denied' && event.strategyId === strategyId && event.intent.type === 'place' && event.intent.key?.startsWith(`${ref}-`) === true) {
    const key = event.intent.key;
    return { ...describe(event.intent), key, clientOrderId: idOf(key), state: 'denied', code: event.denial.code, message: event.denial.message };
  }
  if ((event.type === 'command.submitted' || event.type === 'command.failed') && event.strategyId === strategyId && event.command.type === 'place-order') {
    const id = event.command.clientOrderId;
    const key = ids.get(id) ?? keyAmong(id, ref, idOf);
    if (key === undefined) return undefined;
    const { command } = event;
    const order = { key, clientOrderId: id, side: command.side, positionSide: command.positionSide, orderType: command.orderType };
    return event.type === 'command.submitted' ? { ...order, state: 'submitted' } : { ...order, state: 'failed', code: event.failure.code, message: event.failure.message };
  }
  return undefined;
}

/** A signal gives rise to a handful of intents at most: the key of `id` among the first few. */
function keyAmong(id: string, ref: string, idOf: (key: string) => string): string | undefined {
  for (let n = 0; n < 8; n++) if (idOf(`${ref}-${n}`) === id) return `${ref}-${n}`;
  return undefined;
}

function describe(intent: Intent): Partial<SignalOrder> {
  if (intent.type !== 'place') return {};
  return {
    side: intent.side,
    ...(intent.positionSide === undefined ? {} : { positionSide: intent.positionSide }),
    orderType: intent.orderType,
    ...(intent.quantity === undefined || intent.closePosition === true ? {} : { quantity: intent.quantity.toFixed() }),
    ...(intent.closePosition === true ? { closePosition: true } : {}),
  };
}

/** The instance's params as the signal strategy's schema produced them (strategies/signal/params.ts). */
function signalStrategy(instance: StrategyInstance): SignalStrategy {
  const params = instance.params;
  const field = (name: string): unknown => (typeof params === 'object' && params !== null && name in params ? (params as Readonly<Record<string, unknown>>)[name] : undefined);
  const quantity = field('quantity');
  const closeOpposite = field('closeOpposite');
  return {
    id: instance.id,
    symbols: instance.symbols,
    options: { defaultQuantity: quantity instanceof Decimal ? quantity : new Decimal(1), closeOpposite: closeOpposite !== false },
  };
}
