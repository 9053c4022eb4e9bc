import type { Logger } from '../../core/logger.js';
import type { HandlerContext, StrategyDefinition, StrategyHandlers } from '../../engine/strategy/api.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { RunnerState } from '../../engine/strategy/runner.js';
import { handlersOf, wrappedDefinition } from '../../engine/strategy/wrapped-definition.js';
import type { GlobalRiskLimits, RiskLimits } from '../../model/risk-limits.js';
import type { LogLevel } from '../../settings/daemon-config/daemon-config.js';
import type { ReloadPlan, ReloadRejection } from '../daemon/reload.js';

/** Limits read through to the newest values: the risk engine keeps this object and reads it at every check. */
class LiveLimits<T extends RiskLimits> {
  private current: T;
  readonly view: T;

  constructor(initial: T) {
    this.current = initial;
    // Forwards every key, so a limit added to the model later is reloadable too.
    this.view = new Proxy({} as T, {
      get: (_target, key) => Reflect.get(this.current, key) as unknown,
      has: (_target, key) => Reflect.has(this.current, key),
      ownKeys: () => Reflect.ownKeys(this.current),
      getOwnPropertyDescriptor: (_target, key) => {
        const found = Reflect.getOwnPropertyDescriptor(this.current, key);
        return found === undefined ? undefined : { ...found, configurable: true };
      },
    });
  }

  set(next: T): void {
    this.current = next;
  }
}

interface Slot {
  params: unknown;
  readonly limits: LiveLimits<RiskLimits>;
  readonly instance: StrategyInstance;
}

/** What LiveSettings needs of the kernel's strategy host. */
export interface StrategyControl {
  state(id: string): RunnerState | undefined;
  stop(id: string): Promise<boolean>;
  start(id: string): Promise<boolean>;
}

/**
 * The settings a reload may change while the daemon runs: strategy params (the instance restarts with
 * them), risk limits (global and per strategy, read live by the risk engine) and the log level. The
 * kernel is built from `instances` and `globalLimits`; `wrap` adds instrumentation to every handler set.
 */
export class LiveSettings {
  readonly globalLimits: GlobalRiskLimits;
  readonly instances: readonly StrategyInstance[];
  private readonly global: LiveLimits<GlobalRiskLimits>;
  private readonly slots = new Map<string, Slot>();

  constructor(global: GlobalRiskLimits, instances: readonly StrategyInstance[], wrap: (id: string, handlers: StrategyHandlers) => StrategyHandlers = (_id, h) => h) {
    this.global = new LiveLimits(global);
    this.globalLimits = this.global.view;
    this.instances = instances.map((instance) => {
      const limits = new LiveLimits(instance.limits);
      const slot: Slot = { params: instance.params, limits, instance };
      this.slots.set(instance.id, slot);
      return { ...instance, limits: limits.view, definition: liveDefinition(instance.definition, slot, (h) => wrap(instance.id, h)) };
    });
  }

  /** The risk limits in force for the instance. */
  limits(id: string): RiskLimits | undefined {
    return this.slots.get(id)?.limits.view;
  }

  /** The params the instance runs (or will next start) with. */
  params(id: string): unknown {
    return this.slots.get(id)?.params;
  }

  /**
   * Applies a plan: new limits at once; new params restart a running instance (its onStop and
   * clean-up intents run, then onStart with the new params). A stopped or failed instance keeps its
   * state and gets the params at its next start. Answers what could not be applied.
   */
  async apply(plan: ReloadPlan, host: StrategyControl, logger: Logger): Promise<readonly ReloadRejection[]> {
    const rejected: ReloadRejection[] = [];
    if (plan.globalLimits !== undefined) this.global.set(plan.globalLimits);
    for (const change of plan.strategies) {
      const slot = this.slots.get(change.id);
      if (slot === undefined) continue;
      if (change.limits !== undefined) slot.limits.set(change.limits);
      if (!('params' in change)) continue;
      slot.params = change.params;
      if (host.state(change.id) !== 'running') continue;
      await host.stop(change.id);
      await host.start(change.id);
      logger.info({ strategy: change.id }, 'strategy restarted with its new params');
    }
    if (plan.logLevel !== undefined && !setLogLevel(logger, plan.logLevel)) {
      rejected.push({ path: 'log.level', reason: 'this logger cannot change its level: needs a restart' });
    }
    return rejected;
  }
}

/** A handler-style definition that builds the original with the slot's current params. */
function liveDefinition(definition: StrategyDefinition, slot: Slot, wrap: (handlers: StrategyHandlers) => StrategyHandlers): StrategyDefinition {
  return wrappedDefinition(definition, (ctx: HandlerContext<unknown>) => wrap(handlersOf(definition, { ...ctx, params: slot.params })));
}

/** pino's root logger: setting `level` reaches its children too. False for a logger without a level. */
export function setLogLevel(logger: Logger, level: LogLevel): boolean {
  const target = logger as Logger & { level?: unknown };
  if (typeof target.level !== 'string') return false;
  target.level = level;
  return true;
}
