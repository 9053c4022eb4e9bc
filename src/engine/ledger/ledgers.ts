import type { Clock } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { PositionSide } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import type { KeyValueStore } from '../../model/journal.js';
import type { LedgerEvent, LedgerPosition, PositionClaimed, PositionLossCause, PositionLost } from '../../model/ledger.js';
import { EXTERNAL_LEDGER } from '../../model/ledger.js';
import type { Fill } from '../../model/orders.js';
import { LEDGER_FILL_CHUNK, LedgerBook } from './book.js';
import { decodeLedgerState, ledgerFillsChunkOf, ledgerFillsKey, ledgerStateValue } from './codec.js';
import type { LedgerClaim } from './claims.js';
import { lossCauseOf } from './loss-cause.js';

/** What most events change in the ledgers: nothing (one shared empty list, not one per event of a replay). */
const NO_EVENTS: readonly LedgerEvent[] = Object.freeze([]);

/** The key under which the ledgers live in their key-value store (the state file's `strategy_kv`). */
export const LEDGER_STATE_KEY = 'ledgers';

/**
 * Whose an order is, and who to tell of a moved fill: methods of one object (the kernel's is of a class,
 * so the same functions in every backtest a sweep runs, not closures each).
 */
export interface LedgerOwners {
  /** The strategy that placed an order (the executor's records, then the id's tag), or undefined. */
  ownerOf(clientOrderId: string): string | undefined;
  /**
   * The strategy an order belongs to by its exchange id (a fill that carried no client order id), or
   * undefined. Default: none known that way.
   */
  ownerOfOrder?(orderId: string): string | undefined;
  /** A fill booked to `external` was moved to its owner's ledger (the owner never heard of it: tell it now). */
  moved?(fill: Fill, owner: string): void;
}

export interface LedgersOptions {
  readonly cache: CacheView;
  readonly clock: Clock;
  /** Persistent: written after every change, read at construction (a restart rebuilds the ledgers exactly). */
  readonly store: KeyValueStore;
  readonly strategyIds: readonly string[];
  readonly owners: LedgerOwners;
  /** Claims from config: applied after every start-up reconciliation. */
  readonly claims?: readonly LedgerClaim[];
  readonly logger: Logger;
}

/** Why a claim was refused (an expected outcome: nothing external to claim, an unknown strategy). */
export interface ClaimRefused {
  readonly code: 'UNKNOWN_STRATEGY' | 'NOTHING_TO_CLAIM' | 'UNKNOWN_SYMBOL';
  readonly message: string;
}

/**
 * The ledgers of the account (kernel part: the same in live, paper and backtest). Books each new fill
 * to the strategy that placed the order, shares funding, notices positions lost without an own fill
 * (a liquidation, an auto-deleverage, or a shrink a resync shows), moves claimed external holdings,
 * and persists after every change. Answers the events the kernel publishes.
 */
export class Ledgers {
  private readonly book: LedgerBook;
  private readonly strategies: ReadonlySet<string>;
  private readonly log: Logger;
  private claimsApplied = false;

  // The options' parts in fields of their own (see Executor: an options literal's widened field types deoptimized their readers).
  private readonly cache: LedgersOptions['cache'];
  private readonly clock: LedgersOptions['clock'];
  private readonly owners: LedgersOptions['owners'];
  private readonly claims: LedgersOptions['claims'];
  private readonly store: LedgersOptions['store'];

  constructor(options: LedgersOptions) {
    this.cache = options.cache;
    this.clock = options.clock;
    this.owners = options.owners;
    this.claims = options.claims;
    this.store = options.store;
    const store = options.store;
    const state = decodeLedgerState(store.get(LEDGER_STATE_KEY), (n) => store.get(ledgerFillsKey(LEDGER_STATE_KEY, n)), LEDGER_FILL_CHUNK);
    this.book = new LedgerBook(state);
    // A chunk the record does not list was written by a save that crashed before its record, or forgotten by one that crashed before deleting it.
    const listed = new Set(state?.booked.chunksStored === true ? state.booked.chunks.map((c) => c.n) : []);
    for (const key of store.keys()) {
      const n = ledgerFillsChunkOf(LEDGER_STATE_KEY, key);
      if (n !== undefined && !listed.has(n)) store.delete(key);
    }
    this.strategies = new Set(options.strategyIds);
    this.log = options.logger;
  }

  /** The strategy's own holding (the external ledger's when `owner` is `external`). */
  position(owner: string, symbol: string, positionSide: PositionSide): LedgerPosition | undefined {
    if (owner === EXTERNAL_LEDGER) return this.book.external(this.cache.position(symbol, positionSide), symbol, positionSide, this.clock.now());
    return this.book.get(owner, symbol, positionSide);
  }

  /** Every ledger's records, the external one with its derived quantity for every symbol side the account or a ledger knows. */
  all(): readonly LedgerPosition[] {
    const out: LedgerPosition[] = [];
    for (const owner of this.book.owners()) if (owner !== EXTERNAL_LEDGER) out.push(...this.book.positionsOf(owner));
    const keys = new Map<string, { symbol: string; side: PositionSide }>();
    for (const p of out) keys.set(`${p.symbol}/${p.positionSide}`, { symbol: p.symbol, side: p.positionSide });
    for (const p of this.cache.positions()) keys.set(`${p.symbol}/${p.positionSide}`, { symbol: p.symbol, side: p.positionSide });
    for (const p of this.book.positionsOf(EXTERNAL_LEDGER)) keys.set(`${p.symbol}/${p.positionSide}`, { symbol: p.symbol, side: p.positionSide });
    for (const { symbol, side } of keys.values()) {
      const external = this.position(EXTERNAL_LEDGER, symbol, side);
      if (external !== undefined && (!external.qty.isZero() || this.book.get(EXTERNAL_LEDGER, symbol, side) !== undefined)) out.push(external);
    }
    return out;
  }

  /** Called with every event the cache applied; answers the ledger events to publish. */
  onEvent(event: BusEvent): readonly LedgerEvent[] {
    switch (event.type) {
      case 'account.fill':
        return this.onFill(event.fill);
      case 'account.funding': {
        const { symbol, amount, time } = event.funding;
        const long = this.cache.position(symbol, 'LONG')?.qty ?? dec(0);
        const short = this.cache.position(symbol, 'SHORT')?.qty ?? dec(0);
        this.book.shareFunding(symbol, amount, long.sub(short), time);
        this.save();
        return NO_EVENTS;
      }
      case 'account.resynced': {
        // Orders the reconciliation attributed (a plan row's order whose trigger event was lost) take their fills first.
        this.reattribute();
        const lost = this.trueUp(event.time);
        const claimed = this.claimsApplied ? [] : this.applyConfigClaims(event.time);
        this.claimsApplied = true;
        return [...lost, ...claimed];
      }
      default:
        return NO_EVENTS;
    }
  }

  /**
   * Moves the external holding of a symbol side (all of it, or `qty` of it) to `strategyId`, at the
   * account's average entry price.
   */
  claim(strategyId: string, symbol: string, positionSide: PositionSide, qty: Decimal | undefined, by: PositionClaimed['by']): Result<PositionClaimed, ClaimRefused> {
    if (!this.strategies.has(strategyId)) return err({ code: 'UNKNOWN_STRATEGY', message: `no strategy "${strategyId}" runs here` });
    if (this.cache.instrument(symbol) === undefined) return err({ code: 'UNKNOWN_SYMBOL', message: `unknown symbol ${symbol}` });
    const time = this.clock.now();
    const account = this.cache.position(symbol, positionSide);
    const external = this.book.external(account, symbol, positionSide, time);
    const wanted = qty === undefined || qty.gt(external.qty) ? external.qty : qty;
    if (wanted.lte(0)) return err({ code: 'NOTHING_TO_CLAIM', message: `the external ledger holds no ${positionSide} ${symbol}` });
    const price = account?.avgPrice ?? dec(0);
    this.book.transfer(strategyId, symbol, positionSide, wanted, price, time);
    this.save();
    this.log.info({ strategy: strategyId, symbol, side: positionSide, qty: wanted.toFixed(), price: price.toFixed(), by }, 'external position claimed');
    return ok({ type: 'ledger.claimed', time, strategyId, symbol, positionSide, qty: wanted, price, by });
  }

  /** Fills booked to the external ledger whose order may still turn out to be a strategy's (oldest first). */
  unattributed(): readonly Fill[] {
    return this.book.unattributed();
  }

  /**
   * Called with an order or plan-row event once the executor has applied it: a row's late triggered event
   * (or the order's adoption) may have made an order a strategy's whose fills were booked to `external`.
   */
  afterOwnership(event: BusEvent): void {
    if (event.type !== 'account.order' && event.type !== 'account.algo') return;
    const orderId = event.type === 'account.order' ? event.order.orderId : event.order.executedOrderId;
    if (orderId !== undefined) this.reattribute(orderId);
  }

  /**
   * Fills booked to `external` whose order is known to be a strategy's now (one of its plan or TP/SL rows
   * created it, and the event saying so came late or was lost): moved to that strategy's ledger.
   */
  private reattribute(orderId?: string): void {
    let moved = 0;
    for (const fill of this.book.unattributed(orderId)) {
      const owner = this.ownerOfFill(fill);
      if (owner === EXTERNAL_LEDGER) continue;
      const excess = this.book.moveToOwner(owner, fill, this.multiplierOf(fill.symbol));
      moved += 1;
      this.owners.moved?.(fill, owner);
      const about = { strategy: owner, symbol: fill.symbol, side: fill.positionSide, tradeId: fill.tradeId, orderId: fill.orderId, qty: fill.qty.toFixed() };
      if (excess.gt(0)) this.log.warn({ ...about, excess: excess.toFixed() }, 'fill moved from external to its strategy, which had lost that position already');
      else this.log.info(about, 'fill moved from external to the strategy whose order it was');
    }
    if (moved > 0) this.save();
  }

  private onFill(fill: Fill): readonly LedgerEvent[] {
    if (this.book.isBooked(fill)) return NO_EVENTS;
    const owner = this.ownerOfFill(fill);
    const multiplier = this.multiplierOf(fill.symbol);
    const events: LedgerEvent[] = [];
    // A foreign fill may be of an order a plan or TP/SL row of a strategy created, its link not known yet.
    if (owner === EXTERNAL_LEDGER && lossCauseOf(fill.clientOrderId) === undefined) this.book.awaitOwner(fill);
    if (owner === EXTERNAL_LEDGER && !isOpening(fill.side, fill.positionSide)) {
      const cause = lossCauseOf(fill.clientOrderId);
      if (cause !== undefined) {
        // A forced close: it takes the strategies' holdings too, pro rata of the account's position.
        const account = this.cache.position(fill.symbol, fill.positionSide)?.qty ?? dec(0);
        const outOf = account.gt(fill.qty) ? account : fill.qty;
        events.push(...this.lose(fill.symbol, fill.positionSide, fill.qty, outOf, fill.price, cause, fill.time, fill.clientOrderId));
      }
    }
    const excess = this.book.bookFill(owner, fill, multiplier);
    if (excess.gt(0)) {
      // A guard (or a strategy closing beyond its ledger) closed what others held: theirs shrink, they are told.
      const account = this.cache.position(fill.symbol, fill.positionSide)?.qty ?? dec(0);
      events.push(...this.lose(fill.symbol, fill.positionSide, excess, account.gt(excess) ? account : excess, fill.price, 'guard', fill.time, fill.clientOrderId));
    }
    this.save();
    return events;
  }

  /** After a resync: the strategies holding more than the account means a loss no fill showed. */
  private trueUp(time: number): readonly PositionLost[] {
    const events: PositionLost[] = [];
    const sides = new Map<string, { symbol: string; side: PositionSide }>();
    for (const owner of this.book.owners()) {
      if (owner === EXTERNAL_LEDGER) continue;
      for (const p of this.book.positionsOf(owner)) if (p.qty.gt(0)) sides.set(`${p.symbol}/${p.positionSide}`, { symbol: p.symbol, side: p.positionSide });
    }
    for (const { symbol, side } of sides.values()) {
      const account = this.cache.position(symbol, side);
      const held = this.book.strategiesHold(symbol, side);
      const accountQty = account?.qty ?? dec(0);
      if (accountQty.gte(held)) continue;
      const price = this.cache.markPrice(symbol) ?? account?.avgPrice ?? dec(0);
      events.push(...this.lose(symbol, side, held.sub(accountQty), held, price, 'unattributed', time, undefined));
    }
    if (events.length > 0) this.save();
    return events;
  }

  private lose(symbol: string, side: PositionSide, qty: Decimal, outOf: Decimal, price: Decimal, cause: PositionLossCause, time: number, clientOrderId: string | undefined): PositionLost[] {
    const shares = this.book.takeLoss(symbol, side, qty, outOf, price, this.multiplierOf(symbol), time);
    return shares.map((share) => {
      this.log.warn({ strategy: share.owner, symbol, side, qty: share.qty.toFixed(), price: price.toFixed(), cause, order: clientOrderId }, 'position lost without an own fill');
      return {
        type: 'ledger.positionLost',
        time,
        strategyId: share.owner,
        symbol,
        positionSide: side,
        cause,
        qty: share.qty,
        price,
        remaining: share.remaining,
        ...(clientOrderId === undefined ? {} : { clientOrderId }),
      };
    });
  }

  private applyConfigClaims(time: number): readonly PositionClaimed[] {
    const out: PositionClaimed[] = [];
    for (const claim of this.claims ?? []) {
      for (const side of claim.sides) {
        const claimed = this.claim(claim.strategyId, claim.symbol, side, undefined, 'config');
        if (claimed.ok) out.push({ ...claimed.value, time });
      }
    }
    return out;
  }

  private ownerOf(clientOrderId: string): string {
    const owner = clientOrderId === '' ? undefined : this.owners.ownerOf(clientOrderId);
    return owner !== undefined && this.strategies.has(owner) ? owner : EXTERNAL_LEDGER;
  }

  /** By the fill's client order id, else by its order's exchange id. */
  private ownerOfFill(fill: Fill): string {
    const owner = this.ownerOf(fill.clientOrderId);
    const owners = this.owners;
    if (owner !== EXTERNAL_LEDGER || owners.ownerOfOrder === undefined) return owner;
    const byOrder = owners.ownerOfOrder(fill.orderId);
    return byOrder !== undefined && this.strategies.has(byOrder) ? byOrder : EXTERNAL_LEDGER;
  }

  private multiplierOf(symbol: string): Decimal {
    return this.cache.instrument(symbol)?.contractMultiplier ?? dec(1);
  }

  /**
   * Writes what changed: newly sealed chunks of trade ids, then the main record that lists them (positions,
   * the open run of ids), then deletes the chunks it no longer lists. Each write is atomic on its own; in
   * this order a crash between two of them leaves the record pointing only at chunks that exist.
   */
  private save(): void {
    const store = this.store;
    const changes = this.book.bookedChanges();
    for (const chunk of changes.write) store.set(ledgerFillsKey(LEDGER_STATE_KEY, chunk.n), chunk.ids);
    store.set(LEDGER_STATE_KEY, ledgerStateValue(this.book.record()));
    for (const n of changes.drop) store.delete(ledgerFillsKey(LEDGER_STATE_KEY, n));
  }
}
