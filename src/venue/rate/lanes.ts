import type { OrderedParams } from '../../core/ordered-params.js';
import type { EndpointDef } from '../../protocol/endpoints.js';

/**
 * The lanes of the rate governor's queue, most urgent first. When the governor must hold requests (a
 * full window, a 429 pause), a waiting request of an earlier lane is granted before any of a later one:
 * - `protect`: cancels, reduce-only and closing orders — what takes risk off the book;
 * - `trade`: new orders and modifications, and the account queries trading relies on;
 * - `data`: public market data and downloads.
 * Within a lane requests keep their order of arrival.
 */
export const LANES = ['protect', 'trade', 'data'] as const;
export type RateLane = (typeof LANES)[number];

export function lanePriority(lane: RateLane): number {
  return LANES.indexOf(lane);
}

/** One request's business parameters, as the transport holds them (query, form or JSON body). */
export interface LaneParams {
  readonly query?: OrderedParams;
  readonly form?: OrderedParams;
  readonly json?: unknown;
}

/** The lane of a request: by its endpoint, and for an order request by whether it only reduces. */
export function laneOf(endpoint: EndpointDef, params: LaneParams): RateLane {
  if (endpoint.security === 'NONE') return 'data';
  if (endpoint.method === 'DELETE' && endpoint.security === 'TRADE') return 'protect';
  if (endpoint.path.endsWith('/flashClose')) return 'protect';
  if (endpoint.ordersBudget && endpoint.method === 'POST' && !endpoint.path.includes('/update') && onlyReduces(params)) return 'protect';
  return 'trade';
}

/**
 * Whether every order in the parameters only reduces a position: `reduceOnly`/`closePosition` true, a
 * v1 `…_CLOSE` side, or a v2 side against its `positionSide` (SELL of LONG, BUY of SHORT). A batch counts only when every leg does.
 * Read field by field, without closures or arrays of legs: a place runs this once per order, cold.
 */
function onlyReduces(params: LaneParams): boolean {
  const { json } = params;
  if (json !== undefined) {
    if (!Array.isArray(json)) {
      if (!isRecord(json)) return false;
      const orders = json['orders'];
      return Array.isArray(orders) ? everyLegReduces(orders as readonly unknown[]) : legReduces(json);
    }
    const legs = json as readonly unknown[];
    const only = legs.length === 1 ? legs[0] : undefined;
    if (isRecord(only) && Array.isArray(only['orders'])) return everyLegReduces(only['orders'] as readonly unknown[]);
    return everyLegReduces(legs);
  }
  return reduces(paramOf(params, 'reduceOnly'), paramOf(params, 'closePosition'), paramOf(params, 'side'), paramOf(params, 'positionSide'));
}

function everyLegReduces(legs: readonly unknown[]): boolean {
  if (legs.length === 0) return false;
  for (const leg of legs) if (!isRecord(leg) || !legReduces(leg)) return false;
  return true;
}

function legReduces(leg: Readonly<Record<string, unknown>>): boolean {
  return reduces(textOf(leg['reduceOnly']), textOf(leg['closePosition']), textOf(leg['side']), textOf(leg['positionSide']));
}

/** A query's or form's first value of `name` (the query first). */
function paramOf(params: LaneParams, name: string): string | undefined {
  for (const pairs of [params.query, params.form]) {
    if (pairs === undefined) continue;
    for (const [key, value] of pairs) if (key === name) return value;
  }
  return undefined;
}

function reduces(reduceOnly: string | undefined, closePosition: string | undefined, sideText: string | undefined, positionSideText: string | undefined): boolean {
  if (reduceOnly?.toLowerCase() === 'true' || closePosition?.toLowerCase() === 'true') return true;
  const side = sideText?.toUpperCase();
  if (side?.endsWith('_CLOSE') === true) return true;
  // v2 (hedge mode): selling the long side or buying the short side closes.
  const positionSide = positionSideText?.toUpperCase();
  return (side === 'SELL' && positionSide === 'LONG') || (side === 'BUY' && positionSide === 'SHORT');
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'boolean' || typeof value === 'number' ? String(value) : undefined;
}
