import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { WireStyle } from '../../protocol/endpoints.js';
import { parseWireJson } from '../../protocol/wire-json.js';
import { serverErrors } from './exchange-errors.js';
import type { RouteError } from './routing/types.js';

export type RequestBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'form'; readonly text: string }
  /** `text` is the body with CR/LF deleted: what is hashed and parsed. */
  | { readonly kind: 'json'; readonly text: string; readonly value: unknown };

export const NO_BODY: RequestBody = { kind: 'none' };

/**
 * What a request body is (API-NOTES §1.2). GET bodies are ignored. A body whose first non-blank
 * character is `{` or `[` is JSON whatever its Content-Type (batch routes); CR/LF are deleted from it
 * before hashing and parsing, as the exchange reads it line by line, so pretty JSON signed with its
 * line breaks fails. Any other body is a form, except that a v2 route refuses a body declared JSON
 * that does not start like JSON (-1130).
 */
export function classifyBody(method: string, rawBody: string, contentType: string | undefined, wire: WireStyle): Result<RequestBody, RouteError> {
  if (method === 'GET' || rawBody === '') return ok(NO_BODY);
  if (/^\s*[[{]/.test(rawBody)) {
    const text = rawBody.replace(/[\r\n]/g, '');
    try {
      return ok({ kind: 'json', text, value: parseWireJson(text) });
    } catch {
      return err(serverErrors.invalidParam('body'));
    }
  }
  if (wire === 'v2' && isJsonContentType(contentType)) return err(serverErrors.invalidParam('body'));
  return ok({ kind: 'form', text: rawBody });
}

function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/([\w.+-]*\+)?json\b/i.test(contentType);
}
