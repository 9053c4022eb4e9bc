import type { Counter, Gauge, Registry } from 'prom-client';
import { FAULTS_INJECTED_TOTAL, counterOn, gaugeOn } from '../user-stream/stream-metrics.js';
import type { SocketCloseReason } from '../ws/sim-socket.js';

export type MarketWsCloseReason = SocketCloseReason;

export interface MarketWsMetrics {
  readonly opened: Counter<string>;
  readonly closed: Counter<string>;
  readonly open: Gauge<string>;
  readonly framesSent: Counter<string>;
  readonly errors: Counter<string>;
  readonly faults: Counter<string>;
}

/** The public market socket's metrics on `registry` (created once per registry). */
export function marketWsMetrics(registry: Registry): MarketWsMetrics {
  return {
    opened: counterOn(registry, 'stratd_sim_market_ws_connections_opened_total', 'Public market sockets accepted', []),
    closed: counterOn(registry, 'stratd_sim_market_ws_connections_closed_total', 'Public market sockets closed, by reason', ['reason']),
    open: gaugeOn(registry, 'stratd_sim_market_ws_connections', 'Public market sockets open now'),
    framesSent: counterOn(registry, 'stratd_sim_market_ws_frames_sent_total', 'Public market frames sent, by topic', ['topic']),
    errors: counterOn(registry, 'stratd_sim_market_ws_error_frames_total', 'Error frames answered to public market requests, by code', ['code']),
    faults: counterOn(registry, FAULTS_INJECTED_TOTAL, 'Faults injected by the simulator, by kind', ['kind']),
  };
}
