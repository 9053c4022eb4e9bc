import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import type { SimLeaderConfig } from '../config/sim-config.js';
import type { SimResult } from '../engine/types.js';
import { checkConfigRules } from './config-rules.js';
import { CopyPosition } from './position.js';
import type { ClosedCopy } from './position.js';
import { copyMargin } from './sizing.js';
import { stopReached } from './stops.js';
import type { CopyTradingVenue } from './venue.js';
import type { FollowConfig, FollowConfigRequest } from './follow-config.js';
import { copiesLeadOrder } from './follow-config.js';
import type { FollowLimits } from './follow-limits.js';
import { followLimits } from './follow-limits.js';
import { followerRejects } from './follower/rejects.js';
import { Follow, FollowerRecord } from './follower/record.js';
import type { LeaderPosition, LeaderTrade } from './leader/position.js';
import type { LeaderFigures } from './leader/trader.js';
import { LeaderTrader } from './leader/trader.js';
import { initialMargin, pnlAt, quantityForMargin } from './position-math.js';
import type { CloseReason } from './wire-codes.js';

export interface CopyTradingDeskOptions {
  readonly venue: CopyTradingVenue;
  /** The sim config's `copyTrading.leaders`. */
  readonly leaders: readonly SimLeaderConfig[];
  /** The sim seed: the same seed gives the same leader schedules and choices. */
  readonly seed: number;
  /** Time of the desk's start (leaders' first decisions follow it); default `venue.now()`. */
  readonly startTime?: number;
  readonly limits?: Partial<FollowLimits>;
}

/** An open copy position with its market figures at the desk's time. */
export interface CopyPositionSnapshot {
  readonly position: CopyPosition;
  readonly leaderNickname: string;
  readonly markPrice: string | undefined;
  readonly lastPrice: string | undefined;
  readonly unrealizedProfit: Decimal;
  /** Unrealized profit over the position's initial margin. */
  readonly unrealizedProfitRate: Decimal;
}

export interface HistoryPage {
  readonly total: number;
  readonly pages: number;
  /** Newest close first. */
  readonly rows: readonly ClosedCopy[];
}

export interface LeaderSummarySnapshot {
  readonly leaderUserId: string;
  readonly nickname: string;
  readonly figures: LeaderFigures;
}

/** PUT /positions/stop-profit-loss, validated. Absent fields stay as they are. */
export interface PositionStopsChange {
  readonly leaderUserId: string;
  readonly symbolId: string;
  readonly isLong: boolean;
  readonly stopProfitRate?: Decimal;
  readonly stopLossRate?: Decimal;
  readonly stopLossDelay?: number;
}

/**
 * Copy trading on the simulated exchange: synthetic leaders trading on the engine's prices, and the
 * followers' copies of their positions. Deterministic on engine time: `advanceTo` runs every leader
 * decision due up to that time (in time order, leaders in config order on ties) with the prices of the
 * moment, copies opens and closes to the active follows, then closes copies whose unrealized PnL
 * rate, at mark price, crossed their stop-profit or stop-loss rate.
 */
export class CopyTradingDesk {
  readonly limits: FollowLimits;
  private readonly venue: CopyTradingVenue;
  private readonly leaders = new Map<string, LeaderTrader>();
  private readonly followers = new Map<string, FollowerRecord>();
  private readonly listeners = new Set<(trade: LeaderTrade) => void>();
  private time: number;
  private ids = 0;
  private advancing = false;

  constructor(options: CopyTradingDeskOptions) {
    this.venue = options.venue;
    this.limits = followLimits(options.limits);
    this.time = options.startTime ?? options.venue.now();
    for (const config of options.leaders) this.leaders.set(config.leaderUserId, new LeaderTrader(config, options.seed, this.time));
  }

  /** The desk's time: the last `advanceTo`. */
  now(): number {
    return this.time;
  }

  /** Runs leader decisions due up to `time`, copies them, then checks copy stops at `time`. Earlier times are ignored. */
  advanceTo(time: number): void {
    // A listener that calls back in (a route answering from inside onLeaderTrade) must not nest a run.
    if (time < this.time || this.advancing) return;
    this.advancing = true;
    try {
      for (let leader = this.dueLeader(time); leader !== undefined; leader = this.dueLeader(time)) {
        const trade = leader.decide(this.venue, () => String(++this.ids));
        if (trade === undefined) continue;
        if (trade.kind === 'open') this.copyOpen(trade);
        else this.copyClose(trade.position, trade.time, trade.closePrice);
        for (const listener of this.listeners) listener(trade);
      }
      this.time = time;
      this.checkStops(time);
    } finally {
      this.advancing = false;
    }
  }

  /** `advanceTo` the engine's current time (what every follower request does first). */
  catchUp(): void {
    this.advanceTo(this.venue.now());
  }

  /** Every leader open and close, as it happens. */
  onLeaderTrade(listener: (trade: LeaderTrade) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  leaderIds(): readonly string[] {
    return [...this.leaders.keys()];
  }

  leaderPositions(leaderUserId: string): readonly LeaderPosition[] {
    return this.leaders.get(leaderUserId)?.positions() ?? [];
  }

  leaderFigures(leaderUserId: string): LeaderFigures | undefined {
    return this.leaders.get(leaderUserId)?.figures(this.venue);
  }

  nicknameOf(leaderUserId: string): string {
    return this.leaders.get(leaderUserId)?.config.nickname ?? '';
  }

  // ---------------------------------------------------------------- follower endpoints

  /** PUT /config: creates the follow of `request.leaderUserId` or replaces its config. */
  setConfig(userId: string, request: FollowConfigRequest): SimResult<FollowConfig> {
    if (!this.leaders.has(request.leaderUserId)) return err(followerRejects.invalid('leaderUserId'));
    const follower = this.followers.get(userId);
    const existing = follower?.follows.get(request.leaderUserId);
    const checked = checkConfigRules(request, {
      limits: this.limits,
      isSymbol: (symbol) => this.venue.instrument(symbol) !== undefined,
      ...(existing === undefined || follower === undefined
        ? {}
        : { current: { leverage: existing.config.leverage, hasCopyPositions: follower.copiesOf(request.leaderUserId).length > 0 } }),
    });
    if (!checked.ok) return checked;
    if (existing !== undefined) existing.config = checked.value;
    else {
      const record = follower ?? new FollowerRecord(userId);
      this.followers.set(userId, record);
      record.follows.set(request.leaderUserId, new Follow(checked.value, this.time));
    }
    return checked;
  }

  /** GET /config */
  config(userId: string, leaderUserId: string): SimResult<FollowConfig> {
    const found = this.followOf(userId, leaderUserId);
    return found.ok ? ok(found.value.follow.config) : found;
  }

  /** GET /orders/current: -32045 without an active follow. */
  currentPositions(userId: string): SimResult<readonly CopyPositionSnapshot[]> {
    const follower = this.followers.get(userId);
    if (follower === undefined || follower.follows.size === 0) return err(followerRejects.notFollower());
    return ok(follower.open.map((p) => this.snapshot(p)));
  }

  /** GET /orders/history: -32045 only for an account that never followed (history outlives the follows). */
  history(userId: string, page: number, size: number): SimResult<HistoryPage> {
    const follower = this.followers.get(userId);
    if (follower === undefined) return err(followerRejects.notFollower());
    const total = follower.closed.length;
    const newestFirst = [...follower.closed].reverse();
    return ok({ total, pages: Math.ceil(total / size), rows: newestFirst.slice((page - 1) * size, page * size) });
  }

  /** GET /leaders: the followed leaders; -32045 without an active follow. */
  followedLeaders(userId: string): SimResult<readonly LeaderSummarySnapshot[]> {
    const follower = this.followers.get(userId);
    if (follower === undefined || follower.follows.size === 0) return err(followerRejects.notFollower());
    const out: LeaderSummarySnapshot[] = [];
    for (const leaderUserId of follower.follows.keys()) {
      const leader = this.leaders.get(leaderUserId);
      if (leader !== undefined) out.push({ leaderUserId, nickname: leader.config.nickname, figures: leader.figures(this.venue) });
    }
    return ok(out);
  }

  /** PUT /positions/stop-profit-loss */
  setPositionStops(userId: string, change: PositionStopsChange): SimResult<null> {
    const found = this.followOf(userId, change.leaderUserId);
    if (!found.ok) return found;
    const copy = found.value.follower.open.find((p) => p.leaderUserId === change.leaderUserId && p.symbol === change.symbolId && p.isLong === change.isLong);
    if (copy === undefined) return err(followerRejects.invalid('symbolId'));
    if (change.stopProfitRate !== undefined) copy.stopProfitRate = change.stopProfitRate;
    if (change.stopLossRate !== undefined) copy.stopLossRate = change.stopLossRate;
    if (change.stopLossDelay !== undefined) copy.stopLossDelaySeconds = change.stopLossDelay;
    this.checkStops(this.time);
    return ok(null);
  }

  /** DELETE /leaders/{leaderUserId}: ends the follow; -120055 while its copies are open. */
  unfollow(userId: string, leaderUserId: string): SimResult<null> {
    const found = this.followOf(userId, leaderUserId);
    if (!found.ok) return found;
    if (found.value.follower.copiesOf(leaderUserId).length > 0) return err(followerRejects.hasCopyPositions());
    found.value.follower.follows.delete(leaderUserId);
    return ok(null);
  }

  // ---------------------------------------------------------------- internals

  private followOf(userId: string, leaderUserId: string): SimResult<{ readonly follower: FollowerRecord; readonly follow: Follow }> {
    if (!this.leaders.has(leaderUserId)) return err(followerRejects.invalid('leaderUserId'));
    const follower = this.followers.get(userId);
    const follow = follower?.follows.get(leaderUserId);
    return follower === undefined || follow === undefined ? err(followerRejects.notFollower()) : ok({ follower, follow });
  }

  private dueLeader(time: number): LeaderTrader | undefined {
    let due: LeaderTrader | undefined;
    for (const leader of this.leaders.values()) {
      if (leader.nextDecisionTime <= time && (due === undefined || leader.nextDecisionTime < due.nextDecisionTime)) due = leader;
    }
    return due;
  }

  private copyOpen(trade: Extract<LeaderTrade, { kind: 'open' }>): void {
    const lead = trade.position;
    const instrument = this.venue.instrument(lead.symbol);
    if (instrument === undefined) return;
    for (const follower of this.followers.values()) {
      const follow = follower.follows.get(lead.leaderUserId);
      if (follow === undefined || follow.since > trade.time || !copiesLeadOrder(follow.config, lead.symbol, lead.marginType)) continue;
      const config = follow.config;
      const margin = copyMargin({
        config,
        leaderMargin: lead.margin,
        leaderMarginBalance: trade.marginBalanceBefore,
        investedOpen: sum(follower.copiesOf(lead.leaderUserId).map((p) => p.margin)),
        investedToday: follow.investedOn(trade.time),
        freeFunds: this.freeFunds(follower, instrument.category),
      });
      const leverage = config.leverage.gt(0) ? config.leverage : lead.leverage;
      const quantity = quantityForMargin(instrument, margin, lead.openPrice, leverage);
      if (quantity.isZero()) continue;
      const used = initialMargin(quantity, lead.openPrice, leverage);
      const stops = { stopProfitRate: config.stopProfitRate, stopLossRate: config.stopLossRate, stopLossDelaySeconds: config.stopLossDelay };
      follower.open.push(
        new CopyPosition(follower.userId, lead.leaderUserId, lead.id, lead.symbol, lead.isLong, lead.marginType, leverage, quantity, lead.openPrice, used, trade.time, stops),
      );
      follow.recordInvestment(trade.time, used);
    }
  }

  private copyClose(lead: LeaderPosition, time: number, price: Decimal): void {
    for (const follower of this.followers.values()) {
      for (const copy of follower.open.filter((p) => p.leaderPositionId === lead.id)) this.close(follower, copy, time, price, 'LEADER_CLOSED');
    }
  }

  /** Copy-trading funds free for a new copy: the account balance plus realized profit less open copy margin. */
  private freeFunds(follower: FollowerRecord, coin: string): Decimal {
    const balance = this.venue.copyTradingBalances(follower.userId).find((b) => b.coin === coin)?.total ?? '0';
    const used = sum(follower.open.filter((p) => this.coinOf(p.symbol) === coin).map((p) => p.margin));
    return dec(balance).add(follower.realizedIn(coin)).sub(used);
  }

  private coinOf(symbol: string): string {
    return this.venue.instrument(symbol)?.category ?? 'USDT';
  }

  private checkStops(time: number): void {
    for (const follower of this.followers.values()) {
      for (const copy of [...follower.open]) {
        const text = this.venue.markPrice(copy.symbol) ?? this.venue.lastPrice(copy.symbol);
        if (text === undefined) continue;
        const price = dec(text);
        const reason = stopReached(copy, price, time);
        if (reason !== undefined) this.close(follower, copy, time, price, reason);
      }
    }
  }

  private close(follower: FollowerRecord, copy: CopyPosition, time: number, price: Decimal, reason: CloseReason): void {
    const index = follower.open.indexOf(copy);
    if (index < 0) return;
    follower.open.splice(index, 1);
    const realizedProfit = pnlAt(copy.isLong, copy.quantity, copy.openPrice, price);
    follower.addRealized(this.coinOf(copy.symbol), realizedProfit);
    follower.closed.push({ position: copy, closeTime: time, closePrice: price, realizedProfit, reason });
  }

  private snapshot(position: CopyPosition): CopyPositionSnapshot {
    const markPrice = this.venue.markPrice(position.symbol);
    const lastPrice = this.venue.lastPrice(position.symbol);
    const priced = markPrice ?? lastPrice;
    const unrealizedProfit = priced === undefined ? dec(0) : pnlAt(position.isLong, position.quantity, position.openPrice, dec(priced));
    return {
      position,
      leaderNickname: this.nicknameOf(position.leaderUserId),
      markPrice,
      lastPrice,
      unrealizedProfit,
      unrealizedProfitRate: unrealizedProfit.div(position.margin),
    };
  }
}

function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((a, b) => a.add(b), dec(0));
}
