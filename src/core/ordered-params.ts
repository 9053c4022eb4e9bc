/** Request parameters in the order they are sent (the exchange signs them in arrival order). */
export type ParamValue = string | number | boolean | { toFixed(): string } | undefined;
export type OrderedParams = ReadonlyArray<readonly [string, string]>;

/** Keeps insertion order and drops undefined values; decimals are written without exponent. */
export function orderedParams(input: Readonly<Record<string, ParamValue>>): OrderedParams {
  const out: Array<readonly [string, string]> = [];
  // for…in over the own keys: the same order as Object.entries, without its array of pairs per request.
  for (const key in input) {
    if (!Object.hasOwn(input, key)) continue;
    const value = input[key];
    if (value === undefined) continue;
    out.push([key, typeof value === 'object' ? value.toFixed() : String(value)]);
  }
  return out;
}

/** `k=v&k=v` with values percent-encoded the way URLSearchParams would, order preserved. */
export function encodeParams(params: OrderedParams): string {
  let text = '';
  for (const [k, v] of params) text += `${text === '' ? '' : '&'}${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  return text;
}
