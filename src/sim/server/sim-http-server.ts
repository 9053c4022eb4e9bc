import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Registry } from 'prom-client';
import type { TimeSource } from '../../core/clock.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { bearerMatches } from '../../core/secret-compare.js';
import { endpointLabel } from '../../protocol/endpoints.js';
import type { FaultSettingsInput } from '../config/fault-settings.js';
import { faultSettingsSchema } from '../config/fault-settings.js';
import type { SimConfig } from '../config/sim-config.js';
import { ADMIN_FAULTS_PATH, handleAdminFaults } from './faults/admin-faults.js';
import { FaultDice } from './faults/dice.js';
import { FaultState } from './faults/state.js';
import type { KeyringEntry } from './keyring.js';
import { Keyring } from './keyring.js';
import type { PrefixMount } from './prefix-mounts.js';
import { PrefixMounts } from './prefix-mounts.js';
import type { RateLimitSettings } from './rate-limits.js';
import { EXCHANGE_RATE_LIMITS, ServerRateLimits } from './rate-limits.js';
import type { RawRequest } from './raw-request.js';
import { readRawRequest } from './raw-request.js';
import { RoutePipeline } from './routing/pipeline.js';
import type { RouteMatch } from './routing/table.js';
import { RouteTable } from './routing/table.js';
import type { PrefixHandler, SimRoute } from './routing/types.js';
import { ScheduledDelays } from './faults/scheduled-delays.js';
import { SimServerMetrics } from './server-metrics.js';
import type { ServerReply } from './server-reply.js';
import { garbledReply, jsonReply, notFoundReply, plainReply } from './server-reply.js';
import { TraceIds } from './trace-ids.js';

export interface SimHttpServerOptions {
  /** Clock and scheduler: server time is `clock.now() + clockSkewMs`; latency waits on the scheduler. */
  readonly time: TimeSource;
  /** Seeds fault decisions and traceIds: the same seed and request sequence reproduce a run. */
  readonly seed: number;
  /** The simulator's API keys (the sim config's `keys`). */
  readonly keys: readonly KeyringEntry[];
  /** Bearer token of `/admin/faults`. */
  readonly adminToken: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Initial fault settings (defaults: none). */
  readonly faults?: FaultSettingsInput;
  /** Overrides of the exchange's budgets (before `rateLimitShare`). */
  readonly rateLimits?: Partial<RateLimitSettings>;
  /** Called before every routed request with its server time (the engine advances its market there). */
  readonly beforeRequest?: (now: number) => void;
  /** A route handler threw; the request was answered -1000 with HTTP 500. */
  readonly onHandlerError?: (error: unknown, route: string) => void;
  /** Larger bodies get 413. Default 1 MiB. */
  readonly maxBodyBytes?: number;
}

export interface SimHttpAddress {
  readonly port: number;
  readonly baseUrl: string;
}

type Target =
  | { readonly kind: 'route'; readonly match: RouteMatch; readonly label: string }
  | { readonly kind: 'prefix'; readonly mount: PrefixMount; readonly label: string }
  | { readonly kind: 'none'; readonly label: 'unmatched' };

const METRICS_PATH = '/metrics';

/**
 * The simulated exchange's HTTP face on node:http: routing, authentication, rate limits, envelopes,
 * traceIds and fault injection in front of the route handlers. `/metrics` and `/admin/faults` are
 * served beside the exchange and never see faults or limits.
 */
export class SimHttpServer {
  readonly httpServer: Server;
  readonly metrics = new SimServerMetrics();
  readonly faults: FaultState;
  readonly keyring: Keyring;
  readonly limits: ServerRateLimits;
  private readonly routes = new RouteTable();
  private readonly prefixes = new PrefixMounts();
  private readonly hooks = new Set<(now: number) => void>();
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<ServerResponse>();
  private readonly delays: ScheduledDelays;
  private readonly dice: FaultDice;
  private readonly traceIds: TraceIds;
  private readonly pipeline: RoutePipeline;
  private address: SimHttpAddress | undefined;

  constructor(private readonly options: SimHttpServerOptions) {
    this.faults = new FaultState(faultSettingsSchema.parse(options.faults ?? {}));
    this.keyring = new Keyring(options.keys);
    this.limits = new ServerRateLimits({ ...EXCHANGE_RATE_LIMITS, ...options.rateLimits }, () => this.faults.current.rateLimitShare);
    this.delays = new ScheduledDelays(options.time.scheduler);
    this.dice = new FaultDice(options.seed);
    this.traceIds = new TraceIds(options.seed);
    if (options.beforeRequest !== undefined) this.hooks.add(options.beforeRequest);
    this.pipeline = new RoutePipeline({
      keyring: this.keyring,
      limits: this.limits,
      metrics: this.metrics,
      beforeHandler: (now) => this.runHooks(now),
      onHandlerError: (error, route) => options.onHandlerError?.(error, route),
    });
    this.httpServer = createServer((req, res) => this.onRequest(req, res));
    this.httpServer.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** A server for a sim config: host, port, seed, keys, admin token and faults from the config. */
  static fromConfig(config: SimConfig, time: TimeSource, extra: Partial<SimHttpServerOptions> = {}): SimHttpServer {
    return new SimHttpServer({
      time,
      seed: config.seed,
      keys: config.keys,
      adminToken: config.admin.token,
      host: config.host,
      port: config.port,
      faults: config.faults,
      ...extra,
      ...rateLimitsOf(config, extra.rateLimits),
    });
  }

  /** The per-server Prometheus registry (served at GET /metrics); other parts register their metrics here. */
  get registry(): Registry {
    return this.metrics.registry;
  }

  /** The exchange's clock: host clock plus the clock-skew fault. */
  now(): number {
    return this.options.time.clock.now() + this.faults.current.clockSkewMs;
  }

  /** Requests held without an answer (timeout and lost-reply faults) whose connection is still open. */
  get heldCount(): number {
    return this.held.size;
  }

  /** Where the server listens, once started. */
  get listeningOn(): SimHttpAddress | undefined {
    return this.address;
  }

  /** Adds exchange routes, keyed by method and path template; mounting one twice throws. */
  mount(routes: readonly SimRoute[]): void {
    for (const route of routes) this.routes.add(route);
  }

  /** Hands every request under `prefix` (e.g. `/catalog`) to a raw sub-application; no exchange auth, limits or envelopes. */
  mountPrefix(prefix: string, handler: PrefixHandler): void {
    this.prefixes.add(prefix, handler);
  }

  /** Adds a hook run before every routed request with its server time; returns its removal. */
  onBeforeRequest(hook: (now: number) => void): () => void {
    this.hooks.add(hook);
    return () => this.hooks.delete(hook);
  }

  start(): Promise<SimHttpAddress> {
    const host = this.options.host ?? '127.0.0.1';
    return new Promise((resolve, reject) => {
      this.httpServer.once('error', reject);
      this.httpServer.listen(this.options.port ?? 0, host, () => {
        this.httpServer.off('error', reject);
        const bound = this.httpServer.address();
        const port = typeof bound === 'object' && bound !== null ? bound.port : 0;
        this.address = { port, baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
        resolve(this.address);
      });
    });
  }

  /** Stops listening and closes every connection, held and upgraded ones included. */
  stop(): Promise<void> {
    this.delays.cancelAll();
    if (!this.httpServer.listening) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.held.clear();
    this.address = undefined;
    return closed;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const traceId = this.traceIds.next();
    this.serve(req, res, traceId).catch((error: unknown) => {
      this.options.onHandlerError?.(error, 'server');
      this.send(res, traceId, 'unmatched', plainReply(500));
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse, traceId: string): Promise<void> {
    let read: Awaited<ReturnType<typeof readRawRequest>>;
    try {
      read = await readRawRequest(req, this.options.maxBodyBytes ?? 1024 * 1024);
    } catch {
      return; // the client went away while sending
    }
    if (read.kind === 'too-large') {
      this.send(res, traceId, 'unmatched', plainReply(413));
      return;
    }
    const raw = read.request;
    if (raw.path === METRICS_PATH && raw.method === 'GET') {
      // Open on loopback (Prometheus convention); beyond it the admin token guards it, as the daemon's.
      if (!isLoopbackHost(this.options.host ?? '127.0.0.1') && !bearerMatches(raw.headers['authorization'], this.options.adminToken)) {
        this.send(res, traceId, 'metrics', jsonReply(401, { error: 'unauthorized: send Authorization: Bearer <admin token>' }, { 'WWW-Authenticate': 'Bearer' }));
        return;
      }
      const body = await this.metrics.registry.metrics();
      this.send(res, traceId, 'metrics', { status: 200, headers: { 'Content-Type': this.metrics.registry.contentType }, body });
      return;
    }
    if (raw.path === ADMIN_FAULTS_PATH) {
      this.send(res, traceId, 'admin', handleAdminFaults(raw, this.faults, this.options.adminToken));
      return;
    }

    const target = this.resolve(raw);
    if ((raw.headers['x-bb-apikey'] ?? '') !== '') this.metrics.countCredential(target.label, 'api_key');
    if (SIGNATURE_PAIR.test(raw.rawQuery) || SIGNATURE_PAIR.test(raw.rawBody)) this.metrics.countCredential(target.label, 'signature');
    const plan = this.dice.plan(this.faults.current);
    if (plan.delayInMs + plan.delayOutMs > 0) this.metrics.countFault('latency');
    await this.delays.wait(plan.delayInMs);
    const { outcome } = plan;
    if (outcome.kind === 'timeout') {
      this.metrics.countFault('timeout');
      this.hold(res, target.label);
      return;
    }
    if (outcome.kind === 'http5xx') this.metrics.countFault('http_5xx');
    const reply = outcome.kind === 'http5xx' ? plainReply(outcome.status) : await this.execute(target, raw, this.now());
    if (outcome.kind === 'lost-reply' && losesReply(target, this.faults.current.lostReplyRoutes)) {
      this.metrics.countFault('lost_reply');
      this.hold(res, target.label);
      return;
    }
    await this.delays.wait(plan.delayOutMs);
    if (outcome.kind === 'garbage') this.metrics.countFault('garbage');
    this.send(res, traceId, target.label, outcome.kind === 'garbage' ? garbledReply(reply, outcome.kindDraw, outcome.cutDraw) : reply);
  }

  private resolve(raw: RawRequest): Target {
    const match = this.routes.match(raw.method, raw.path);
    if (match !== undefined) return { kind: 'route', match, label: endpointLabel(match.route.endpoint) };
    const mount = this.prefixes.find(raw.path);
    if (mount !== undefined) return { kind: 'prefix', mount, label: mount.prefix };
    return { kind: 'none', label: 'unmatched' };
  }

  private async execute(target: Target, raw: RawRequest, now: number): Promise<ServerReply> {
    switch (target.kind) {
      case 'route':
        return this.pipeline.run(target.match, raw, now);
      case 'prefix':
        try {
          this.runHooks(now);
          return (await this.prefixes.serve(target.mount, raw, now)) ?? notFoundReply();
        } catch (error: unknown) {
          this.options.onHandlerError?.(error, target.label);
          return plainReply(500);
        }
      case 'none':
        return notFoundReply();
    }
  }

  private runHooks(now: number): void {
    for (const hook of this.hooks) hook(now);
  }

  private hold(res: ServerResponse, route: string): void {
    this.metrics.countRequest(route, 'none');
    this.held.add(res);
    res.on('close', () => this.held.delete(res));
  }

  private send(res: ServerResponse, traceId: string, route: string, reply: ServerReply): void {
    this.metrics.countRequest(route, reply.status);
    if (res.headersSent || res.destroyed) return;
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { ...reply.headers, traceId, 'Content-Length': String(body.length) });
    res.end(body);
  }
}

/** A `signature=` pair in a query or form body. */
const SIGNATURE_PAIR = /(^|&)signature=/;

/** Whether the lost-reply fault applies to this request: any route, or order routes only (TRADE routes on orders and algo orders). */
function losesReply(target: Target, routes: 'all' | 'orders'): boolean {
  if (routes === 'all') return true;
  return target.kind === 'route' && target.match.route.endpoint.security === 'TRADE' && /order/i.test(target.match.route.endpoint.path);
}

const RATE_LIMIT_KEYS = ['weightLimit', 'weightWindowMs', 'ordersLimit', 'ordersWindowMs', 'banAfterRejections', 'banMs'] as const satisfies readonly (keyof RateLimitSettings)[];

/** The budgets replacing the exchange's: the config's `rateLimits` where given, then the caller's. */
function rateLimitsOf(config: SimConfig, given: Partial<RateLimitSettings> | undefined): { readonly rateLimits?: Partial<RateLimitSettings> } {
  const configured: { -readonly [K in keyof RateLimitSettings]?: RateLimitSettings[K] } = {};
  for (const key of RATE_LIMIT_KEYS) {
    const value = config.rateLimits?.[key];
    if (value !== undefined) configured[key] = value;
  }
  const merged = { ...configured, ...given };
  return Object.keys(merged).length === 0 ? {} : { rateLimits: merged };
}
