import type { Clock } from '../../core/clock.js';
import { decText } from '../../core/decimal.js';
import type { Kernel, KernelState } from '../../engine/kernel.js';
import type { ProtectionStatus } from '../../engine/risk/risk-engine.js';
import type { RunnerState } from '../../engine/strategy/runner.js';
import { ledgerStatus } from '../../engine/ledger/status.js';
import type { LedgerStatusRow } from '../../engine/ledger/status.js';
import type { RiskLimits } from '../../model/risk-limits.js';
import type { GovernorSnapshot, RateGovernor } from '../../venue/rate-governor.js';
import type { MarketPoller } from '../../venue/sources/market-poller.js';
import type { ChannelSourceState, MarketFeed } from '../../venue/market-ws/market-feed.js';
import type { MarketWsStats } from '../../venue/market-ws/session.js';
import type { UserStreamSession, UserStreamState } from '../../venue/stream/user-stream-session.js';
import type { TimeSync } from '../../venue/time-sync.js';
import { DEFAULT_TIME_SYNC } from '../../venue/time-sync.js';
import type { CronJobs, JobStats } from '../daemon/cron-scheduler.js';
import type { HealthReport } from './server.js';
import type { KillSwitchView } from './routes.js';
import type { ReloadReport } from '../daemon/reload.js';
import type { LiveMarketStatus } from '../paper-live/market.js';
import type { StrategyDayFigures } from '../trade-log/day.js';
import { feesText } from '../trade-log/day.js';

/** The newest error of each component, as it happened (later successes do not clear it). */
export class ComponentErrors {
  private readonly latest = new Map<string, { readonly message: string; readonly at: number }>();

  record(component: string, message: string, at: number): void {
    this.latest.set(component, { message, at });
  }

  all(): ReadonlyMap<string, { readonly message: string; readonly at: number }> {
    return this.latest;
  }
}

/** Everything /readyz and /status read. */
export interface StatusSources {
  readonly kernel: Kernel;
  readonly mode: 'paper' | 'live';
  readonly clock: Clock;
  readonly startedAt: number;
  readonly timeSync: TimeSync;
  readonly governor: RateGovernor;
  readonly streams: ReadonlyArray<{ readonly category: string; readonly session: UserStreamSession }>;
  readonly poller: MarketPoller;
  /** The market socket and where each channel's events come from now. */
  readonly feed?: MarketFeed;
  readonly jobs: CronJobs;
  readonly errors: ComponentErrors;
  /** Fills, realized PnL and fees of a strategy since the daily reset (the trade log's tally). */
  readonly today?: (strategyId: string) => StrategyDayFigures;
  readonly params: (strategyId: string) => unknown;
  readonly limits: (strategyId: string) => RiskLimits | undefined;
  readonly lastReload: () => ReloadReport | undefined;
  /** Paper on the live market: the feed that drives the simulator. */
  readonly liveMarket?: () => LiveMarketStatus;
}

/** TimeSync refreshes every 10 minutes; three missed refreshes in a row make the offset stale. */
const CLOCK_STALE_MS = 3 * DEFAULT_TIME_SYNC.refreshMs;

/** Ready to trade: kernel running, every user stream open, the exchange clock synced, the journal writable, the last reconciliation good. */
export function readiness(s: StatusSources): HealthReport {
  const reasons: string[] = [];
  if (s.kernel.state !== 'running') reasons.push(`kernel ${s.kernel.state}`);
  for (const { category, session } of s.streams) if (session.state !== 'open') reasons.push(`user stream ${category} ${session.state}`);
  const lastSync = s.timeSync.lastSync;
  if (!s.timeSync.isSynced || lastSync === undefined) reasons.push('exchange clock not synced');
  else if (s.clock.now() - lastSync > CLOCK_STALE_MS) reasons.push(`exchange clock last synced ${Math.round((s.clock.now() - lastSync) / 1000)} s ago`);
  const journal = s.kernel.executor.journalHealth.unavailable;
  if (journal !== undefined) reasons.push(`${journal}: opening orders wait until a write succeeds`);
  const reconcile = s.kernel.lastReconcile;
  if (reconcile === undefined) reasons.push('no reconciliation yet');
  else if (!reconcile.ok) reasons.push(`last reconciliation failed: ${reconcile.error ?? 'unknown error'}`);
  // Paper on the live market: a withdrawn book fills nothing until the feed brings a fresh one.
  const books = s.liveMarket?.().books ?? {};
  for (const [symbol, state] of Object.entries(books)) if (state === 'stale') reasons.push(`live market: no book of ${symbol} within maxBookAge`);
  return reasons.length === 0 ? { healthy: true } : { healthy: false, reasons };
}

export interface StrategyStatus {
  readonly id: string;
  readonly state: RunnerState;
  readonly symbols: readonly string[];
  readonly queued: number;
  readonly delivered: number;
  readonly params: unknown;
  /** Its own risk limits (decimals as text once serialized). */
  readonly limits: RiskLimits;
  readonly lastError?: string;
  /** Since the daily reset: fills, realized PnL (decimal text), fees per asset (`0.0257 USDT`). */
  readonly today?: { readonly fills: number; readonly realizedPnl: string; readonly fees: string };
}

/** GET /status and `stratd status --json`. Amounts are decimal text; times are epoch ms. */
export interface DaemonStatus {
  readonly time: number;
  readonly mode: 'paper' | 'live';
  /** Paper on the live market (`source: "paper on live market"`): the feed's lag per symbol and channel, and which books are in force. */
  readonly liveMarket?: LiveMarketStatus;
  readonly uptimeMs: number;
  readonly state: KernelState;
  readonly ready: { readonly ready: boolean; readonly reasons: readonly string[] };
  readonly killSwitch: KillSwitchView;
  /** The risk engine's protections (risk.protections; the daily loss limit first) and their trips. */
  readonly protections: readonly ProtectionStatus[];
  readonly pnlToday: string;
  readonly strategies: readonly StrategyStatus[];
  /** The account's futures wallet per margin asset (decimal text). */
  readonly balances: ReadonlyArray<Record<string, string | number | undefined>>;
  readonly positions: ReadonlyArray<Record<string, string | number | undefined>>;
  /** Each strategy's own holdings and PnL, and the external ledger (what no strategy owns, claimable). */
  readonly ledgers: readonly LedgerStatusRow[];
  readonly openOrders: ReadonlyArray<Record<string, string | number | undefined>>;
  readonly openAlgoOrders: ReadonlyArray<Record<string, string | number | undefined>>;
  readonly components: {
    readonly reconciliation: { readonly time: number; readonly ok: boolean; readonly error?: string } | null;
    readonly userStreams: ReadonlyArray<{ readonly category: string; readonly state: UserStreamState; readonly reconnects: number; readonly epoch: number; readonly lastInboundAt?: number }>;
    readonly clock: { readonly synced: boolean; readonly offsetMs: number; readonly lastSyncAt?: number };
    readonly rateBudget: GovernorSnapshot;
    readonly market: {
      readonly polls: number;
      readonly failures: number;
      readonly events: number;
      /** The public market socket, when any channel rides it. */
      readonly socket?: MarketWsStats;
      /** Each channel's configured `via` and its `source` now (`poll` under `via: ws`: on the fallback). */
      readonly channels?: readonly ChannelSourceState[];
    };
    readonly jobs: Readonly<Record<string, JobStats>>;
    /** Whether the order journal can be written (a failed write holds opening orders back until one succeeds). */
    readonly journal: { readonly writable: boolean; readonly failures: number; readonly since?: number };
  };
  /** The newest error per component (`rest`, `clock`, `executor`, `journal`, `user-stream:USDT`, `job:reconcile`, `strategy:ID`, `market:…`, `reconciliation`, `reload`). */
  readonly lastErrors: Readonly<Record<string, { readonly message: string; readonly at?: number }>>;
  readonly reload: ReloadReport | null;
}

export function daemonStatus(s: StatusSources): DaemonStatus {
  const { kernel } = s;
  const now = s.clock.now();
  const ready = readiness(s);
  const ownerOf = (clientOrderId: string): string => kernel.executor.ownerOf(clientOrderId) ?? 'external';
  const kill = kernel.risk.killSwitch;
  const jobs = s.jobs.stats();
  const poller = s.poller.stats();
  const reconcile = kernel.lastReconcile;
  return {
    time: now,
    mode: s.mode,
    ...(s.liveMarket === undefined ? {} : { liveMarket: s.liveMarket() }),
    uptimeMs: now - s.startedAt,
    state: kernel.state,
    ready: { ready: ready.healthy, reasons: ready.reasons ?? [] },
    killSwitch: {
      engaged: kill.engaged,
      reason: kill.reason,
      ...(kill.since === undefined ? {} : { since: kill.since }),
      ...(kill.dailyLoss ? { dailyLoss: true as const } : {}),
      ...(kill.override === undefined ? {} : { override: kill.override }),
    },
    protections: kernel.risk.protectionStatus(),
    pnlToday: decText(kernel.risk.dayPnl()),
    strategies: kernel.strategies.status().map((st) => ({ ...st, params: s.params(st.id), limits: { ...s.limits(st.id) }, ...strategyToday(s, st.id) })),
    balances: kernel.cache.balances().map((b) => ({
      asset: b.asset,
      walletBalance: decText(b.walletBalance),
      availableBalance: decText(b.availableBalance),
      lockedMargin: decText(b.lockedMargin),
      unrealizedPnl: decText(b.unrealizedPnl),
    })),
    positions: kernel.cache
      .positions()
      .filter((p) => !p.qty.isZero())
      .map((p) => ({
        symbol: p.symbol,
        side: p.positionSide,
        qty: decText(p.qty),
        avgPrice: decText(p.avgPrice),
        markPrice: p.markPrice === undefined ? undefined : decText(p.markPrice),
        unrealizedPnl: decText(p.unrealizedPnl),
        realizedPnl: decText(p.realizedPnl),
        liquidationPrice: p.liquidationPrice === undefined || p.liquidationPrice.isZero() ? undefined : decText(p.liquidationPrice),
        margin: decText(p.margin),
        marginType: p.marginType,
        leverage: decText(p.leverage),
      })),
    ledgers: ledgerStatus(kernel.ledgers.all()),
    openOrders: kernel.cache.openOrders().map((o) => ({
      strategy: ownerOf(o.clientOrderId),
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      orderId: o.orderId,
      side: o.side,
      positionSide: o.positionSide,
      type: o.type,
      price: decText(o.price),
      quantity: decText(o.quantity),
      filledQty: decText(o.filledQty),
      status: o.status,
    })),
    openAlgoOrders: kernel.cache.openAlgoOrders().map((o) => ({
      strategy: ownerOf(o.clientOrderId),
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      orderId: o.orderId,
      kind: o.kind,
      side: o.side,
      positionSide: o.positionSide,
      triggerPrice: decText(o.triggerPrice),
      price: decText(o.price),
      quantity: decText(o.quantity),
      status: o.status,
    })),
    components: {
      reconciliation: reconcile === undefined ? null : { time: reconcile.time, ok: reconcile.ok, ...(reconcile.error === undefined ? {} : { error: reconcile.error }) },
      userStreams: s.streams.map(({ category, session }) => ({
        category,
        state: session.state,
        reconnects: session.reconnects,
        epoch: session.epoch,
        ...(session.lastInboundAt === undefined ? {} : { lastInboundAt: session.lastInboundAt }),
      })),
      clock: { synced: s.timeSync.isSynced, offsetMs: s.timeSync.offset, ...(s.timeSync.lastSync === undefined ? {} : { lastSyncAt: s.timeSync.lastSync }) },
      rateBudget: s.governor.snapshot(),
      market: { polls: poller.polls, failures: poller.failures, events: poller.events, ...feedStatus(s.feed) },
      jobs,
      journal: journalStatus(kernel),
    },
    lastErrors: lastErrors(s, jobs, poller.channels),
    reload: s.lastReload() ?? null,
  };
}

function feedStatus(feed: MarketFeed | undefined): { socket?: MarketWsStats; channels?: readonly ChannelSourceState[] } {
  if (feed === undefined) return {};
  const stats = feed.stats();
  return { ...(stats.socket === undefined ? {} : { socket: stats.socket }), channels: stats.channels };
}

function lastErrors(
  s: StatusSources,
  jobs: Readonly<Record<string, JobStats>>,
  channels: ReturnType<MarketPoller['stats']>['channels'],
): Record<string, { message: string; at?: number }> {
  const out: Record<string, { message: string; at?: number }> = {};
  for (const [component, error] of s.errors.all()) out[component] = { ...error };
  const journalError = s.kernel.executor.journalHealth.state.lastError;
  if (journalError !== undefined) out['journal'] = { ...journalError };
  const reconcile = s.kernel.lastReconcile;
  if (reconcile !== undefined && !reconcile.ok) out['reconciliation'] = { message: reconcile.error ?? 'failed', at: reconcile.time };
  for (const st of s.kernel.strategies.status()) if (st.lastError !== undefined) out[`strategy:${st.id}`] = { message: st.lastError };
  for (const [job, st] of Object.entries(jobs)) {
    if (st.lastError !== undefined) out[`job:${job}`] = { message: st.lastError, ...(st.lastFinishedAt === undefined ? {} : { at: st.lastFinishedAt }) };
  }
  for (const c of channels) if (c.lastError !== undefined) out[`market:${c.key}`] = { message: c.lastError, ...(c.lastPollAt === undefined ? {} : { at: c.lastPollAt }) };
  return out;
}

function strategyToday(s: StatusSources, id: string): Pick<StrategyStatus, 'today'> {
  const figures = s.today?.(id);
  return figures === undefined ? {} : { today: { fills: figures.fills, realizedPnl: decText(figures.realizedPnl), fees: feesText(figures.fees) } };
}

function journalStatus(kernel: Kernel): DaemonStatus['components']['journal'] {
  const { writable, failures, since } = kernel.executor.journalHealth.state;
  return { writable, failures, ...(since === undefined ? {} : { since }) };
}
