import type { RequestBody } from './request-body.js';

/** A request split for verification (API-NOTES §1.2 simulator RULE, steps 1–3). */
export interface SignatureParts {
  /** The raw query with the `signature` pair cut out. */
  readonly query: string;
  /** The body as hashed: a form with the `signature` pair cut out, JSON without CR/LF, empty when none. */
  readonly body: string;
  /** The signature as sent; undefined when absent or empty. */
  readonly signature: string | undefined;
}

/** Cuts `signature=<hex>` out of the query, or else out of a form body. */
export function cutSignature(rawQuery: string, body: RequestBody): SignatureParts {
  const fromQuery = cutPair(rawQuery, 'signature');
  const bodyText = body.kind === 'none' ? '' : body.text;
  if (fromQuery.found || body.kind !== 'form') {
    return { query: fromQuery.rest, body: bodyText, signature: nonEmpty(fromQuery.value) };
  }
  const fromBody = cutPair(bodyText, 'signature');
  return { query: rawQuery, body: fromBody.rest, signature: nonEmpty(fromBody.value) };
}

/** Removes the first `name=value` pair (and its `&`) from `k=v&k=v` text; other bytes stay as they were. */
export function cutPair(text: string, name: string): { readonly rest: string; readonly value: string | undefined; readonly found: boolean } {
  if (text === '') return { rest: text, value: undefined, found: false };
  const pairs = text.split('&');
  const index = pairs.findIndex((pair) => pair === name || pair.startsWith(`${name}=`));
  if (index < 0) return { rest: text, value: undefined, found: false };
  const pair = pairs[index] ?? '';
  pairs.splice(index, 1);
  return { rest: pairs.join('&'), value: pair.slice(name.length + 1), found: true };
}

/** The texts whose HMAC a request may carry: query + body, and for batch routes also body + query and the query alone. */
export function signedTextCandidates(parts: SignatureParts, batch: boolean): readonly string[] {
  const queryBody = parts.query + parts.body;
  if (!batch || parts.body === '') return [queryBody];
  return [queryBody, parts.body + parts.query, parts.query];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
