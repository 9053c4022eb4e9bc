import { Counter, Registry } from 'prom-client';

/** Label values of `stratd_sim_faults_injected_total{kind}` the HTTP face uses; the user stream adds its own. */
export type HttpFaultKind = 'latency' | 'http_5xx' | 'timeout' | 'lost_reply' | 'garbage';

/** Label values of `stratd_sim_rate_limited_total{limit}`. */
export type LimitKind = 'REQUEST_WEIGHT' | 'ORDERS' | 'IP_BAN';

/** The simulator's Prometheus registry (one per server, never the global one) and the HTTP face's counters. */
export class SimServerMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'stratd_sim_requests_total',
    help: 'Requests the simulated exchange received, by route and HTTP status ("none" when never answered).',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  readonly faultsInjected = new Counter({
    name: 'stratd_sim_faults_injected_total',
    help: 'Faults the simulated exchange injected, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'stratd_sim_rate_limited_total',
    help: 'Requests refused by a rate limit (429) or an IP ban (418), by limit.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly credentialed = new Counter({
    name: 'stratd_sim_credentialed_requests_total',
    help: 'Requests that carried an API key (X-BB-APIKEY header) or a signature (query or form body), by route and credential, whether or not the route needs one.',
    labelNames: ['route', 'credential'] as const,
    registers: [this.registry],
  });

  countRequest(route: string, status: number | 'none'): void {
    this.requests.inc({ route, status: String(status) });
  }

  countCredential(route: string, credential: 'api_key' | 'signature'): void {
    this.credentialed.inc({ route, credential });
  }

  countFault(kind: HttpFaultKind): void {
    this.faultsInjected.inc({ kind });
  }

  countLimited(limit: LimitKind): void {
    this.rateLimited.inc({ limit });
  }
}
