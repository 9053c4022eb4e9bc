import type { HandlerContext, StrategyDefinition, StrategyHandlers } from './api.js';
import { streamToHandlers } from '../stream-handlers.js';

/** The handlers a definition makes in `ctx`: its own, or its stream turned into handlers. */
export function handlersOf(definition: StrategyDefinition, ctx: HandlerContext<unknown>): StrategyHandlers {
  return definition.style === 'handlers' ? definition.create(ctx) : streamToHandlers(definition, ctx);
}

/**
 * `definition` as a handler-style definition whose handlers `create` makes, with everything else it declares
 * (name, params, position scope, market data kinds): how the backtest and the live settings wrap a strategy
 * without changing how the kernel treats it.
 */
export function wrappedDefinition(definition: StrategyDefinition, create: (ctx: HandlerContext<unknown>) => StrategyHandlers): StrategyDefinition {
  const declared = definition.style === 'handlers' ? withoutCreate(definition) : withoutRun(definition);
  return { ...declared, style: 'handlers', create };
}

function withoutCreate({ style: _style, create: _create, ...declared }: Extract<StrategyDefinition, { style: 'handlers' }>) {
  return declared;
}

function withoutRun({ style: _style, run: _run, ...declared }: Extract<StrategyDefinition, { style: 'stream' }>) {
  return declared;
}
