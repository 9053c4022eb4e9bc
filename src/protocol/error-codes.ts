/**
 * The exchange's error codes that both sides act on, by their documented names (API-NOTES §3). Codes
 * are fixed, messages vary: the client decides on the code, the simulator answers with it.
 */
export const ErrorCode = {
  UNKNOWN: -1000,
  DISCONNECTED: -1001,
  TOO_MANY_REQUESTS: -1003,
  UNEXPECTED_RESP: -1006,
  TIMEOUT: -1007,
  TOO_MANY_ORDERS: -1015,
  SERVICE_SHUTTING_DOWN: -1016,
  UNSUPPORTED_OPERATION: -1020,
  INVALID_TIMESTAMP: -1021,
  INVALID_SIGNATURE: -1022,
  MANDATORY_PARAM_EMPTY_OR_MALFORMED: -1102,
  API_KEY_EMPTY: -1107,
  INVALID_PARAMETER: -1130,
  REJECTED_KEY: -2015,
} as const;

/** Codes after which the same request may simply be tried again. */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([
  ErrorCode.DISCONNECTED,
  ErrorCode.TOO_MANY_REQUESTS,
  ErrorCode.TOO_MANY_ORDERS,
  ErrorCode.SERVICE_SHUTTING_DOWN,
  ErrorCode.INVALID_TIMESTAMP,
]);

/** Codes that leave a request's execution status unknown (like a 5xx): settle by query, never resend blindly. */
export function leavesStatusUnknown(code: number | undefined): boolean {
  return code === ErrorCode.UNEXPECTED_RESP || code === ErrorCode.TIMEOUT;
}

/** The rate-limit codes (HTTP 429; 418 when the address is banned). */
export function isRateLimitCode(code: number | undefined): boolean {
  return code === ErrorCode.TOO_MANY_REQUESTS || code === ErrorCode.TOO_MANY_ORDERS;
}

/** HTTP status of an exchange error code (API-NOTES §3 RULE): 429 for the rate limits, else 400. */
export function statusOfCode(code: number): number {
  return isRateLimitCode(code) ? 429 : 400;
}
