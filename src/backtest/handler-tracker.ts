import type { StrategyHandlers } from '../engine/strategy/api.js';
import type { StrategyInstance } from '../engine/strategy/instance.js';
import { handlersOf, wrappedDefinition } from '../engine/strategy/wrapped-definition.js';

/**
 * Counts strategy handlers still running asynchronously, so the backtest lets them finish before
 * virtual time moves on (live, a handler's microseconds are no time at all for the market). The
 * instance is otherwise unchanged: the kernel runs the same handlers (a stream strategy is turned into
 * handlers as the kernel does, and the definition keeps all it declares).
 */
export class HandlerTracker {
  pending = 0;

  track(instance: StrategyInstance): StrategyInstance {
    const definition = instance.definition;
    const tracked = wrappedDefinition(definition, (ctx) => this.wrap(handlersOf(definition, ctx)));
    return { ...instance, definition: tracked };
  }

  private wrap(handlers: StrategyHandlers): StrategyHandlers {
    // Each handler is called as a method of `handlers`, as the kernel calls it (no bound copy per event).
    const counted = (returned: void | Promise<void>): void | Promise<void> => {
      if (returned === undefined || typeof (returned as Promise<void>).then !== 'function') return returned;
      this.pending++;
      return (returned as Promise<void>).finally(() => {
        this.pending--;
      });
    };
    return {
      onStart: () => counted(handlers.onStart?.()),
      onEvent: (event) => counted(handlers.onEvent?.(event)),
      onStop: () => counted(handlers.onStop?.()),
    };
  }
}
