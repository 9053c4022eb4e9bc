import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Position } from '../../model/account.js';
import { positionKey } from '../../model/account.js';
import type { PositionSide } from '../../model/instrument.js';
import type { LedgerPosition } from '../../model/ledger.js';
import { EXTERNAL_LEDGER } from '../../model/ledger.js';
import type { Fill } from '../../model/orders.js';
import type { BookedChanges, BookedIdsState } from './booked-ids.js';
import { BookedTradeIds } from './booked-ids.js';
import { addFunding, applyExecution, closeFrom, flatPosition, openInto, signedQty } from './math.js';

const ZERO = dec(0);
/** Trade ids remembered across restarts: a resync asks for fills from the newest one seen, so only recent ones come twice. */
export const LEDGER_FILL_MEMORY = 5000;
/** Trade ids per stored chunk of them (the main record holds at most this many; see BookedTradeIds). */
export const LEDGER_FILL_CHUNK = 256;
/** Fills booked to the external ledger kept while their owner may still become known (newest kept). */
export const UNATTRIBUTED_FILL_MEMORY = 200;

/** What the ledgers know that a restart must find again (the store writes it after every change). */
export interface LedgerState {
  readonly positions: readonly LedgerPosition[];
  /** Trade ids already booked. */
  readonly booked: BookedIdsState;
  /** Fills booked to the external ledger whose order may still turn out to be a strategy's, oldest first. */
  readonly unattributed?: readonly Fill[];
}

/** The ledgers' main stored record: positions, the open run of booked trade ids and the sealed chunks' numbers. */
export interface LedgerRecord {
  readonly positions: readonly LedgerPosition[];
  /** The open run of booked trade ids, oldest first. */
  readonly fills: readonly string[];
  /** Numbers of the sealed chunks of booked trade ids, oldest first. */
  readonly chunks: readonly number[];
  readonly unattributed?: readonly Fill[] | undefined;
}

/** A `LedgerRecord` whose open run of booked ids (the first `runLength` of `run`, which only grows) is copied when read. */
class BookRecord implements LedgerRecord {
  constructor(
    readonly positions: readonly LedgerPosition[],
    private readonly run: readonly string[],
    private readonly runLength: number,
    readonly chunks: readonly number[],
    readonly unattributed: readonly Fill[] | undefined,
  ) {}

  get fills(): readonly string[] {
    return this.run.slice(0, this.runLength);
  }
}

/** A loss booked by `takeLoss`: what each ledger gave up. */
export interface LossShare {
  readonly owner: string;
  readonly qty: Decimal;
  readonly remaining: Decimal;
}

/**
 * The per-strategy ledgers of one account: holdings per owner, symbol and side, and the trade ids
 * already booked. The external ledger's quantity is what the account holds beyond the strategies'
 * (`external`); its own record keeps only the PnL, fees and funding of foreign fills.
 */
export class LedgerBook {
  private readonly byOwner = new Map<string, Map<string, LedgerPosition>>();
  private readonly booked: BookedTradeIds;
  /** Booking key → a fill booked to the external ledger that may still find its owner. */
  private readonly waiting = new Map<string, Fill>();
  /** The fill whose booking key `keyOf` made last, and that key. */
  private keyedFill: Fill | undefined;
  private keyedKey = '';

  constructor(state?: LedgerState) {
    this.booked = new BookedTradeIds(LEDGER_FILL_MEMORY, LEDGER_FILL_CHUNK, state?.booked);
    if (state === undefined) return;
    for (const p of state.positions) this.put(p);
    for (const fill of state.unattributed ?? []) this.waiting.set(bookingKey(fill), fill);
  }

  /**
   * What the main record stores: the positions, the open run of booked trade ids with the numbers of the
   * sealed chunks, the fills awaiting an owner. The chunks themselves are `bookedChanges()`.
   */
  record(): LedgerRecord {
    const positions: LedgerPosition[] = [];
    for (const slots of this.byOwner.values()) for (const p of slots.values()) positions.push(p);
    const { run, length, chunks } = this.booked.record();
    return new BookRecord(positions, run, length, chunks, this.waiting.size === 0 ? undefined : [...this.waiting.values()]);
  }

  /** Chunks of booked trade ids sealed since the last call (to write before the record) and forgotten (to delete after it). */
  bookedChanges(): BookedChanges {
    return this.booked.takeChanges();
  }

  /** A fill just booked to the external ledger whose order may turn out to be a strategy's (a plan row's order seen late). */
  awaitOwner(fill: Fill): void {
    this.waiting.set(bookingKey(fill), fill);
    if (this.waiting.size <= UNATTRIBUTED_FILL_MEMORY) return;
    const oldest = this.waiting.keys().next().value;
    if (oldest !== undefined) this.waiting.delete(oldest);
  }

  /** Fills booked to the external ledger that may still find their owner (of one order, when given), oldest first. */
  unattributed(orderId?: string): readonly Fill[] {
    if (orderId === undefined) return [...this.waiting.values()];
    const out: Fill[] = [];
    for (const fill of this.waiting.values()) if (fill.orderId === orderId) out.push(fill);
    return out;
  }

  /**
   * Moves a fill booked to the external ledger to `owner`, whose order it was after all: the external
   * record gives back the fill's PnL and fee, and the owner's ledger books it. Answers the closing excess
   * (what the owner no longer held: a true-up already took it as lost).
   */
  moveToOwner(owner: string, fill: Fill, multiplier: Decimal): Decimal {
    this.waiting.delete(bookingKey(fill));
    const external = this.get(EXTERNAL_LEDGER, fill.symbol, fill.positionSide);
    if (external !== undefined) this.put({ ...external, realizedPnl: external.realizedPnl.sub(fill.realizedPnl), fees: external.fees.sub(fill.fee) });
    const before = this.get(owner, fill.symbol, fill.positionSide) ?? flatPosition(owner, fill.symbol, fill.positionSide, fill.time);
    const { position, excess } = applyExecution(before, fill, multiplier);
    this.put(position);
    return excess;
  }

  /** The owner's record (flat when it never traded the symbol and side). */
  get(owner: string, symbol: string, positionSide: PositionSide): LedgerPosition | undefined {
    return this.byOwner.get(owner)?.get(positionKey(symbol, positionSide));
  }

  owners(): readonly string[] {
    return [...this.byOwner.keys()];
  }

  positionsOf(owner: string): readonly LedgerPosition[] {
    return [...(this.byOwner.get(owner)?.values() ?? [])];
  }

  /** What the strategies' ledgers (not the external one) hold on a symbol and side. */
  strategiesHold(symbol: string, positionSide: PositionSide): Decimal {
    let total = ZERO;
    for (const [owner, slots] of this.byOwner) if (owner !== EXTERNAL_LEDGER) total = total.add(slots.get(positionKey(symbol, positionSide))?.qty ?? ZERO);
    return total;
  }

  /** The external ledger: what `account` holds beyond the strategies, with the PnL of foreign fills. */
  external(account: Position | undefined, symbol: string, positionSide: PositionSide, time: number): LedgerPosition {
    const record = this.get(EXTERNAL_LEDGER, symbol, positionSide) ?? flatPosition(EXTERNAL_LEDGER, symbol, positionSide, time);
    const beyond = (account?.qty ?? ZERO).sub(this.strategiesHold(symbol, positionSide));
    const qty = beyond.gt(0) ? beyond : ZERO;
    return { ...record, qty, avgPrice: qty.isZero() ? ZERO : (account?.avgPrice ?? ZERO) };
  }

  /** Whether the fill's trade id was booked already (a resync may deliver it again, also after a restart). */
  isBooked(fill: Fill): boolean {
    return this.booked.has(this.keyOf(fill));
  }

  /**
   * Books one fill to `owner`. A closing fill beyond what the owner holds (it cannot hold less than
   * zero) is answered as `excess`: the caller decides where it belongs.
   */
  bookFill(owner: string, fill: Fill, multiplier: Decimal): Decimal {
    this.remember(this.keyOf(fill));
    const before = this.get(owner, fill.symbol, fill.positionSide) ?? flatPosition(owner, fill.symbol, fill.positionSide, fill.time);
    if (owner === EXTERNAL_LEDGER) {
      // Foreign fills: the quantity is derived from the account; keep what they cost and earned.
      this.put({ ...before, realizedPnl: before.realizedPnl.add(fill.realizedPnl), fees: before.fees.add(fill.fee), updateTime: Math.max(before.updateTime, fill.time) });
      return ZERO;
    }
    const { position, excess } = applyExecution(before, fill, multiplier);
    this.put(position);
    return excess;
  }

  /**
   * Takes `qty` contracts of a symbol side away from the strategies' ledgers at `price` (a liquidation,
   * an auto-deleverage, a close nobody here sent), pro rata to what each holds out of `outOf` (the
   * account's holding before the loss; at least what the strategies hold).
   */
  takeLoss(symbol: string, positionSide: PositionSide, qty: Decimal, outOf: Decimal, price: Decimal, multiplier: Decimal, time: number): readonly LossShare[] {
    const held = this.strategiesHold(symbol, positionSide);
    if (held.lte(0) || qty.lte(0)) return [];
    const total = outOf.gt(held) ? outOf : held;
    const shares: LossShare[] = [];
    for (const [owner, slots] of this.byOwner) {
      if (owner === EXTERNAL_LEDGER) continue;
      const p = slots.get(positionKey(symbol, positionSide));
      if (p === undefined || p.qty.lte(0)) continue;
      const wanted = qty.gte(total) ? p.qty : qty.mul(p.qty).div(total);
      const { position } = closeFrom(p, wanted, price, multiplier, time);
      this.put(position);
      const lost = p.qty.sub(position.qty);
      if (lost.gt(0)) shares.push({ owner, qty: lost, remaining: position.qty });
    }
    return shares;
  }

  /** Moves `qty` of the external holding into `owner`'s ledger at `price` (a claim). */
  transfer(owner: string, symbol: string, positionSide: PositionSide, qty: Decimal, price: Decimal, time: number): LedgerPosition {
    const before = this.get(owner, symbol, positionSide) ?? flatPosition(owner, symbol, positionSide, time);
    const after = openInto(before, qty, price, time);
    this.put(after);
    return after;
  }

  /**
   * Shares one funding payment of a symbol among the ledgers by signed holding (longs and shorts pay
   * in opposite directions); what the strategies' shares leave goes to the external ledger, so the
   * shares always sum to the payment. `accountNet`: the account's long minus short contracts.
   */
  shareFunding(symbol: string, amount: Decimal, accountNet: Decimal, time: number): void {
    let given = ZERO;
    if (!accountNet.isZero()) {
      for (const [owner, slots] of this.byOwner) {
        if (owner === EXTERNAL_LEDGER) continue;
        for (const side of ['LONG', 'SHORT'] as const) {
          const p = slots.get(positionKey(symbol, side));
          if (p === undefined || p.qty.isZero()) continue;
          const share = amount.mul(signedQty(p)).div(accountNet);
          this.put(addFunding(p, share, time));
          given = given.add(share);
        }
      }
    }
    const rest = amount.sub(given);
    if (rest.isZero()) return;
    const side: PositionSide = accountNet.lt(0) ? 'SHORT' : 'LONG';
    const record = this.get(EXTERNAL_LEDGER, symbol, side) ?? flatPosition(EXTERNAL_LEDGER, symbol, side, time);
    this.put(addFunding(record, rest, time));
  }

  private put(p: LedgerPosition): void {
    let slots = this.byOwner.get(p.owner);
    if (slots === undefined) {
      slots = new Map();
      this.byOwner.set(p.owner, slots);
    }
    slots.set(positionKey(p.symbol, p.positionSide), p);
  }

  private remember(key: string): void {
    this.booked.add(key);
  }

  /** The fill's booking key, made once for `isBooked` and then `bookFill` of the same fill. */
  private keyOf(fill: Fill): string {
    if (fill !== this.keyedFill) {
      this.keyedFill = fill;
      this.keyedKey = bookingKey(fill);
    }
    return this.keyedKey;
  }
}

function bookingKey(fill: Fill): string {
  return `${fill.symbol}/${fill.tradeId}`;
}
