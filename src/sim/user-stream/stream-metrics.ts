import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { InvariantError } from '../../core/errors.js';
import type { SocketCloseReason } from '../ws/sim-socket.js';

/** Shared with the HTTP server: whoever comes first creates it, the other looks it up. */
export const FAULTS_INJECTED_TOTAL = 'stratd_sim_faults_injected_total';

/** Fault kinds this module injects (the `kind` label of FAULTS_INJECTED_TOTAL). */
export type StreamFaultKind = 'ws_drop' | 'stream_duplicate' | 'stream_reorder' | 'stream_garbage';

/** Why a user-stream socket closed (the `reason` label). */
export type CloseReason = SocketCloseReason | 'key_closed' | 'key_expired';

export interface StreamMetrics {
  readonly opened: Counter<string>;
  readonly closed: Counter<string>;
  readonly rejected: Counter<string>;
  readonly open: Gauge<string>;
  readonly framesSent: Counter<string>;
  readonly faults: Counter<string>;
}

/** The user stream's metrics on `registry`, created once per registry however many servers share it. */
export function streamMetrics(registry: Registry): StreamMetrics {
  return {
    opened: counterOn(registry, 'stratd_sim_user_stream_connections_opened_total', 'User-stream sockets accepted', []),
    closed: counterOn(registry, 'stratd_sim_user_stream_connections_closed_total', 'User-stream sockets closed, by reason', ['reason']),
    rejected: counterOn(registry, 'stratd_sim_user_stream_upgrades_rejected_total', 'User-stream upgrades refused (unknown or expired listen key)', []),
    open: gaugeOn(registry, 'stratd_sim_user_stream_connections', 'User-stream sockets open now'),
    framesSent: counterOn(registry, 'stratd_sim_user_stream_frames_sent_total', 'User-stream frames sent, by event', ['kind']),
    faults: counterOn(registry, FAULTS_INJECTED_TOTAL, 'Faults injected by the simulator, by kind', ['kind']),
  };
}

export function counterOn(registry: Registry, name: string, help: string, labelNames: readonly string[]): Counter<string> {
  const existing = registry.getSingleMetric(name);
  if (existing === undefined) return new Counter({ name, help, labelNames, registers: [registry] });
  if (existing instanceof Counter) return existing;
  throw new InvariantError('SIM_METRIC_TYPE', `${name} is registered but is not a counter`);
}

export function gaugeOn(registry: Registry, name: string, help: string): Gauge<string> {
  const existing = registry.getSingleMetric(name);
  if (existing === undefined) return new Gauge({ name, help, registers: [registry] });
  if (existing instanceof Gauge) return existing;
  throw new InvariantError('SIM_METRIC_TYPE', `${name} is registered but is not a gauge`);
}
