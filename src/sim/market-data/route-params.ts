import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { RequestParams, RouteError } from '../server/routing/types.js';
import { routeError } from '../server/routing/types.js';
import type { KlineInterval } from './klines/intervals.js';
import { isKlineInterval } from './klines/intervals.js';

/**
 * Parameter reading for the public routes. Two services answer them live: the quote service
 * (`/quote/...`, codes -100011/-100012, API-NOTES §3) and the API gateway (`/api/...`, -1102/-1121).
 * A `Flavor` picks the codes of the route's service. Every refusal is HTTP 400 (PROBE, API-NOTES §3).
 */
export type Flavor = 'quote' | 'api';

const BAD_REQUEST = 400;

export type Read<T> = Result<T, RouteError>;

export const publicErrors = {
  missing(flavor: Flavor, name: string, type: 'String' | 'Long' | 'Integer' = 'String'): RouteError {
    return flavor === 'quote'
      ? routeError(-100012, `Parameter ${name} [${type}] missing!`, BAD_REQUEST)
      : routeError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`, BAD_REQUEST);
  },
  unknownSymbol(flavor: Flavor): RouteError {
    return flavor === 'quote' ? routeError(-100011, 'Not supported symbols', BAD_REQUEST) : routeError(-1121, 'Invalid symbol.', BAD_REQUEST);
  },
  /** -1130 keeps the exchange's misspelling "paramter" (API-NOTES §3). */
  invalid(name: string): RouteError {
    return routeError(-1130, `Data sent for paramter '${name}' is not valid.`, BAD_REQUEST);
  },
  badInterval(): RouteError {
    return routeError(-1120, 'Invalid interval.', BAD_REQUEST);
  },
} as const;

/** A parameter's text; an empty value counts as absent. */
export function textParam(params: RequestParams, name: string): string | undefined {
  const value = params.get(name);
  return value === undefined || value === '' ? undefined : value;
}

/** The first present name of several (aliases such as `from` / `startTime`). */
export function textParamOf(params: RequestParams, names: readonly string[]): { readonly name: string; readonly text: string } | undefined {
  for (const name of names) {
    const text = textParam(params, name);
    if (text !== undefined) return { name, text };
  }
  return undefined;
}

export function requiredText(params: RequestParams, name: string, flavor: Flavor): Read<string> {
  const text = textParam(params, name);
  return text === undefined ? err(publicErrors.missing(flavor, name)) : ok(text);
}

/** An optional integer (digits with an optional minus sign, safe range); anything else is -1130. */
export function intParam(params: RequestParams, name: string): Read<number | undefined> {
  const text = textParam(params, name);
  return text === undefined ? ok(undefined) : parseIntText(text, name);
}

/** The first present alias as an integer. */
export function intParamOf(params: RequestParams, names: readonly string[]): Read<number | undefined> {
  const found = textParamOf(params, names);
  return found === undefined ? ok(undefined) : parseIntText(found.text, found.name);
}

function parseIntText(text: string, name: string): Read<number> {
  if (!/^-?\d{1,16}$/.test(text)) return err(publicErrors.invalid(name));
  const value = Number(text);
  return Number.isSafeInteger(value) ? ok(value) : err(publicErrors.invalid(name));
}

/** An optional non-negative 64-bit id (fromId, endId), as a bigint. */
export function idParam(params: RequestParams, name: string): Read<bigint | undefined> {
  const text = textParam(params, name);
  if (text === undefined) return ok(undefined);
  return /^\d{1,19}$/.test(text) ? ok(BigInt(text)) : err(publicErrors.invalid(name));
}

export interface LimitRule {
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** `limit`: default when absent, clamped into [min, max] when out of range (the live routes clamp rather than refuse). */
export function limitParam(params: RequestParams, rule: LimitRule, name = 'limit'): Read<number> {
  const value = intParam(params, name);
  if (!value.ok) return value;
  if (value.value === undefined) return ok(rule.default);
  return ok(Math.min(rule.max, Math.max(rule.min, value.value)));
}

export function intervalParam(params: RequestParams, flavor: Flavor, name = 'interval'): Read<KlineInterval> {
  const text = textParam(params, name);
  if (text === undefined) return err(publicErrors.missing(flavor, name));
  return isKlineInterval(text) ? ok(text) : err(publicErrors.badInterval());
}
