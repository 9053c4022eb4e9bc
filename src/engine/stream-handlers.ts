import type { Subscription } from 'rxjs';
import { EventBus } from '../core/event-bus.js';
import type { HandlerContext, StrategyHandlers, StreamStrategyDefinition } from './strategy/api.js';
import type { BusEvent } from '../model/bus-events.js';
import type { z } from 'zod';

/**
 * Runs an RxJS-style strategy on the handler runtime: its events$ is a bus the handlers feed (multicast
 * as a Subject, without a Subject's closure and iterator per event), its intents go to `emit`. An error
 * in its pipeline is rethrown from the next handler call, so the runtime stops the instance exactly as
 * it stops a failing handler.
 */
export function streamToHandlers<S extends z.ZodType>(definition: StreamStrategyDefinition<S>, ctx: HandlerContext<z.output<S>>): StrategyHandlers {
  const events = new EventBus<BusEvent>();
  let subscription: Subscription | undefined;
  let failure: unknown;
  let failed = false;
  const check = (): void => {
    if (failed) throw failure;
  };
  return {
    onStart: () => {
      subscription = definition.run(ctx, events.observable).subscribe({
        next: (intent) => ctx.emit(intent),
        error: (error: unknown) => {
          failed = true;
          failure = error;
        },
      });
      check();
    },
    onEvent: (event) => {
      events.next(event);
      check();
    },
    onStop: () => {
      events.complete();
      subscription?.unsubscribe();
      check();
    },
  };
}
