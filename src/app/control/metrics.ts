import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { HealthServerEvents } from './server.js';

/** What the control plane counts: daily-loss overrides, refused requests and connections. */
export class ControlMetrics {
  readonly dailyLossOverrides: Counter;
  private readonly authFailures: Counter;
  private readonly hostRefusals: Counter;
  private readonly connectionsRefused: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.dailyLossOverrides = new Counter({ name: 'stratd_daily_loss_overrides_total', help: 'Resumes that overrode a daily-loss halt (stratd resume --override-daily-loss)', registers });
    this.authFailures = new Counter({ name: 'stratd_control_auth_failures_total', help: 'Requests to the health/control server with a missing or wrong token', registers });
    this.hostRefusals = new Counter({ name: 'stratd_control_host_refusals_total', help: 'Requests to the health/control server refused for a Host that is not this server', registers });
    this.connectionsRefused = new Counter({ name: 'stratd_health_connections_refused_total', help: 'Connections to the health/control server closed by the per-address cap', registers });
  }

  /** The health server's hooks into these counters. */
  serverEvents(): HealthServerEvents {
    return {
      authFailed: () => this.authFailures.inc(),
      hostRefused: () => this.hostRefusals.inc(),
      connectionRefused: () => this.connectionsRefused.inc(),
    };
  }
}
