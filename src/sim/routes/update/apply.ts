import { invariant } from '../../../core/errors.js';
import { ok } from '../../../core/result.js';
import type { AccountRef, AlgoOrderView, OrderView, SimResult } from '../../engine/types.js';
import type { SimVenue } from '../../engine/sim-venue.js';
import type { UpdateRequest } from './request.js';
import type { OriginalOrder } from './rules.js';
import { resolveUpdate } from './rules.js';

export type UpdatedOrder = { readonly kind: 'order'; readonly view: OrderView } | { readonly kind: 'algo'; readonly view: AlgoOrderView };

/** The order a modify names: LIMIT requests look among regular orders, STOP and STOP_PROFIT_LOSS among rows. */
function findOriginal(venue: SimVenue, account: AccountRef, request: UpdateRequest): SimResult<OriginalOrder> {
  if (request.type === 'LIMIT') {
    const found = venue.getOrder(account, request.ref);
    return found.ok ? ok({ kind: 'order', view: found.value }) : found;
  }
  const found = venue.getAlgoOrder(account, request.ref);
  return found.ok ? ok({ kind: 'algo', view: found.value }) : found;
}

/** Finds the original, applies the modify rules to it and hands the resolved command to the engine. */
export function applyUpdate(venue: SimVenue, account: AccountRef, request: UpdateRequest, generation: 'v1' | 'v2'): SimResult<UpdatedOrder> {
  const original = findOriginal(venue, account, request);
  if (!original.ok) return original;
  const symbol = original.value.view.symbol;
  const instrument = venue.instrument(symbol);
  invariant(instrument !== undefined, 'SIM_ORDER_SYMBOL', `order ${original.value.view.orderId} names unlisted ${symbol}`);
  const lastPrice = venue.lastPrice(symbol);
  const resolved = resolveUpdate(request, original.value, { instrument, ...(lastPrice === undefined ? {} : { lastPrice }) }, generation);
  if (!resolved.ok) return resolved;
  const ref = { orderId: original.value.view.orderId };
  const change = resolved.value;
  if (change.kind === 'order') {
    const modified = venue.modifyOrder(account, ref, change.command);
    return modified.ok ? ok({ kind: 'order', view: modified.value }) : modified;
  }
  const modified = venue.modifyAlgoOrder(account, ref, change.family, change.command);
  return modified.ok ? ok({ kind: 'algo', view: modified.value }) : modified;
}
