import type { OrderRef } from '../engine/types.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';

function refOf(orderId: string | undefined, clientOrderId: string | undefined): OrderRef {
  if (orderId !== undefined) return { orderId };
  return clientOrderId === undefined ? {} : { clientOrderId };
}

/**
 * v1 ids: orderId or origClientOrderId, at least one; when both are sent orderId wins (document 000).
 * `clientOrderId` is read as an alias of origClientOrderId (agent-kit, API-NOTES §4.7).
 */
export function readRefV1(r: ParamReader): OrderRef {
  const orderId = r.id('orderId');
  const clientOrderId = r.textOf(['origClientOrderId', 'clientOrderId']);
  if (orderId === undefined && clientOrderId === undefined) r.fail(rejects.missingOneOf('orderId', 'origClientOrderId'));
  return refOf(orderId, clientOrderId);
}

/** v2 ids: exactly one of orderId and origClientOrderId (mutually exclusive, document 000); both: -1128. */
export function readRefV2(r: ParamReader): OrderRef {
  const orderId = r.id('orderId');
  const clientOrderId = r.text('origClientOrderId');
  if (orderId === undefined && clientOrderId === undefined) r.fail(rejects.missingOneOf('orderId', 'origClientOrderId'));
  if (orderId !== undefined && clientOrderId !== undefined) r.fail(rejects.badCombination());
  return refOf(orderId, clientOrderId);
}
