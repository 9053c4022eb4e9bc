import { InvariantError } from '../../../core/errors.js';
import type { BusEvent } from '../../../model/bus-events.js';
import type { CacheView } from '../../../model/cache-view.js';
import { isOpening } from '../../../model/instrument.js';
import type { KeyValueStore } from '../../../model/journal.js';
import type { ProtectionChanged } from '../../../model/kernel-events.js';
import type { ProtectionAction, ProtectionKind, ProtectionScope, ProtectionSpec, ProtectionTrip } from '../../../model/protections.js';
import { GLOBAL_SCOPE } from '../../../model/protections.js';
import { makeProtection } from './make-protection.js';
import type { Entry, Exit, Protection } from './protection.js';
import { ScopeView } from './scope-view.js';
import type { StrategyFigures } from './strategy-figures.js';
import { FillFigures } from './strategy-figures.js';
import { TripBook } from './trip-book.js';

/** Most events change no protection: one shared empty list, not one per event of a replay. */
const NO_CHANGES: readonly ProtectionChanged[] = Object.freeze([]);

export interface ProtectionsOptions {
  readonly specs: readonly ProtectionSpec[];
  readonly strategyIds: readonly string[];
  readonly cache: CacheView;
  /** The strategy owning an order, by client order id. */
  readonly ownerOf: (clientOrderId: string) => string | undefined;
  /** Where trips are journaled; none: they last as long as the process. */
  readonly store?: KeyValueStore;
  /** Per-strategy positions and PnL; default: computed from the strategies' own fills. */
  readonly figures?: StrategyFigures & { onFill?: FillFigures['onFill'] };
}

export interface ProtectionStatus {
  readonly name: string;
  readonly kind: ProtectionKind;
  readonly scope: ProtectionScope;
  readonly action: ProtectionAction;
  readonly resumeAfterMs?: number;
  readonly tripped: ReadonlyArray<{ readonly scopeKey: string; readonly reason: string; readonly since: number; readonly resumeAt?: number }>;
}

/** Events after which a condition may have changed. */
const WATCHED = new Set<BusEvent['type']>(['account.fill', 'account.position', 'account.balance', 'account.funding', 'market.markPrice', 'timer', 'account.resynced']);

/**
 * The configured protections (besides the daily loss limit, which is the kill switch): each watched per
 * scope key ('global', or each covered strategy id), tripped with its action, journaled, resumed by
 * time, by the condition clearing (caps), or by hand. Time comes from the caller (the injected clock).
 */
export class Protections {
  private readonly list: readonly Protection[];
  private readonly book: TripBook;
  private readonly figures: StrategyFigures & { onFill?: FillFigures['onFill'] };
  private readonly strategyIds: ReadonlySet<string>;

  constructor(private readonly options: ProtectionsOptions) {
    this.list = options.specs.filter((s) => s.kind !== 'dailyLoss').map(makeProtection);
    this.strategyIds = new Set(options.strategyIds);
    this.book = new TripBook(options.store, new Set(this.list.map((p) => p.spec.name)));
    this.figures = options.figures ?? new FillFigures(options.cache);
  }

  /** Whether any protection is configured: without one, no trip holds an order back (`gate`) and no cap does (`admit`). */
  get configured(): boolean {
    return this.list.length > 0;
  }

  get strategyFigures(): StrategyFigures {
    return this.figures;
  }

  /** Trips found in the journal at start, as events to publish (their actions already ran before the restart). */
  restored(): readonly ProtectionChanged[] {
    return this.book.all().map((trip) => this.changed(trip, true, trip.since));
  }

  /** Follows fills and exits, then re-evaluates every protection; answers the trips and resumes. */
  onEvent(event: BusEvent, now: number): readonly ProtectionChanged[] {
    if (this.list.length === 0 || !WATCHED.has(event.type)) return NO_CHANGES;
    const changes: ProtectionChanged[] = [];
    if (event.type === 'account.fill') this.onFill(event.fill, now, changes);
    for (const protection of this.list) {
      for (const scopeKey of this.scopeKeys(protection.spec)) {
        const change = this.evaluate(protection, new ScopeView(scopeKey, now, this.options.cache, this.figures), now);
        if (change !== undefined) changes.push(change);
      }
    }
    return changes;
  }

  /** Why an opening order of the strategy is refused now: a trip covering it. */
  gate(strategyId: string, now: number): string | undefined {
    for (const protection of this.list) {
      for (const scopeKey of [GLOBAL_SCOPE, strategyId]) {
        const trip = this.book.get(protection.spec.name, scopeKey);
        if (trip === undefined || (trip.resumeAt !== undefined && trip.resumeAt <= now)) continue;
        const until = trip.resumeAt === undefined ? '' : ` until ${new Date(trip.resumeAt).toISOString()}`;
        const who = scopeKey === GLOBAL_SCOPE ? 'global' : `strategy ${strategyId}`;
        return `${who} protection ${protection.spec.name} tripped (${trip.reason}), action ${trip.action}${until}: only closing orders and cancels go through`;
      }
    }
    return undefined;
  }

  /** Why the caps refuse an opening order of the strategy. */
  admit(strategyId: string, entry: Entry, now: number): string | undefined {
    for (const protection of this.list) {
      for (const scopeKey of this.keysFor(protection.spec, strategyId)) {
        const refused = protection.admit(new ScopeView(scopeKey, now, this.options.cache, this.figures), entry);
        if (refused !== undefined) return `${scopeKey === GLOBAL_SCOPE ? 'global' : `strategy ${strategyId}`} protection ${protection.spec.name}: ${refused}`;
      }
    }
    return undefined;
  }

  /** The operator's resume: every trip ends now (peaks and streaks start over). */
  releaseAll(now: number, reason: string): readonly ProtectionChanged[] {
    const changes: ProtectionChanged[] = [];
    for (const trip of this.book.all()) {
      const protection = this.list.find((p) => p.spec.name === trip.protection);
      if (protection !== undefined) changes.push(this.release(protection, trip, new ScopeView(trip.scopeKey, now, this.options.cache, this.figures), now, reason));
    }
    return changes;
  }

  status(): readonly ProtectionStatus[] {
    return this.list.map(({ spec }) => ({
      name: spec.name,
      kind: spec.kind,
      scope: spec.scope,
      action: spec.action,
      ...(spec.resumeAfterMs === undefined ? {} : { resumeAfterMs: spec.resumeAfterMs }),
      tripped: this.book
        .all()
        .filter((t) => t.protection === spec.name)
        .map((t) => ({ scopeKey: t.scopeKey, reason: t.reason, since: t.since, ...(t.resumeAt === undefined ? {} : { resumeAt: t.resumeAt }) })),
    }));
  }

  private onFill(fill: Parameters<FillFigures['onFill']>[1], now: number, changes: ProtectionChanged[]): void {
    const owner = this.options.ownerOf(fill.clientOrderId);
    const strategy = owner !== undefined && this.strategyIds.has(owner) ? owner : undefined;
    if (strategy !== undefined) this.figures.onFill?.(strategy, fill);
    if (isOpening(fill.side, fill.positionSide)) return;
    const exit: Exit = { orderId: fill.orderId, time: fill.time, pnl: fill.realizedPnl.sub(fill.fee) };
    for (const protection of this.list) {
      const keys = protection.spec.scope === 'global' ? [GLOBAL_SCOPE] : strategy !== undefined && this.covers(protection.spec, strategy) ? [strategy] : [];
      for (const scopeKey of keys) {
        const reason = protection.onExit(scopeKey, exit);
        if (reason !== undefined) changes.push(this.trip(protection, scopeKey, reason, now));
      }
    }
  }

  private evaluate(protection: Protection, view: ScopeView, now: number): ProtectionChanged | undefined {
    const trip = this.book.get(protection.spec.name, view.scopeKey);
    if (trip !== undefined) {
      if (trip.resumeAt !== undefined) return trip.resumeAt <= now ? this.release(protection, trip, view, now, 'resume time reached') : undefined;
      if (protection.standing && protection.breach(view) === undefined) return this.release(protection, trip, view, now, 'condition cleared');
      return undefined;
    }
    const reason = protection.breach(view);
    return reason === undefined ? undefined : this.trip(protection, view.scopeKey, reason, now);
  }

  /** Trips (or, tripped already, trips again from now: a cooldown's new exit). */
  private trip(protection: Protection, scopeKey: string, reason: string, now: number): ProtectionChanged {
    const { spec } = protection;
    const trip: ProtectionTrip = { protection: spec.name, scopeKey, action: spec.action, reason, since: now, resumeAt: spec.resumeAfterMs === undefined ? undefined : now + spec.resumeAfterMs };
    this.book.set(trip);
    return this.changed(trip, true, now);
  }

  private release(protection: Protection, trip: ProtectionTrip, view: ScopeView, now: number, reason: string): ProtectionChanged {
    this.book.delete(trip.protection, trip.scopeKey);
    protection.reset(view);
    return this.changed({ ...trip, reason, resumeAt: undefined }, false, now);
  }

  private changed(trip: ProtectionTrip, tripped: boolean, time: number): ProtectionChanged {
    const spec = this.list.find((p) => p.spec.name === trip.protection)?.spec;
    if (spec === undefined) throw new InvariantError('UNKNOWN_PROTECTION', `a trip of protection ${trip.protection}, which is not configured`);
    return {
      type: 'risk.protection',
      time,
      protection: trip.protection,
      kind: spec.kind,
      scopeKey: trip.scopeKey,
      tripped,
      action: trip.action,
      reason: trip.reason,
      ...(tripped && trip.resumeAt !== undefined ? { resumeAt: trip.resumeAt } : {}),
    };
  }

  private covers(spec: ProtectionSpec, strategyId: string): boolean {
    return spec.strategies === undefined || spec.strategies.includes(strategyId);
  }

  private scopeKeys(spec: ProtectionSpec): readonly string[] {
    if (spec.scope === 'global') return [GLOBAL_SCOPE];
    return [...this.strategyIds].filter((id) => this.covers(spec, id));
  }

  private keysFor(spec: ProtectionSpec, strategyId: string): readonly string[] {
    if (spec.scope === 'global') return [GLOBAL_SCOPE];
    return this.covers(spec, strategyId) ? [strategyId] : [];
  }
}
