/** The simulated exchange's HTTP face: server, routing contract, keys, faults, limits and metrics. */
export type { SimHttpAddress, SimHttpServerOptions } from './sim-http-server.js';
export { SimHttpServer } from './sim-http-server.js';
export type {
  Caller,
  KeyAccountType,
  PrefixHandleFn,
  PrefixHandler,
  PrefixReply,
  PrefixRequest,
  RequestParams,
  RouteContext,
  RouteError,
  RouteOk,
  RouteRaw,
  RouteReply,
  SimRoute,
} from './routing/types.js';
export { routeError, routeOk } from './routing/types.js';
export type { KeyringEntry, KnownKey } from './keyring.js';
export { Keyring } from './keyring.js';
export type { FaultListener } from './faults/state.js';
export { FaultState } from './faults/state.js';
export type { LimitVerdict, RateLimitSettings, WeightStatus } from './rate-limits.js';
export { EXCHANGE_RATE_LIMITS, ServerRateLimits } from './rate-limits.js';
export type { HttpFaultKind, LimitKind } from './server-metrics.js';
export { SimServerMetrics } from './server-metrics.js';
export { serverErrors } from './exchange-errors.js';
export { DEFAULT_RECV_WINDOW_MS, MAX_RECV_WINDOW_MS } from './timestamp-window.js';
export { ADMIN_FAULTS_PATH } from './faults/admin-faults.js';
