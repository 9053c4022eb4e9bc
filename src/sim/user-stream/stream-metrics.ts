import type { Counter, Registry } from 'prom-client';
import type { SocketCloseReason } from '../ws/sim-socket.js';
import { counterOn, faultsCounterOn, socketMetricsOn } from '../ws/socket-metrics.js';
import type { SocketMetrics } from '../ws/socket-metrics.js';

export { FAULTS_INJECTED_TOTAL } from '../ws/socket-metrics.js';

/** Fault kinds this module injects (the `kind` label of FAULTS_INJECTED_TOTAL). */
export type StreamFaultKind = 'ws_drop' | 'stream_duplicate' | 'stream_reorder' | 'stream_garbage';

/** Why a user-stream socket closed (the `reason` label). */
export type CloseReason = SocketCloseReason | 'key_closed' | 'key_expired';

export interface StreamMetrics extends SocketMetrics {
  readonly rejected: Counter<string>;
  readonly framesSent: Counter<string>;
  readonly faults: Counter<string>;
}

/** The user stream's metrics on `registry`, created once per registry however many servers share it. */
export function streamMetrics(registry: Registry): StreamMetrics {
  return {
    ...socketMetricsOn(registry, 'user_stream', 'User-stream'),
    rejected: counterOn(registry, 'stratd_sim_user_stream_upgrades_rejected_total', 'User-stream upgrades refused (unknown or expired listen key)', []),
    framesSent: counterOn(registry, 'stratd_sim_user_stream_frames_sent_total', 'User-stream frames sent, by event', ['kind']),
    faults: faultsCounterOn(registry),
  };
}
