/** A JSON integer written as a bare number token from its exact digits (64-bit ids the API wants unquoted). */
export class JsonInteger {
  constructor(readonly digits: string) {
    if (!/^-?\d+$/.test(digits)) throw new RangeError(`not an integer: ${digits}`);
  }
}

export type JsonWireValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | JsonInteger
  | { toFixed(): string }
  | readonly JsonWireValue[]
  | { readonly [key: string]: JsonWireValue };

/** How a decimal is written: the exchange wants quoted strings, the catalog bare numbers. */
export type DecimalStyle = 'string' | 'number';

/**
 * Compact JSON for request bodies, keys in insertion order, undefined dropped, decimals without
 * exponent (quoted by default). What this returns is exactly what is signed and sent. A non-finite
 * number or decimal is a bug upstream and throws RangeError.
 */
export function writeWireJson(value: JsonWireValue, decimals: DecimalStyle = 'string'): string {
  if (value === null) return 'null';
  if (value instanceof JsonInteger) return value.digits;
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map((v: JsonWireValue) => writeWireJson(v === undefined ? null : v, decimals)).join(',')}]`;
  if (isDecimalLike(value)) {
    const finite = (value as { isFinite?: () => boolean }).isFinite;
    if (typeof finite === 'function' && !finite.call(value)) {
      throw new RangeError(`not a finite decimal: ${value.toFixed()}`);
    }
    // A decimal's fixed text is digits, a point and a sign: nothing JSON escapes.
    return decimals === 'number' ? value.toFixed() : `"${value.toFixed()}"`;
  }
  const record = value as { readonly [key: string]: JsonWireValue };
  let text = '{';
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (v === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${writeWireJson(v, decimals)}`;
  }
  return `${text}}`;
}

function isDecimalLike(value: object): value is { toFixed(): string } {
  return typeof (value as { toFixed?: unknown }).toFixed === 'function' && !Array.isArray(value) && value.constructor !== Object;
}
