import type { Result } from '../../core/result.js';

/** The catalog service's error codes: the four of spec 002 plus the two it leaves to the server. */
export type CatalogErrorCode = 'invalid_request' | 'not_found' | 'duplicate_sku' | 'duplicate_email' | 'unauthorized' | 'method_not_allowed';

/** An expected failure, ready for the `{success:false, error:{code, message, field?}}` envelope. */
export interface CatalogFailure {
  readonly status: 400 | 401 | 404 | 405 | 409;
  readonly code: CatalogErrorCode;
  readonly message: string;
  readonly field?: string;
}

export type CatalogResult<T> = Result<T, CatalogFailure>;

export function invalidInput(message: string, field?: string): CatalogFailure {
  return field === undefined ? { status: 400, code: 'invalid_request', message } : { status: 400, code: 'invalid_request', message, field };
}

export function notFound(kind: 'Product' | 'User', id: string): CatalogFailure {
  return { status: 404, code: 'not_found', message: `${kind} ${JSON.stringify(id)} not found` };
}

export function duplicateSku(sku: string): CatalogFailure {
  return { status: 409, code: 'duplicate_sku', message: `a product with SKU ${JSON.stringify(sku)} already exists`, field: 'sku' };
}

export function duplicateEmail(email: string): CatalogFailure {
  return { status: 409, code: 'duplicate_email', message: `a user with email ${JSON.stringify(email)} already exists`, field: 'email' };
}

export function unauthorized(): CatalogFailure {
  return { status: 401, code: 'unauthorized', message: 'missing or invalid bearer token' };
}

export function methodNotAllowed(method: string, allowed: readonly string[]): CatalogFailure {
  return { status: 405, code: 'method_not_allowed', message: `${method} is not allowed here; use ${allowed.join(', ')}` };
}
