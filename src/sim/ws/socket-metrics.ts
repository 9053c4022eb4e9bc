import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { InvariantError } from '../../core/errors.js';

/** Shared with the HTTP server: whoever comes first creates it, the other looks it up. */
export const FAULTS_INJECTED_TOTAL = 'stratd_sim_faults_injected_total';

/** The connection counters every simulated socket kind keeps (its own metric names). */
export interface SocketMetrics {
  readonly opened: Counter<string>;
  /** By `reason`. */
  readonly closed: Counter<string>;
  readonly open: Gauge<string>;
}

/**
 * A socket kind's connection metrics on `registry` (created once per registry however many servers
 * share it): `stratd_sim_<kind>_connections_opened_total`, `…_closed_total{reason}` and the gauge
 * `stratd_sim_<kind>_connections`; `noun` names the sockets in the help texts.
 */
export function socketMetricsOn(registry: Registry, kind: string, noun: string): SocketMetrics {
  return {
    opened: counterOn(registry, `stratd_sim_${kind}_connections_opened_total`, `${noun} sockets accepted`, []),
    closed: counterOn(registry, `stratd_sim_${kind}_connections_closed_total`, `${noun} sockets closed, by reason`, ['reason']),
    open: gaugeOn(registry, `stratd_sim_${kind}_connections`, `${noun} sockets open now`),
  };
}

/** The simulator's fault counter (FAULTS_INJECTED_TOTAL{kind}), shared by every face that injects faults. */
export function faultsCounterOn(registry: Registry): Counter<string> {
  return counterOn(registry, FAULTS_INJECTED_TOTAL, 'Faults injected by the simulator, by kind', ['kind']);
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
