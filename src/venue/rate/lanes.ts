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
 */
function onlyReduces(params: LaneParams): boolean {
  if (params.json !== undefined) {
    const legs = Array.isArray(params.json) ? (params.json as readonly unknown[]) : [params.json];
    const inner = legs.length === 1 && isRecord(legs[0]) && Array.isArray(legs[0]['orders']) ? (legs[0]['orders'] as readonly unknown[]) : legs;
    return inner.length > 0 && inner.every((leg) => isRecord(leg) && reduces((name) => textOf(leg[name])));
  }
  const pairs = [...(params.query ?? []), ...(params.form ?? [])];
  return reduces((name) => pairs.find(([key]) => key === name)?.[1]);
}

function reduces(value: (name: string) => string | undefined): boolean {
  if (value('reduceOnly')?.toLowerCase() === 'true' || value('closePosition')?.toLowerCase() === 'true') return true;
  const side = value('side')?.toUpperCase();
  if (side?.endsWith('_CLOSE') === true) return true;
  // v2 (hedge mode): selling the long side or buying the short side closes.
  const positionSide = value('positionSide')?.toUpperCase();
  return (side === 'SELL' && positionSide === 'LONG') || (side === 'BUY' && positionSide === 'SHORT');
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'boolean' || typeof value === 'number' ? String(value) : undefined;
}
