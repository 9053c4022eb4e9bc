import { RETRYABLE_CODES } from '../protocol/error-codes.js';
/**
 * Why a call did not produce a value. Every failure of the exchange and catalog clients is one of
 * these, returned as a value (never thrown).
 *
 * - `invalid-request`: a rule of the spec was broken; refused locally, nothing was sent.
 * - `rejected`: the service answered with a business error (negative code, 4xx). Not retryable.
 * - `rate-limited`: 429; retry after `retryAt`.
 * - `banned`: 418; the client stops sending until the ban lifts.
 * - `unknown-status`: network error, timeout, 5xx or -1006/-1007: the request may or may not have
 *   taken effect. For an order, settle it by querying its client order id; never resend blind.
 * - `malformed-response`: the reply did not have the documented shape; `field` names where.
 * - `http`: any other HTTP failure without a recognisable body (for example a 404 HTML page).
 */
export type VenueErrorKind =
  | 'invalid-request'
  | 'rejected'
  | 'rate-limited'
  | 'banned'
  | 'unknown-status'
  | 'malformed-response'
  | 'http';

export interface VenueErrorInit {
  readonly kind: VenueErrorKind;
  readonly endpoint: string;
  readonly message: string;
  readonly httpStatus?: number;
  readonly code?: number | string;
  readonly traceId?: string;
  readonly retryAt?: number;
  readonly field?: string;
  readonly rule?: string;
}

export class VenueError extends Error {
  override readonly name = 'VenueError';
  readonly kind: VenueErrorKind;
  readonly endpoint: string;
  readonly httpStatus: number | undefined;
  readonly code: number | string | undefined;
  readonly traceId: string | undefined;
  readonly retryAt: number | undefined;
  readonly field: string | undefined;
  readonly rule: string | undefined;
  readonly retryable: boolean;

  constructor(init: VenueErrorInit) {
    super(describe(init));
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.traceId = init.traceId;
    this.retryAt = init.retryAt;
    this.field = init.field;
    this.rule = init.rule;
    this.retryable =
      init.kind === 'unknown-status' ||
      init.kind === 'rate-limited' ||
      (init.kind === 'rejected' && typeof init.code === 'number' && RETRYABLE_CODES.has(init.code));
  }

  /** The request may have taken effect even though no success was seen. */
  get statusUnknown(): boolean {
    return this.kind === 'unknown-status';
  }

  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      endpoint: this.endpoint,
      httpStatus: this.httpStatus,
      code: this.code,
      message: this.message,
      traceId: this.traceId,
      retryable: this.retryable,
      retryAt: this.retryAt,
      field: this.field,
      rule: this.rule,
    };
  }
}

function describe(init: VenueErrorInit): string {
  const parts = [`${init.endpoint}:`];
  if (init.code !== undefined) parts.push(`[${init.code}]`);
  else if (init.httpStatus !== undefined) parts.push(`[HTTP ${init.httpStatus}]`);
  parts.push(init.message);
  if (init.field !== undefined) parts.push(`(field ${init.field})`);
  if (init.rule !== undefined) parts.push(`(rule: ${init.rule})`);
  return parts.join(' ');
}

export function invalidRequest(endpoint: string, rule: string, message: string, field?: string): VenueError {
  return new VenueError({ kind: 'invalid-request', endpoint, rule, message, ...(field === undefined ? {} : { field }) });
}
