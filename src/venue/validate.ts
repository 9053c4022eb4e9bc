import type { Decimal } from '../core/decimal.js';
import type { EndpointDef } from '../protocol/endpoints.js';
import { endpointLabel } from '../protocol/endpoints.js';
import { invalidRequest } from './venue-error.js';
import type { VenueError } from './venue-error.js';

/**
 * Local checks of the spec's request rules. Each returns the first violation as a VenueError of kind
 * `invalid-request` naming the rule, or undefined; callers return it without sending anything.
 */
export type Check = VenueError | undefined;

export function firstViolation(...checks: ReadonlyArray<() => Check>): Check {
  for (const check of checks) {
    const found = check();
    if (found !== undefined) return found;
  }
  return undefined;
}

export function requireText(e: EndpointDef, field: string, value: string | undefined): Check {
  return value === undefined || value.trim() === '' ? invalidRequest(endpointLabel(e), 'mandatory-parameter', `${field} is required`, field) : undefined;
}

/** The order ids a request may carry: orderId and origClientOrderId. */
export interface OrderIds {
  readonly orderId?: string | undefined;
  readonly origClientOrderId?: string | undefined;
}

/** orderId and origClientOrderId are mutually exclusive and one of them is required. */
export function exactlyOneId(e: EndpointDef, ids: OrderIds): Check {
  const hasId = ids.orderId !== undefined && ids.orderId !== '';
  const hasClient = ids.origClientOrderId !== undefined && ids.origClientOrderId !== '';
  if (hasId && hasClient) return invalidRequest(endpointLabel(e), 'order-id-exclusive', 'send orderId or origClientOrderId, not both', 'orderId');
  return atLeastOneId(e, ids);
}

/** v1 ids: at least one of orderId and origClientOrderId; both may be sent (orderId wins). */
export function atLeastOneId(e: EndpointDef, ids: OrderIds): Check {
  const hasId = ids.orderId !== undefined && ids.orderId !== '';
  const hasClient = ids.origClientOrderId !== undefined && ids.origClientOrderId !== '';
  if (!hasId && !hasClient) return invalidRequest(endpointLabel(e), 'order-id-required', 'one of orderId or origClientOrderId is required', 'orderId');
  if (hasId && !/^\d+$/.test(ids.orderId ?? '')) return invalidRequest(endpointLabel(e), 'order-id-format', 'orderId must be an integer id', 'orderId');
  return undefined;
}

/** List `limit`: integer in [min, max] when given. */
export function limitInRange(e: EndpointDef, limit: number | undefined, min = 1, max = 1000, field = 'limit'): Check {
  if (limit === undefined) return undefined;
  return Number.isInteger(limit) && limit >= min && limit <= max
    ? undefined
    : invalidRequest(endpointLabel(e), `${field}-range`, `${field} must be an integer from ${min} to ${max}, got ${limit}`, field);
}

/** A leverage: a positive safe integer. */
export function positiveLeverage(e: EndpointDef, leverage: number): Check {
  return Number.isSafeInteger(leverage) && leverage > 0
    ? undefined
    : invalidRequest(endpointLabel(e), 'leverage-positive-integer', `leverage must be a positive integer, got ${leverage}`, 'leverage');
}

export function positive(e: EndpointDef, field: string, value: Decimal | undefined): Check {
  if (value === undefined) return undefined;
  return value.isFinite() && value.gt(0) ? undefined : invalidRequest(endpointLabel(e), `${field}-positive`, `${field} must be greater than 0`, field);
}

export function notNegative(e: EndpointDef, field: string, value: Decimal | undefined): Check {
  if (value === undefined) return undefined;
  return value.isFinite() && value.gte(0) ? undefined : invalidRequest(endpointLabel(e), `${field}-not-negative`, `${field} must not be negative`, field);
}

/** At least one of quantity and valueQuantity must be non-zero (v2 order, algo order). */
export function someQuantity(e: EndpointDef, quantity: Decimal | undefined, valueQuantity: Decimal | undefined): Check {
  const q = quantity !== undefined && !quantity.isZero();
  const v = valueQuantity !== undefined && !valueQuantity.isZero();
  if (!q && !v) return invalidRequest(endpointLabel(e), 'quantity-required', 'at least one of quantity and valueQuantity must be non-zero', 'quantity');
  return firstViolation(
    () => notNegative(e, 'quantity', quantity),
    () => notNegative(e, 'valueQuantity', valueQuantity),
  );
}
