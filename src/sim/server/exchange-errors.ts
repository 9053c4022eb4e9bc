import { ErrorCode } from '../../protocol/error-codes.js';
import type { RouteError } from './routing/types.js';
import { routeError } from './routing/types.js';

/** The errors the HTTP face itself answers with (API-NOTES §1.3, §1.4, §2, §3); texts as the exchange words them. */
export const serverErrors = {
  unknown: (): RouteError => routeError(ErrorCode.UNKNOWN, 'An unknown error occurred while processing the request.', 500),
  tooManyRequests: (limit: number, windowText: string): RouteError =>
    routeError(ErrorCode.TOO_MANY_REQUESTS, `Too many requests; current limit is ${limit} request weight per ${windowText}.`),
  ipBanned: (untilMs: number): RouteError => routeError(ErrorCode.TOO_MANY_REQUESTS, `IP banned until ${untilMs}`, 418),
  tooManyOrders: (limit: number, windowText: string): RouteError => routeError(ErrorCode.TOO_MANY_ORDERS, `Too many new orders; current limit is ${limit} orders per ${windowText}.`),
  unsupportedOperation: (): RouteError => routeError(ErrorCode.UNSUPPORTED_OPERATION, 'This operation is not supported.'),
  timestampTooOld: (): RouteError => routeError(ErrorCode.INVALID_TIMESTAMP, 'Timestamp for this request is outside of the recvWindow.'),
  timestampAhead: (): RouteError => routeError(ErrorCode.INVALID_TIMESTAMP, "Timestamp for this request was 1000ms ahead of the server's time."),
  badSignature: (): RouteError => routeError(ErrorCode.INVALID_SIGNATURE, 'Signature for this request is not valid.'),
  mandatoryParam: (name: string): RouteError => routeError(ErrorCode.MANDATORY_PARAM_EMPTY_OR_MALFORMED, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  apiKeyEmpty: (): RouteError => routeError(ErrorCode.API_KEY_EMPTY, 'API-key is empty.'),
  // "paramter" (sic) is the exchange's spelling (API-NOTES §3).
  invalidParam: (name: string): RouteError => routeError(ErrorCode.INVALID_PARAMETER, `Data sent for paramter '${name}' is not valid.`),
  rejectedKey: (permission?: string): RouteError =>
    routeError(
      ErrorCode.REJECTED_KEY,
      permission === undefined
        ? 'Invalid API-key, IP, or permissions for action.'
        : `Invalid API-key, IP, or permissions for action. Required permission: ${permission}.`,
    ),
} as const;
