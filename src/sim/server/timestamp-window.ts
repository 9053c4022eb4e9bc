import { serverErrors } from './exchange-errors.js';
import type { RequestParams, RouteError } from './routing/types.js';

export const DEFAULT_RECV_WINDOW_MS = 5000;
export const MAX_RECV_WINDOW_MS = 60_000;
/** How far ahead of the server clock a timestamp may be. */
export const MAX_AHEAD_MS = 1000;

/**
 * API-NOTES §1.3: accept iff `timestamp < now + 1000` and `now − timestamp ≤ recvWindow`; a missing or
 * malformed timestamp is -1102, a recvWindow that is not an integer up to 60000 is -1130.
 */
export function checkTimestamp(params: RequestParams, now: number): RouteError | undefined {
  const timestampText = params.get('timestamp');
  if (timestampText === undefined || !/^\d{1,16}$/.test(timestampText)) return serverErrors.mandatoryParam('timestamp');
  const recvText = params.get('recvWindow');
  let recvWindow = DEFAULT_RECV_WINDOW_MS;
  if (recvText !== undefined) {
    if (!/^\d{1,16}$/.test(recvText)) return serverErrors.invalidParam('recvWindow');
    recvWindow = Number(recvText);
    if (recvWindow > MAX_RECV_WINDOW_MS) return serverErrors.invalidParam('recvWindow');
  }
  const timestamp = Number(timestampText);
  if (timestamp >= now + MAX_AHEAD_MS) return serverErrors.timestampAhead();
  if (now - timestamp > recvWindow) return serverErrors.timestampTooOld();
  return undefined;
}
