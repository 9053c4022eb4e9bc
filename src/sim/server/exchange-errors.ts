import type { RouteError } from './route-types.js';
import { routeError } from './route-types.js';

/** The errors the HTTP face itself answers with (API-NOTES §1.3, §1.4, §2, §3); texts as the exchange words them. */
export const serverErrors = {
  unknown: (): RouteError => routeError(-1000, 'An unknown error occurred while processing the request.', 500),
  tooManyRequests: (limit: number, windowText: string): RouteError =>
    routeError(-1003, `Too many requests; current limit is ${limit} request weight per ${windowText}.`),
  ipBanned: (untilMs: number): RouteError => routeError(-1003, `IP banned until ${untilMs}`, 418),
  tooManyOrders: (limit: number, windowText: string): RouteError => routeError(-1015, `Too many new orders; current limit is ${limit} orders per ${windowText}.`),
  unsupportedOperation: (): RouteError => routeError(-1020, 'This operation is not supported.'),
  timestampTooOld: (): RouteError => routeError(-1021, 'Timestamp for this request is outside of the recvWindow.'),
  timestampAhead: (): RouteError => routeError(-1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  badSignature: (): RouteError => routeError(-1022, 'Signature for this request is not valid.'),
  mandatoryParam: (name: string): RouteError => routeError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  apiKeyEmpty: (): RouteError => routeError(-1107, 'API-key is empty.'),
  // "paramter" (sic) is the exchange's spelling (API-NOTES §3).
  invalidParam: (name: string): RouteError => routeError(-1130, `Data sent for paramter '${name}' is not valid.`),
  rejectedKey: (permission?: string): RouteError =>
    routeError(
      -2015,
      permission === undefined
        ? 'Invalid API-key, IP, or permissions for action.'
        : `Invalid API-key, IP, or permissions for action. Required permission: ${permission}.`,
    ),
} as const;

/** HTTP status of an exchange error code (API-NOTES §3 RULE): 429 for the rate limits, else 400. */
export function statusOfCode(code: number): number {
  return code === -1003 || code === -1015 ? 429 : 400;
}
