import type { RequestParams } from '../server/routing/types.js';

/**
 * One parameter as a route sees it: absent, its text, or `malformed` when a JSON body held an object
 * or array where a scalar belongs. JSON numbers and booleans become their text, so "0.1" and 0.1 read
 * alike; null and "" read as absent.
 */
export type ParamValue = { readonly kind: 'absent' } | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'malformed' };

export interface ParamSource {
  value(name: string): ParamValue;
}

const ABSENT: ParamValue = { kind: 'absent' };
const MALFORMED: ParamValue = { kind: 'malformed' };

function textValue(text: string): ParamValue {
  return text === '' ? ABSENT : { kind: 'text', text };
}

/** Query and form parameters as the server decoded them. */
export function paramsSource(params: RequestParams): ParamSource {
  return {
    value(name) {
      const text = params.get(name);
      return text === undefined ? ABSENT : textValue(text);
    },
  };
}

/** A JSON value as one parameter. */
export function jsonScalar(value: unknown): ParamValue {
  if (value === undefined || value === null) return ABSENT;
  if (typeof value === 'string') return textValue(value);
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'text', text: String(value) } : MALFORMED;
  if (typeof value === 'boolean') return { kind: 'text', text: String(value) };
  return MALFORMED;
}

export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of a JSON object body, then `fallback` for names the body lacks (v2 POSTs carry their
 * business parameters in JSON and `category`/`timestamp` in the query; form bodies are accepted too).
 */
export function jsonSource(body: Readonly<Record<string, unknown>>, fallback?: ParamSource): ParamSource {
  return {
    value(name) {
      const own = Object.prototype.hasOwnProperty.call(body, name) ? jsonScalar(body[name]) : ABSENT;
      return own.kind === 'absent' && fallback !== undefined ? fallback.value(name) : own;
    },
  };
}

/** Where a single-order route reads: the JSON object body first when there is one, then query/form. */
export function requestSource(ctx: { readonly params: RequestParams; readonly json: unknown }): ParamSource {
  const params = paramsSource(ctx.params);
  return isJsonObject(ctx.json) ? jsonSource(ctx.json, params) : params;
}
