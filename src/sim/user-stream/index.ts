/** The simulator's user data stream: listen keys, their REST routes and the WebSocket at /api/v1/ws/<listenKey>. */
export type { ListenKeyEnd, ListenKeyInfo, ListenKeyRegistryOptions, WillExpireNotice } from './listen-key-registry.js';
export { ListenKeyRegistry, UNKNOWN_LISTEN_KEY, WILL_EXPIRE_EVERY_MS, WILL_EXPIRE_LEAD_MS } from './listen-key-registry.js';
export { USER_DATA_STREAM_ENDPOINTS, listenKeyRoutes } from './listen-key-routes.js';
export type { StreamFrame } from './account-frames.js';
export { accountEventFrame, willExpireFrame } from './account-frames.js';
export { planExecutionReport, sideV1 } from './plan-frame.js';
export type { CloseReason, StreamFaultKind, StreamMetrics } from './stream-metrics.js';
export { FAULTS_INJECTED_TOTAL, streamMetrics } from './stream-metrics.js';
export type { ConnectionLimits } from './user-stream-connection.js';
export type { AccountEventSource, UserStreamServerOptions } from './user-stream-server.js';
export { DEFAULT_CONNECTION_LIMITS, USER_STREAM_PATH_PREFIX, UserStreamServer, listenKeyOf } from './user-stream-server.js';
