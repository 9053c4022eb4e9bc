import { join } from 'node:path';
import { Subject } from 'rxjs';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Clock, TimeSource } from '../../../src/core/clock.js';
import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import { silentLogger } from '../../../src/core/logger.js';
import { DEFAULT_HTTP_STACK, createHttpStack } from '../../../src/venue/http-stack.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { FaultSettingsInput } from '../../../src/sim/config/fault-settings.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { startDaemon, writeConfig } from '../../app/daemon/daemon-harness.js';
import { parseMetrics, scrape } from '../../app/daemon/metrics-scrape.js';
import type { MetricSample } from '../../app/daemon/metrics-scrape.js';
import { runSettled } from '../../app/daemon/virtual-steps.js';
import type { ActivityProbe } from '../../app/daemon/virtual-steps.js';
import { BTC, BTC_USDC, ETH, MINUTE, T0, simConfig } from '../../sim/e2e/sim-harness.js';
import { chaosYaml } from './chaos-config.js';
import type { MarketWsStats } from '../../../src/venue/market-ws/session.js';
import { ExchangeTruth, orderRow, positionRow } from './exchange-truth.js';

/** The faults of issue 8's chaos suite, all at once. */
export const CHAOS_FAULTS: FaultSettingsInput = {
  wsDropEveryMs: { min: 20_000, max: 60_000 },
  http5xxRate: 0.05,
  lostReplyRate: 0.02,
  lostReplyRoutes: 'orders',
  streamDuplicateRate: 0.01,
  streamReorderRate: 0.01,
  // The public market socket (the daemon's market data rides it, via: ws): lost and reordered frames, sequence gaps.
  marketFrameLossRate: 0.01,
  marketFrameReorderRate: 0.01,
  marketSeqGapRate: 0.01,
  listenKeyTtlMs: 5 * MINUTE,
  rateLimitShare: 0.5,
};

/** The daemon's clock steps between 3 s behind and 3 s ahead of the exchange's this often. */
const SKEW_SWING_MS = 4 * MINUTE;
/** After a reconnect, local open orders and positions must equal the exchange's within this long. */
const CONVERGE_WITHIN_MS = 5000;
/** Virtual time between checks while a reconnect's convergence is being watched. */
const CHECK_STEP_MS = 250;
/** Virtual time between reads of the daemon's intent counters. */
const COUNT_EVERY_MS = 10_000;
/** After the faults are lifted: time for the last unknown outcomes to settle. */
const QUIET_MS = 2 * MINUTE;
/** Before the faults: market data reaches every strategy. */
const WARMUP_MS = MINUTE;

export interface ChaosOptions {
  /** Stop once the strategies have produced this many intents (approved and denied) under faults. */
  readonly intents: number;
  /** Give up (and report) after this much virtual time. */
  readonly maxVirtualMs: number;
  readonly seed: number;
  readonly dir: string;
  /** Progress lines (one per virtual 10 minutes). */
  readonly progress?: (line: string) => void;
}

export interface ReconnectCheck {
  readonly at: number;
  /** Virtual ms after the reconnect when both sides agreed; undefined when they never did within 5 s. */
  readonly agreedAfterMs: number | undefined;
  /** On a failed check: the rows only one side holds (a row twice on one side and once on the other counts once). */
  readonly difference?: { readonly onlyLocal: readonly string[]; readonly onlyExchange: readonly string[] };
  /** On a failed check: the exchange's account events and the daemon's non-market events from 8 s before the reconnect on (ms from the reconnect). */
  readonly trail?: readonly string[];
}

export interface ChaosReport {
  readonly seed: number;
  /** Virtual minutes under faults. */
  readonly virtualMinutes: number;
  readonly wallSeconds: number;
  /** Intents during the faults: approved (sent on) plus denied by risk. */
  readonly intents: number;
  readonly intentsApproved: number;
  readonly denials: Readonly<Record<string, number>>;
  /** Commands the exchange refused or that were settled as absent, by code (over the whole run). */
  readonly commandFailures: Readonly<Record<string, number>>;
  readonly ordersOnExchange: number;
  /** Of those, orders the exchange made when a plan or TP/SL row triggered. */
  readonly triggeredOrders: number;
  /**
   * Triggered orders the daemon never adopted for the row's strategy (reported, not asserted: when the
   * row's trigger event is lost and the row is finished before a reconciliation lists it, nothing links
   * the order to its row yet, and its fill counts as external).
   */
  readonly unadoptedTriggeredOrders: readonly string[];
  readonly duplicateClientOrderIds: readonly string[];
  readonly exchangeFills: number;
  readonly daemonFills: number;
  readonly lostFills: readonly string[];
  readonly unknownFills: readonly string[];
  /** The same fill passed on to strategies more than once. */
  readonly repeatedFills: readonly string[];
  readonly reconnects: number;
  /** Reconciliation runs by outcome (ok, failed): a failed one is retried after 250 ms, doubling. */
  readonly reconciliations: Readonly<Record<string, number>>;
  readonly reconnectChecks: readonly ReconnectCheck[];
  /** Requests the exchange refused for rate limits (429) or bans (418). */
  readonly rateLimitRefusals: number;
  readonly faultsInjected: Readonly<Record<string, number>>;
  /** Listen-key keepalives the exchange received: the daemon answering the early-expiry notices. */
  readonly listenKeyKeepalives: number;
  /** User-stream sockets the exchange closed, by reason (fault_drop, key_expired, …). */
  readonly socketsClosed: Readonly<Record<string, number>>;
  /** Requests the exchange received, by HTTP status ("none": never answered). */
  readonly requestsByStatus: Readonly<Record<string, number>>;
  /** Journal entries still unsettled (pending, sent, unknown) after the quiet period. */
  readonly unsettledJournal: readonly string[];
  /** Orders placed on the exchange (not made by it from a triggered plan or TP/SL row) the journal has no entry for. */
  readonly unjournaledOrders: readonly string[];
  readonly finalViewsEqual: boolean;
  /** The daemon's public market socket at the end (its market data rides it: via: ws). */
  readonly marketSocket: MarketWsStats | null;
  /** Each market channel: `<key> <via>-><source now>`. */
  readonly marketSources: readonly string[];
}

/** The daemon's unanswered requests, and a count of everything that happens (kernel events, simulator account events). */
function activityOf(daemon: Daemon, sim: SimulatedExchange): ActivityProbe {
  let count = 0;
  daemon.kernel.events$.subscribe(() => count++);
  sim.engine.onAccountEvent(() => count++);
  // A request whose reply the simulator withholds is not waited for: virtual time runs on to its deadline.
  return { inFlight: () => Math.max(0, daemon.venue.client.rest.inFlight - sim.http.heldCount), activity: () => count, inProcess: true };
}

/**
 * The chaos run: a live daemon with every example strategy trades a simulator injecting all of the
 * issue's faults at once, in virtual time, until the strategies produced `intents` intents. Every
 * reconnect is followed by a convergence check; at the end the faults are lifted, the last unknown
 * outcomes settle, and the exchange's own records are compared with the daemon's.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const wallStart = performance.now();
  const clock = new VirtualClock(T0);
  const config = simConfig({ seed: options.seed });
  const sim = await SimulatedExchange.start({ config, time: clock, tickMs: 1000 });
  clock.advanceBy(5 * MINUTE);
  const trader = sim.address.accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  const env = { TEST_SIM_BASE_URL: sim.address.baseUrl, TEST_SIM_STREAM_URL: sim.address.streamUrl, TEST_API_KEY: trader.apiKey, TEST_API_SECRET: trader.secret };
  const truth = new ExchangeTruth(sim.engine, trader.userId, [BTC, ETH, BTC_USDC]);

  // The exchange hands out short-lived listen keys from the start: the daemon's first key expires early too.
  sim.http.faults.update({ listenKeyTtlMs: CHAOS_FAULTS.listenKeyTtlMs });
  // The client's request deadlines run on the virtual clock: a reply the simulator withholds is "unknown"
  // after 1 s of virtual time (no real second waited), and a CPU-starved test process (CI runs another
  // jest worker beside it) cannot time out a reply the simulator gave.
  const file = writeConfig(options.dir, 'chaos.yml', chaosYaml({ stateDir: join(options.dir, 'state'), timeoutMs: 1000 }));
  const http = createHttpStack(DEFAULT_HTTP_STACK, { scheduler: clock });
  // The local clock steps ±6 s every few minutes (an NTP step), the exchange's clock and its own times staying
  // consistent: the daemon's time sync must notice (-1021) and every comparison of its estimate of exchange
  // time with the exchange's event times must survive a stale offset.
  const localTime = new SteppedTime(clock, 3000);
  const daemon = await startDaemon(file, localTime, [], env, silentLogger, http);
  try {
    const probe = activityOf(daemon, sim);
    const fills = new Map<string, number>();
    const reconnects = new Subject<number>();
    let connections = 0;
    const trail = new EventTrail(clock);
    sim.engine.onAccountEvent((event) => trail.record('exchange', event));
    daemon.kernel.events$.subscribe((event: BusEvent) => {
      if (!event.type.startsWith('market.')) trail.record('daemon', event);
      if (event.type === 'account.fill') {
        const key = `${event.fill.symbol}/${event.fill.tradeId}`;
        fills.set(key, (fills.get(key) ?? 0) + 1);
      }
      if (event.type === 'stream.connected' && connections++ > 0) reconnects.next(clock.now());
    });
    // Warm-up without faults: every strategy sees a book and a mark price before the chaos starts.
    await runSettled(clock, WARMUP_MS, probe);
    const baseline = await intentCounts(daemon);
    sim.http.faults.update(CHAOS_FAULTS);
    const chaosStart = clock.now();

    const watch = new ConvergenceWatch(daemon, truth, clock, trail);
    reconnects.subscribe((at) => watch.reconnected(at));
    let counts: IntentCounts = { approved: 0, denied: 0 };
    let intents = 0;
    let nextCount = clock.now();
    let nextSwing = clock.now() + SKEW_SWING_MS;
    let nextProgress = clock.now() + 10 * MINUTE;
    const deadline = clock.now() + options.maxVirtualMs;
    while (intents < options.intents && clock.now() < deadline) {
      await runSettled(clock, CHECK_STEP_MS, probe);
      watch.check();
      if (clock.now() >= nextSwing) {
        localTime.offsetMs = -localTime.offsetMs;
        nextSwing += SKEW_SWING_MS;
      }
      if (clock.now() >= nextCount) {
        const now = await intentCounts(daemon);
        counts = { approved: now.approved - baseline.approved, denied: now.denied - baseline.denied };
        intents = counts.approved + counts.denied;
        nextCount += COUNT_EVERY_MS;
      }
      if (clock.now() >= nextProgress) {
        options.progress?.(`chaos: ${Math.round((clock.now() - chaosStart) / MINUTE)} virtual min, ${intents} intents, ${watch.done.length} reconnects, ${Math.round(performance.now() - wallStart) / 1000} s`);
        nextProgress += 10 * MINUTE;
      }
    }
    const chaosEnd = clock.now();
    // Lift the faults; unknown outcomes settle, a last resync after the stream's next reconnect.
    sim.http.faults.update({
      wsDropEveryMs: null,
      http5xxRate: 0,
      lostReplyRate: 0,
      streamDuplicateRate: 0,
      streamReorderRate: 0,
      marketFrameLossRate: 0,
      marketFrameReorderRate: 0,
      marketSeqGapRate: 0,
      rateLimitShare: 1,
      listenKeyTtlMs: 60 * MINUTE,
    });
    for (let quiet = 0; quiet < QUIET_MS || watch.watching; quiet += CHECK_STEP_MS) {
      await runSettled(clock, CHECK_STEP_MS, probe);
      watch.check();
    }
    const checks = watch.done;

    const exchangeFills = truth.fillKeys();
    const daemonFills = new Set(fills.keys());
    const journal = daemon.journal;
    const orders = truth.allOrders();
    const report: ChaosReport = {
      seed: options.seed,
      virtualMinutes: Math.round((chaosEnd - chaosStart) / MINUTE),
      wallSeconds: Math.round(performance.now() - wallStart) / 1000,
      intents,
      intentsApproved: counts.approved,
      denials: await daemonTotalsBy(daemon, 'stratd_intents_denied_total', 'reason'),
      commandFailures: await daemonTotalsBy(daemon, 'stratd_command_failures_total', 'code'),
      ordersOnExchange: orders.length,
      triggeredOrders: orders.length - truth.placedOrders().length,
      unadoptedTriggeredOrders: orders.filter((o) => o.sourceAlgoOrderId !== undefined && journal.get(o.clientOrderId) === undefined).map((o) => o.clientOrderId),
      duplicateClientOrderIds: truth.duplicatedClientOrderIds(),
      exchangeFills: exchangeFills.size,
      daemonFills: daemonFills.size,
      lostFills: [...exchangeFills].filter((key) => !daemonFills.has(key)),
      unknownFills: [...daemonFills].filter((key) => !exchangeFills.has(key)),
      repeatedFills: [...fills].filter(([, count]) => count > 1).map(([key]) => key),
      reconnects: checks.length,
      reconciliations: await daemonTotalsBy(daemon, 'stratd_reconciliations_total', 'outcome'),
      reconnectChecks: checks,
      rateLimitRefusals: await refusedForRateLimits(sim),
      faultsInjected: await totalsBy(sim, 'stratd_sim_faults_injected_total', 'kind'),
      listenKeyKeepalives: (await totalsBy(sim, 'stratd_sim_requests_total', 'route'))['PUT /api/v1/listenKey'] ?? 0,
      socketsClosed: await totalsBy(sim, 'stratd_sim_user_stream_connections_closed_total', 'reason'),
      requestsByStatus: await totalsBy(sim, 'stratd_sim_requests_total', 'status'),
      unsettledJournal: journal.unsettled().filter((entry) => entry.state !== 'accepted').map((entry) => `${entry.id} ${entry.state}`),
      unjournaledOrders: truth.placedOrders().filter((o) => journal.get(o.clientOrderId) === undefined).map((o) => o.clientOrderId),
      finalViewsEqual: sameViews(daemon, truth, new Set()).equal,
      marketSocket: daemon.status().components.market.socket ?? null,
      marketSources: (daemon.status().components.market.channels ?? []).map((c) => `${c.key} ${c.via}->${c.source}`),
    };
    return report;
  } finally {
    await daemon.stop();
    http.close();
    await sim.stop();
  }
}

/** The virtual clock read `offsetMs` off (clock and scheduler alike, as a stepped wall clock reads); delays stay as asked. */
class SteppedTime implements TimeSource, SchedulerLike {
  readonly clock: Clock = this;
  readonly scheduler: SchedulerLike = this;

  constructor(
    private readonly base: VirtualClock,
    public offsetMs: number,
  ) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    return this.base.schedule(work, delay, state);
  }
}

/** How far before a reconnect a failed check's trail starts. */
const TRAIL_BEFORE_MS = 8000;

/** The last seconds of account events on both sides, one short line each, for a failed check to show. */
class EventTrail {
  private lines: Array<{ readonly at: number; readonly text: string }> = [];

  constructor(private readonly clock: VirtualClock) {}

  record(side: 'exchange' | 'daemon', event: unknown): void {
    const at = this.clock.now();
    this.lines.push({ at, text: `${side} ${JSON.stringify(event).slice(0, 400)}` });
    if (this.lines.length > 4000 && (this.lines[0]?.at ?? at) < at - 4 * TRAIL_BEFORE_MS) this.lines = this.lines.filter((line) => line.at >= at - 2 * TRAIL_BEFORE_MS);
  }

  /** Lines from `from` on, each prefixed with its time relative to `origin`. */
  since(from: number, origin: number): string[] {
    return this.lines.filter((line) => line.at >= from).map((line) => `${line.at - origin} ${line.text}`);
  }
}

/** Reconnects whose convergence is being watched: settled when both views agree, failed 5 s after the reconnect. */
class ConvergenceWatch {
  readonly done: ReconnectCheck[] = [];
  private readonly open: number[] = [];

  constructor(
    private readonly daemon: Daemon,
    private readonly truth: ExchangeTruth,
    private readonly clock: VirtualClock,
    private readonly trail: EventTrail,
  ) {}

  get watching(): boolean {
    return this.open.length > 0;
  }

  reconnected(at: number): void {
    this.open.push(at);
  }

  /** Compares the views now (I/O of the instant settled) for every open watch. */
  check(): void {
    if (this.open.length === 0) return;
    const views = sameViews(this.daemon, this.truth, awaitingIds(this.daemon));
    const now = this.clock.now();
    for (const at of this.open.splice(0)) {
      if (views.equal) this.done.push({ at, agreedAfterMs: now - at });
      else if (now - at >= CONVERGE_WITHIN_MS) {
        const difference = { onlyLocal: without(views.local, views.exchange), onlyExchange: without(views.exchange, views.local) };
        this.done.push({ at, agreedAfterMs: undefined, difference, trail: this.trail.since(at - TRAIL_BEFORE_MS, at) });
      }
      else this.open.push(at);
    }
  }
}

/** The rows of `rows` left once each row of `other` took away one equal row. */
function without(rows: readonly string[], other: readonly string[]): string[] {
  const left = [...rows];
  for (const row of other) {
    const at = left.indexOf(row);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

/** Orders whose submission still awaits its answer: neither side can be expected to agree on them yet. */
function awaitingIds(daemon: Daemon): Set<string> {
  return new Set(daemon.journal.unsettled().filter((e) => e.state !== 'accepted').map((e) => e.id));
}

function sameViews(daemon: Daemon, truth: ExchangeTruth, awaiting: ReadonlySet<string>): { equal: boolean; local: string[]; exchange: string[] } {
  const cache = daemon.kernel.cache;
  const localOrders = cache
    .openOrders()
    .filter((o) => !awaiting.has(o.clientOrderId))
    .map((o) => orderRow(o.clientOrderId, o.symbol, o.side, o.positionSide, o.price.toFixed(), o.quantity.toFixed(), o.filledQty.toFixed()));
  const localPositions = cache
    .positions()
    .filter((p) => p.qty.gt(0))
    .map((p) => positionRow(p.symbol, p.positionSide, p.qty.toFixed()));
  const local = [...localOrders.sort(), ...localPositions.sort()];
  const exchange = [...truth.openOrderRows().filter((row) => !awaiting.has(row.split(' ')[0] ?? '')), ...truth.positionRows()];
  return { equal: JSON.stringify(local) === JSON.stringify(exchange), local, exchange };
}

interface IntentCounts {
  readonly approved: number;
  readonly denied: number;
}

async function intentCounts(daemon: Daemon): Promise<IntentCounts> {
  const samples = (await scrape(daemon.health.url)).filter((s) => s.name === 'stratd_intents_total');
  const total = (outcome: string): number => samples.filter((s) => s.labels['outcome'] === outcome).reduce((sum, s) => sum + s.value, 0);
  return { approved: total('approved'), denied: total('denied') };
}

/** One of the daemon's counters summed by one label, over the whole run. */
async function daemonTotalsBy(daemon: Daemon, name: string, label: string): Promise<Record<string, number>> {
  return sumBy(await scrape(daemon.health.url), name, label);
}

async function simSamples(sim: SimulatedExchange): Promise<MetricSample[]> {
  return parseMetrics(await sim.http.metrics.registry.metrics());
}

async function refusedForRateLimits(sim: SimulatedExchange): Promise<number> {
  return (await simSamples(sim))
    .filter((s) => s.name === 'stratd_sim_requests_total' && (s.labels['status'] === '429' || s.labels['status'] === '418'))
    .reduce((sum, s) => sum + s.value, 0);
}

/** One of the simulator's counters summed by one label. */
async function totalsBy(sim: SimulatedExchange, name: string, label: string): Promise<Record<string, number>> {
  return sumBy(await simSamples(sim), name, label);
}

function sumBy(samples: readonly MetricSample[], name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) if (s.name === name) out[s.labels[label] ?? '?'] = (out[s.labels[label] ?? '?'] ?? 0) + s.value;
  return out;
}
