import type { Counter, Registry } from 'prom-client';
import type { SocketCloseReason } from '../ws/sim-socket.js';
import { counterOn, faultsCounterOn, socketMetricsOn } from '../ws/socket-metrics.js';
import type { SocketMetrics } from '../ws/socket-metrics.js';

export type MarketWsCloseReason = SocketCloseReason;

export interface MarketWsMetrics extends SocketMetrics {
  readonly framesSent: Counter<string>;
  readonly errors: Counter<string>;
  readonly faults: Counter<string>;
}

/** The public market socket's metrics on `registry` (created once per registry). */
export function marketWsMetrics(registry: Registry): MarketWsMetrics {
  return {
    ...socketMetricsOn(registry, 'market_ws', 'Public market'),
    framesSent: counterOn(registry, 'stratd_sim_market_ws_frames_sent_total', 'Public market frames sent, by topic', ['topic']),
    errors: counterOn(registry, 'stratd_sim_market_ws_error_frames_total', 'Error frames answered to public market requests, by code', ['code']),
    faults: faultsCounterOn(registry),
  };
}
