import { err, ok } from '../../core/result.js';
import type { SimResult } from '../engine/types.js';
import { isJsonObject, jsonSource } from './param-source.js';
import type { ParamSource } from './param-source.js';
import { rejects } from './rejects.js';

/** v1 batchOrders: at most 10 orders of one symbol (document 000); v2 batch-orders takes the same size. */
export const MAX_BATCH_LEGS = 10;

/**
 * The legs of a batch body: a JSON array of order objects, 1 to 10 of them. A body that is not such an
 * array is -1130 (`batchOrders`); an empty one -1102.
 */
export function readBatchLegs(json: unknown): SimResult<readonly ParamSource[]> {
  if (!Array.isArray(json) || !json.every(isJsonObject)) return err(rejects.invalid('batchOrders'));
  if (json.length === 0) return err(rejects.missing('batchOrders'));
  if (json.length > MAX_BATCH_LEGS) return err(rejects.invalid('batchOrders'));
  return ok(json.map((leg: Readonly<Record<string, unknown>>) => jsonSource(leg)));
}

/** ORDERS budget of a batch request: one unit per leg (API-NOTES §2 RULE), at least one. */
export function batchOrdersOf(ctx: { readonly json: unknown }): number {
  return Array.isArray(ctx.json) ? Math.max(1, ctx.json.length) : 1;
}
