import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Decimal } from '../../core/decimal.js';
import type { ExchangeCommand, PlaceOrderCommand } from '../../model/commands.js';
import type { PositionSide } from '../../model/instrument.js';
import type { JournalEntry, JournalState, OrderJournal } from '../../model/journal.js';
import { isStorageFailure } from './journal-health.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import { algoCommandOf, placeCommandOf } from './adopted-commands.js';
import type { PhaseInput } from './order-phase.js';
import { algoSupersedes, isAwaitingAnswer, isFinishedAlgo, isFinishedOrder, isLive, nextPhase, supersedes } from './order-phase.js';
import type { TableSize } from '../../core/table-size.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';

export type OrderKind = 'order' | 'algo';

/** A regular order one of our plan or TP/SL rows created, linked to the row's strategy before any snapshot of it was seen. */
export interface LinkedChild {
  readonly orderId: string;
  readonly strategyId: string;
  readonly symbol: string;
}

/** One of our regular orders as the TP/SL rows of its attached stops are traced back to it. */
interface ParentOrder {
  readonly strategyId: string;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly takeProfit: Decimal | undefined;
  readonly stopLoss: Decimal | undefined;
}

/** A live submission: a placed order (regular or plan) or another command awaiting its outcome. */
export interface Tracked {
  readonly id: string;
  readonly strategyId: string;
  readonly symbol: string;
  readonly command: ExchangeCommand;
  phase: JournalState;
  /** The newest state of a placed order as the exchange reported it. */
  order?: OrderSnapshot;
  algo?: AlgoOrderSnapshot;
  /** A sent cancel whose journal row could not be written (after-send-rows.ts): its phases live in memory only. */
  unjournaled?: boolean;
  /** A placement whose journal entry was appended before it was tracked: the journal names the same owner. */
  readonly ownerJournaled: boolean;
  /** The `parentSeq` at which this order's exchange id (`order`'s) was listed among the parent orders (0: not by this order). */
  parentListed: number;
}

/** Commands that create an order under their own client order id. */
export function isPlacing(command: ExchangeCommand): command is Extract<ExchangeCommand, { type: 'place-order' | 'place-algo' }> {
  return command.type === 'place-order' || command.type === 'place-algo';
}

/**
 * Commands that only take orders away: they open no exposure and sending one again is harmless, so
 * each goes out before its journal row (executor.ts).
 */
export function isCancel(command: ExchangeCommand): command is Extract<ExchangeCommand, { type: 'cancel-order' | 'cancel-all' | 'cancel-algo' }> {
  return command.type === 'cancel-order' || command.type === 'cancel-all' || command.type === 'cancel-algo';
}

export function kindOf(command: ExchangeCommand): OrderKind {
  return command.type === 'place-algo' || command.type === 'modify-algo' || command.type === 'cancel-algo' ? 'algo' : 'order';
}

/** How many unknown orders' snapshots to keep while waiting for the plan row that created them. */
const STRAY_LIMIT = 1000;
/** How long (exchange time, from the newest) an unknown order's snapshot waits for its plan row: a row reports its child within moments. */
const STRAY_MAX_AGE_MS = 3_600_000;
/** How many plan-row children to remember while waiting for their first snapshot (one that never comes is forgotten). */
const CHILD_LIMIT = 1000;

/**
 * The executor's live view of its submissions, kept in step with the journal: every phase change is
 * written through. Settled entries (done, rejected) leave memory; the journal still answers for them.
 */
export class OrderTracker {
  private readonly live = new Map<string, Tracked>();
  /** Regular orders created by our plan rows (orderId → owner), and unknown snapshots waiting for that link. */
  private readonly childOwners = new Map<string, LinkedChild>();
  private readonly strayOrders = new Map<string, OrderSnapshot>();
  /** Exchange ids of plan-row children adopted already (a later copy of the row's link must not wait for them again). */
  private readonly adoptedChildren = new Set<string>();
  /** Inside an admission's commit: a failed write must abort it (nothing may be sent unjournaled). */
  private strict = false;
  /** Our regular orders by exchange id (→ owner and attached stops): the TP/SL rows their attached stops create are the owner's too. */
  private readonly parentOwners = new Map<string, ParentOrder>();
  /** How many orders were ever listed in `parentOwners`: the newest CHILD_LIMIT of them are still there (first in, first out). */
  private parentSeq = 0;
  /** The exchange ids listed in `parentOwners`, the one listed at sequence n at n % CHILD_LIMIT: the oldest leaves by its slot, no iterator made. */
  private readonly parentRing = emptyObjectArray<string>();
  /**
   * The placement that settled last, its owner and the clock's instant then: the events that settle an
   * order are dispatched to the strategies right after (whose is it?), at that instant, when no purge can
   * have taken its journal entry (the journal keeps it for days), so its owner is the journal's without a read.
   */
  private settledId = '';
  private settledOwner = '';
  private settledAt = Number.NaN;

  constructor(
    private readonly journal: OrderJournal,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Where the outcome of a journal write goes (journal-health.ts); without it, write failures throw. */
    private readonly writes?: { failed(error: unknown): unknown; wrote(): void },
  ) {
    for (const entry of journal.unsettled()) this.remember(entry);
  }

  get(id: string): Tracked | undefined {
    return this.live.get(id);
  }

  all(): readonly Tracked[] {
    return [...this.live.values()];
  }

  /**
   * An admission begins: its journal writes throw on failure (the commit must not go through) until
   * `endStrict` (in a `finally`: a begin and end pair, not a closure per order).
   */
  beginStrict(): void {
    this.strict = true;
  }

  endStrict(): void {
    this.strict = false;
  }

  /**
   * A journal write of what was learnt after a send. A storage failure (disk full, I/O error) is
   * reported, not thrown: memory goes on with what the exchange said, the journal lags behind (a
   * restart settles its older states by query).
   */
  private write(work: () => void): void {
    if (this.strict || this.writes === undefined) {
      work();
      return;
    }
    try {
      work();
    } catch (error: unknown) {
      this.writeFailed(error);
      return;
    }
    this.writes.wrote();
  }

  /** A storage failure of a write after a send is reported (`write`); any other error is thrown. */
  private writeFailed(error: unknown): void {
    if (!isStorageFailure(error)) throw error;
    this.writes?.failed(error);
  }

  /** `write` of one phase change (every order event that moves an order on): no closure made for it. */
  private writeChange(id: string, change: Parameters<OrderJournal['update']>[1]): void {
    if (this.strict || this.writes === undefined) {
      this.journal.update(id, change);
      return;
    }
    try {
      this.journal.update(id, change);
    } catch (error: unknown) {
      this.writeFailed(error);
      return;
    }
    this.writes.wrote();
  }

  /** Starts tracking a journaled entry in its journal state. */
  remember(entry: Pick<JournalEntry, 'id' | 'strategyId' | 'symbol' | 'command' | 'state'>): Tracked {
    const tracked: Tracked = { id: entry.id, strategyId: entry.strategyId, symbol: entry.symbol, command: entry.command, phase: entry.state, ownerJournaled: isPlacing(entry.command), parentListed: 0 };
    if (isLive(entry.state)) this.live.set(entry.id, tracked);
    return tracked;
  }

  /** Applies what was learnt; writes a phase change to the journal. Answers the new phase. */
  advance(id: string, input: PhaseInput, detail?: string): JournalState | undefined {
    const tracked = this.live.get(id);
    if (tracked === undefined) return undefined;
    const phase = nextPhase(tracked.phase, input);
    if (phase === tracked.phase) return phase;
    tracked.phase = phase;
    const exchangeOrderId = tracked.order?.orderId ?? tracked.algo?.orderId;
    // A cancel the journal missed (after-send-rows.ts) has no row to update.
    if (tracked.unjournaled !== true) this.writeChange(id, phaseChange(phase, this.clock.now(), exchangeOrderId, detail));
    if (!isLive(phase)) {
      this.live.delete(id);
      if (tracked.ownerJournaled) this.noteSettled(tracked);
    }
    return phase;
  }

  /**
   * A regular order's state from a reply, event or query. Answers whether it was ours and newer
   * (a stale snapshot never regresses the state).
   */
  applyOrder(snapshot: OrderSnapshot): 'applied' | 'stale' | 'foreign' {
    const tracked = this.trackedFor(snapshot.clientOrderId, snapshot.orderId, 'order');
    if (tracked === undefined) return this.adoptChild(snapshot) ? 'applied' : 'foreign';
    if (tracked.order !== undefined && !supersedes(tracked.order, snapshot)) return 'stale';
    if (tracked.command.type === 'place-order') this.rememberParent(snapshot, tracked, tracked.command);
    tracked.order = snapshot;
    this.advance(tracked.id, { kind: 'exists', finished: isFinishedOrder(snapshot) });
    return 'applied';
  }

  applyAlgo(snapshot: AlgoOrderSnapshot): 'applied' | 'stale' | 'foreign' {
    const tracked = this.trackedFor(snapshot.clientOrderId, snapshot.orderId, 'algo');
    if (tracked === undefined) return this.adoptAttached(snapshot) ? 'applied' : 'foreign';
    if (snapshot.executedOrderId !== undefined) this.linkChild(snapshot.executedOrderId, tracked.strategyId, snapshot.symbol);
    if (tracked.algo !== undefined && !algoSupersedes(tracked.algo, snapshot)) return 'stale';
    tracked.algo = snapshot;
    this.advance(tracked.id, { kind: 'exists', finished: isFinishedAlgo(snapshot) });
    return 'applied';
  }

  /**
   * Records an order the journal did not know under `strategyId` (journaled, so it survives restarts). A
   * plan or TP/SL row that already triggered brings the order it created along: that is the strategy's too.
   */
  adopt(strategyId: string, snapshot: OrderSnapshot | AlgoOrderSnapshot): Tracked {
    const tracked = this.adoptOne(strategyId, snapshot);
    if ('kind' in snapshot && snapshot.executedOrderId !== undefined) this.linkChild(snapshot.executedOrderId, strategyId, snapshot.symbol);
    return tracked;
  }

  private adoptOne(strategyId: string, snapshot: OrderSnapshot | AlgoOrderSnapshot): Tracked {
    const isAlgo = 'kind' in snapshot;
    const command = 'kind' in snapshot ? algoCommandOf(snapshot) : placeCommandOf(snapshot);
    const finished = 'kind' in snapshot ? isFinishedAlgo(snapshot) : isFinishedOrder(snapshot);
    const time = this.clock.now();
    const tracked: Tracked = {
      id: snapshot.clientOrderId,
      strategyId,
      symbol: snapshot.symbol,
      command,
      phase: finished ? 'done' : 'accepted',
      // Its journal write may fail (reported, not thrown), or the id be another entry's: the journal answers for it.
      ownerJournaled: false,
      parentListed: 0,
      ...(isAlgo ? { algo: snapshot } : { order: snapshot }),
    };
    const known = this.journal.get(tracked.id);
    if (known === undefined) {
      this.write(() =>
        this.journal.atomically(() => {
          this.journal.append({ id: tracked.id, strategyId, command, time });
          this.journal.update(tracked.id, { state: finished ? 'done' : 'accepted', time, exchangeOrderId: snapshot.orderId, detail: 'adopted' });
        }),
      );
    } else if (known.state === 'done' && (known.exchangeOrderId === undefined || known.exchangeOrderId === snapshot.orderId)) {
      // Our own order, finished since the snapshot was taken (a reconciliation's open-order list racing the
      // order's last event). Finished is final: tracking it live would keep a phantom open order forever.
      if (this.logger.isLevelEnabled('debug')) this.logger.debug({ clientOrderId: tracked.id, strategy: strategyId }, 'stale snapshot of a finished order: not adopted');
      return { ...tracked, phase: 'done' };
    } else {
      this.logger.warn({ clientOrderId: tracked.id, strategy: strategyId }, 'adopted order reuses a journaled id: tracked in memory only');
    }
    if (!finished) this.live.set(tracked.id, tracked);
    return tracked;
  }

  ownerOf(id: string): string | undefined {
    const live = this.live.get(id);
    if (live !== undefined) return live.strategyId;
    if (id === this.settledId && this.clock.now() === this.settledAt) return this.settledOwner;
    return this.journal.get(id)?.strategyId;
  }

  private noteSettled(tracked: Tracked): void {
    this.settledId = tracked.id;
    this.settledOwner = tracked.strategyId;
    this.settledAt = this.clock.now();
  }

  /** Snapshots of regular orders nobody here knows, waiting for the plan row that may have created them. */
  strays(): readonly OrderSnapshot[] {
    return [...this.strayOrders.values()];
  }

  /** Orders our plan and TP/SL rows created whose first snapshot has not been seen yet. */
  linkedChildren(): readonly LinkedChild[] {
    return [...this.childOwners.values()];
  }

  /** The strategy a plan or TP/SL row of ours linked this (not yet seen) order to. */
  childOwner(orderId: string): string | undefined {
    return this.childOwners.get(orderId)?.strategyId;
  }

  /** Drops a link whose order the exchange does not know (nothing will ever show it). */
  forgetChild(orderId: string): void {
    this.childOwners.delete(orderId);
  }

  /** Client order ids of a strategy's live orders (regular, plan, or both). */
  openOf(strategyId: string, kind?: OrderKind): readonly string[] {
    const out: string[] = [];
    this.pushOpenOf(out, strategyId, kind);
    return out;
  }

  /** Appends `openOf(strategyId, kind)` to `out`. */
  pushOpenOf(out: string[], strategyId: string, kind?: OrderKind): void {
    for (const t of this.live.values()) {
      if (t.strategyId !== strategyId || !isPlacing(t.command) || (kind !== undefined && kindOf(t.command) !== kind)) continue;
      out.push(t.id);
    }
  }

  /** Whether `clientOrderId` is one of the strategy's live orders (one of `openOf(strategyId)`), by one lookup. */
  ownsOpen(strategyId: string, clientOrderId: string): boolean {
    const t = this.live.get(clientOrderId);
    return t !== undefined && t.strategyId === strategyId && isPlacing(t.command);
  }

  /** How many submissions are live: at least as many as the strategies' live orders (`openOf` of each) together. */
  liveCount(): number {
    return this.live.size;
  }

  /** Submissions whose outcome the exchange has not told yet. */
  awaitingCount(): number {
    let n = 0;
    for (const t of this.live.values()) if (isAwaitingAnswer(t.phase)) n += 1;
    return n;
  }

  /**
   * The tracked submission for a snapshot: live, or a journaled one that a late event brings back
   * (rejected after a lost reply, yet the exchange has it). Finished journal entries stay finished.
   */
  private trackedFor(clientOrderId: string, orderId: string, kind: OrderKind): Tracked | undefined {
    const live = this.live.get(clientOrderId);
    if (live !== undefined) return isPlacing(live.command) && kindOf(live.command) === kind ? live : undefined;
    const entry = this.journal.get(clientOrderId);
    if (entry === undefined || entry.state !== 'rejected' || !isPlacing(entry.command) || kindOf(entry.command) !== kind) return undefined;
    if (entry.exchangeOrderId !== undefined && entry.exchangeOrderId !== orderId) return undefined;
    this.logger.warn({ clientOrderId, orderId }, 'an order settled as rejected exists after all');
    const tracked: Tracked = { id: entry.id, strategyId: entry.strategyId, symbol: entry.symbol, command: entry.command, phase: 'rejected', ownerJournaled: true, parentListed: 0 };
    this.live.set(entry.id, tracked);
    return tracked;
  }

  /** Sizes of the tracker's tables (metrics), with the count bounds of the waiting ones. */
  sizes(): readonly TableSize[] {
    return [
      { name: 'tracker.live', size: this.live.size },
      { name: 'tracker.childOwners', size: this.childOwners.size, limit: CHILD_LIMIT },
      { name: 'tracker.strays', size: this.strayOrders.size, limit: STRAY_LIMIT },
      { name: 'tracker.parentOwners', size: this.parentOwners.size, limit: CHILD_LIMIT },
      { name: 'tracker.adoptedChildren', size: this.adoptedChildren.size, limit: CHILD_LIMIT },
    ];
  }

  /** Lists the order among the parents once: a later snapshot with the same exchange id is known listed by the order's sequence number. */
  private rememberParent(snapshot: OrderSnapshot, tracked: Tracked, command: PlaceOrderCommand): void {
    if (tracked.parentListed > 0 && this.parentSeq - tracked.parentListed < CHILD_LIMIT && tracked.order?.orderId === snapshot.orderId) return;
    if (this.parentOwners.has(snapshot.orderId)) {
      tracked.parentListed = 0;
      return;
    }
    this.parentOwners.set(snapshot.orderId, {
      strategyId: tracked.strategyId,
      symbol: snapshot.symbol,
      positionSide: snapshot.positionSide,
      takeProfit: command.takeProfit?.triggerPrice,
      stopLoss: command.stopLoss?.triggerPrice,
    });
    const slot = this.parentSeq % CHILD_LIMIT;
    if (this.parentSeq >= CHILD_LIMIT) this.parentOwners.delete(this.parentRing[slot] ?? '');
    this.parentRing[slot] = snapshot.orderId;
    tracked.parentListed = ++this.parentSeq;
  }

  /**
   * A TP/SL row that an order's attached takeProfit/stopLoss created carries an exchange-generated client
   * id; it belongs to the strategy that placed that order (found by the row's parent order id).
   */
  private adoptAttached(snapshot: AlgoOrderSnapshot): boolean {
    if (snapshot.kind === 'PLAN') return false;
    const owner = snapshot.parentOrderId === undefined ? this.ownerByAttachedStop(snapshot) : this.ownerOfParent(snapshot.parentOrderId);
    if (owner === undefined) return false;
    this.adopt(owner, snapshot);
    return true;
  }

  private ownerOfParent(orderId: string): string | undefined {
    return this.parentOwners.get(orderId)?.strategyId ?? [...this.live.values()].find((t) => t.order?.orderId === orderId)?.strategyId;
  }

  /**
   * A TP/SL row listed by REST, which names no parent (its creation event was missed while the stream was
   * down): the owner of the one recent order whose attached stop of that kind has that trigger price.
   * Ambiguous or unknown rows stay foreign (the orphan policy decides).
   */
  private ownerByAttachedStop(snapshot: AlgoOrderSnapshot): string | undefined {
    const owners = new Set<string>();
    for (const parent of this.parentOwners.values()) {
      if (parent.symbol !== snapshot.symbol || parent.positionSide !== snapshot.positionSide) continue;
      const trigger = snapshot.kind === 'TAKE_PROFIT' ? parent.takeProfit : parent.stopLoss;
      if (trigger?.eq(snapshot.triggerPrice) === true) owners.add(parent.strategyId);
    }
    return owners.size === 1 ? [...owners][0] : undefined;
  }

  /**
   * The regular order `orderId` was created by a plan or TP/SL row of `strategyId`: it is the strategy's
   * (adopted at once when its snapshot is waiting as a stray, else when it is first seen).
   */
  linkChild(orderId: string, strategyId: string, symbol: string): void {
    if (this.childOwners.has(orderId) || this.adoptedChildren.has(orderId) || this.isKnownOrder(orderId)) return;
    this.childOwners.set(orderId, { orderId, strategyId, symbol });
    if (this.childOwners.size > CHILD_LIMIT) {
      const oldest = this.childOwners.keys().next().value;
      if (oldest !== undefined) this.childOwners.delete(oldest);
    }
    const stray = this.strayOrders.get(orderId);
    if (stray === undefined) return;
    this.strayOrders.delete(orderId);
    this.applyOrder(stray);
  }

  /** A regular order created by one of our plan rows belongs to the row's strategy. */
  private adoptChild(snapshot: OrderSnapshot): boolean {
    const owner = this.childOwners.get(snapshot.orderId);
    if (owner === undefined) {
      if (this.journal.get(snapshot.clientOrderId) === undefined) this.keepStray(snapshot);
      return false;
    }
    this.childOwners.delete(snapshot.orderId);
    this.adoptedChildren.add(snapshot.orderId);
    if (this.adoptedChildren.size > CHILD_LIMIT) {
      const oldest = this.adoptedChildren.values().next().value;
      if (oldest !== undefined) this.adoptedChildren.delete(oldest);
    }
    this.adopt(owner.strategyId, snapshot);
    return true;
  }

  /** Whether a regular order with this exchange id is tracked live already (adopted before, or ours). */
  private isKnownOrder(orderId: string): boolean {
    for (const t of this.live.values()) if (t.order?.orderId === orderId) return true;
    return false;
  }

  private keepStray(snapshot: OrderSnapshot): void {
    const known = this.strayOrders.get(snapshot.orderId);
    if (known !== undefined && !supersedes(known, snapshot)) return;
    this.strayOrders.delete(snapshot.orderId);
    this.strayOrders.set(snapshot.orderId, snapshot);
    if (this.strayOrders.size > STRAY_LIMIT) {
      const oldest = this.strayOrders.keys().next().value;
      if (oldest !== undefined) this.strayOrders.delete(oldest);
    }
    for (const [orderId, stray] of this.strayOrders) {
      if (stray.updateTime >= snapshot.updateTime - STRAY_MAX_AGE_MS) break;
      this.strayOrders.delete(orderId);
    }
  }
}

/** A journal update of a phase change, as a literal of a fixed shape (no spreads per order event). */
function phaseChange(state: JournalState, time: number, exchangeOrderId: string | undefined, detail: string | undefined): Parameters<OrderJournal['update']>[1] {
  if (detail === undefined) return exchangeOrderId === undefined ? { state, time } : { state, time, exchangeOrderId };
  return exchangeOrderId === undefined ? { state, time, detail } : { state, time, exchangeOrderId, detail };
}
