import { dec, isOpenStatus } from 'stratd/strategy';
import type { BusEvent, Decimal, DenialCode, HandlerContext, OrderSnapshot } from 'stratd/strategy';
import type { Cell, WantedOrder } from './cells.js';
import { armingOrder, buildCells, closingOf, exposureOf, positionSideOf, settleOrder, wantedOrder } from './cells.js';
import { fingerprintOf, loadGrid, restoreCells, saveGrid } from './grid-state.js';
import { gridLevels } from './levels.js';
import type { GridParams } from './params.js';

type Ctx = HandlerContext<GridParams>;

/** A denied or refused order is tried again after this long (timer ticks pick it up). */
export const RETRY_AFTER_MS = 5_000;

/** Denials that only wait for the daemon (a resync) or for data (a mark price): the next event tries again. */
const WAITING: ReadonlySet<DenialCode> = new Set(['NOT_READY', 'NO_MARK_PRICE']);

/** waiting: no cells yet (the price has not been inside the range); stopped: the price left the range. */
type Phase = 'waiting' | 'running' | 'stopped';

/** A reduce-only MARKET order closing what one direction's cells hold (closeOnExit). */
interface CloseOrder {
  readonly direction: 'long' | 'short';
}

/**
 * One grid on one symbol: cells between adjacent levels, each with at most one order. A filled
 * opening order arms the closing one a level away; a filled closing order re-arms the opening one.
 * Everything a restart needs is in the instance's store; orders are matched by their keyed client ids.
 */
export class GridRunner {
  private readonly symbol: string;
  private readonly fingerprint: string;
  private levels: readonly Decimal[] = [];
  private cells: Cell[] = [];
  private phase: Phase = 'waiting';
  private seq = 0;
  /** Client order id → the cell whose order it is. */
  private readonly byId = new Map<string, Cell>();
  private readonly closes = new Map<string, CloseOrder>();
  /** Emitted, no word from the exchange yet: a resync must not forget these. */
  private readonly awaiting = new Set<string>();
  /** Cancels on their way: not asked twice. */
  private readonly cancelling = new Set<string>();
  private closeRetryAt = 0;

  constructor(private readonly ctx: Ctx) {
    const [symbol, ...others] = ctx.symbols;
    if (symbol === undefined || others.length > 0) throw new RangeError(`a grid trades exactly one symbol; ${ctx.id} has ${ctx.symbols.length}`);
    this.symbol = symbol;
    this.fingerprint = fingerprintOf(ctx.params);
  }

  start(): void {
    const instrument = this.ctx.cache.instrument(this.symbol);
    if (instrument === undefined) throw new RangeError(`${this.ctx.id}: unknown symbol ${this.symbol}`);
    this.levels = gridLevels(this.ctx.params, instrument.tickSize);
    const saved = loadGrid(this.ctx.store);
    this.seq = saved?.seq ?? 0;
    if (saved !== undefined && saved.fingerprint === this.fingerprint) {
      this.cells = buildCells(this.levels, this.ctx.params.mode, this.levels[0]!);
      restoreCells(this.cells, saved);
      this.phase = saved.stopped ? 'stopped' : 'running';
      this.resync();
    } else if (this.ctx.openOrders(this.symbol).length > 0) {
      // Orders of an earlier grid (other levels, or a lost state): nothing here knows what they are for.
      this.ctx.emit({ type: 'cancel-all', symbol: this.symbol });
    }
    this.evaluate();
  }

  onEvent(event: BusEvent): void {
    switch (event.type) {
      case 'market.book':
      case 'market.bookTicker':
      case 'market.trade':
        if (event.symbol !== this.symbol) return;
        this.evaluate();
        // The reference is fresh now: re-arming cells are judged by it like the others.
        for (const cell of this.cells) cell.rearm = false;
        return;
      case 'account.order':
        if (event.order.symbol === this.symbol) this.onOrder(event.order);
        return;
      case 'intent.denied':
        if (event.intent.type === 'place' && event.intent.key !== undefined) this.dropOrder(this.ctx.clientOrderIdFor(event.intent.key), !WAITING.has(event.denial.code));
        if (event.intent.type === 'cancel') this.cancelling.delete(event.intent.clientOrderId);
        return;
      case 'command.failed':
        if (event.command.type === 'place-order') this.dropOrder(event.command.clientOrderId, true);
        if (event.command.type === 'cancel-order') this.cancelling.delete(event.command.clientOrderId);
        return;
      case 'account.position':
        // A fill and the position it makes are separate events: closing legs wait for the position.
        if (event.position.symbol === this.symbol) this.evaluate();
        return;
      case 'account.resynced':
        this.resync();
        this.evaluate();
        return;
      case 'timer':
        this.evaluate();
        return;
      default:
        return;
    }
  }

  /** cancelOnStop: what the cells' orders filled so far is booked, then they are cancelled. */
  stop(): void {
    if (this.phase === 'waiting') return;
    if (this.ctx.params.cancelOnStop) {
      for (const cell of this.cells) {
        if (cell.order === undefined) continue;
        settleOrder(cell, this.ctx.cache.order(this.ctx.clientOrderIdFor(cell.order.key))?.filledQty ?? dec(0));
      }
      this.save();
      this.ctx.emit({ type: 'cancel-all', symbol: this.symbol });
      return;
    }
    this.save();
  }

  private reference(): Decimal | undefined {
    const { cache, params } = this.ctx;
    return params.reference === 'mid' ? (cache.midPrice(this.symbol) ?? cache.lastPrice(this.symbol)) : (cache.lastPrice(this.symbol) ?? cache.midPrice(this.symbol));
  }

  private evaluate(): void {
    const reference = this.reference();
    if (reference === undefined) return;
    const { lower, upper, mode, resumeOnReturn } = this.ctx.params;
    const inside = reference.gte(lower) && reference.lte(upper);
    if (this.phase === 'waiting') {
      if (!inside) return;
      this.cells = buildCells(this.levels, mode, reference);
      this.phase = 'running';
      this.save();
    }
    if (this.phase === 'running' && !inside) {
      this.phase = 'stopped';
      this.save();
      this.ctx.logger.info({ symbol: this.symbol, price: reference.toFixed() }, 'grid: price left the range, stopping');
    }
    if (this.phase === 'stopped') {
      if (!inside || !resumeOnReturn || !this.idle()) {
        this.windDown();
        return;
      }
      this.phase = 'running';
      this.save();
      this.ctx.logger.info({ symbol: this.symbol, price: reference.toFixed() }, 'grid: price back in the range, resuming');
    }
    this.arm(reference);
  }

  /**
   * Places what the cells want, re-arming and nearest cells first: opening legs while the direction's exposure stays within
   * maxPosition, closing legs once its own ledger's position covers them (its event may trail the fill's).
   */
  private arm(reference: Decimal): void {
    const { quantity, maxPosition } = this.ctx.params;
    const now = this.ctx.clock.now();
    const exposure = { long: exposureOf(this.cells, 'long'), short: exposureOf(this.cells, 'short') };
    const closing = { long: closingOf(this.cells, 'long'), short: closingOf(this.cells, 'short') };
    const nearestFirst = [...this.cells].sort((a, b) => armingOrder(a, b, reference));
    for (const cell of nearestFirst) {
      const direction = cell.direction;
      if (cell.order !== undefined || direction === 'off' || now < cell.retryAt) continue;
      const wanted = wantedOrder(cell, reference, quantity);
      if (wanted === undefined) continue;
      if (wanted.opening) {
        const after = exposure[direction].plus(wanted.quantity);
        if (after.gt(maxPosition)) continue;
        exposure[direction] = after;
      } else {
        const after = closing[direction].plus(wanted.quantity);
        if (after.gt(this.positionOf(direction))) continue;
        closing[direction] = after;
      }
      this.place(cell, wanted);
    }
  }

  private place(cell: Cell, wanted: WantedOrder): void {
    const key = this.nextKey(`g${cell.index}${wanted.side === 'BUY' ? 'b' : 's'}`);
    cell.order = { key, side: wanted.side, quantity: wanted.quantity, opening: wanted.opening };
    cell.rearm = false;
    const id = this.ctx.clientOrderIdFor(key);
    this.byId.set(id, cell);
    this.awaiting.add(id);
    this.save();
    this.ctx.emit({
      type: 'place',
      key,
      symbol: this.symbol,
      side: wanted.side,
      positionSide: wanted.positionSide,
      orderType: 'LIMIT',
      price: wanted.price,
      quantity: wanted.quantity,
      ...(wanted.opening ? {} : { reduceOnly: true }),
    });
  }

  /** Stopped: the cells' orders are cancelled; then, with closeOnExit, what they hold is closed. */
  private windDown(): void {
    for (const [id, cell] of this.byId) {
      if (cell.order !== undefined && this.ctx.cache.order(id) !== undefined) this.cancel(id);
    }
    if (!this.ctx.params.closeOnExit || !this.idle() || this.ctx.clock.now() < this.closeRetryAt) return;
    for (const direction of ['long', 'short'] as const) {
      const held = this.cells.filter((c) => c.direction === direction).reduce((sum, c) => sum.plus(c.held), dec(0));
      const position = this.positionOf(direction);
      const quantity = held.lt(position) ? held : position;
      if (quantity.lte(0)) continue;
      const positionSide = positionSideOf(direction);
      const key = this.nextKey(`gx${direction === 'long' ? 'l' : 's'}`);
      const id = this.ctx.clientOrderIdFor(key);
      this.closes.set(id, { direction });
      this.awaiting.add(id);
      this.save();
      this.ctx.emit({ type: 'place', key, symbol: this.symbol, side: positionSide === 'LONG' ? 'SELL' : 'BUY', positionSide, orderType: 'MARKET', quantity, reduceOnly: true });
    }
  }

  private positionOf(direction: 'long' | 'short'): Decimal {
    return this.ctx.position(this.symbol, positionSideOf(direction))?.qty ?? dec(0);
  }

  private idle(): boolean {
    return this.byId.size === 0 && this.closes.size === 0;
  }

  private cancel(id: string): void {
    if (this.cancelling.has(id)) return;
    this.cancelling.add(id);
    this.ctx.emit({ type: 'cancel', clientOrderId: id });
  }

  private onOrder(order: OrderSnapshot): void {
    const id = order.clientOrderId;
    this.awaiting.delete(id);
    const cell = this.byId.get(id);
    const close = this.closes.get(id);
    if (isOpenStatus(order.status)) {
      // An order of ours no cell knows (an earlier process's), or a late one after the stop.
      if ((cell === undefined && close === undefined) || (cell !== undefined && this.phase === 'stopped')) this.cancel(id);
      return;
    }
    this.cancelling.delete(id);
    if (cell !== undefined) {
      this.byId.delete(id);
      settleOrder(cell, order.filledQty);
    }
    if (close !== undefined) {
      this.closes.delete(id);
      this.settleClose(close.direction, order.filledQty);
    }
    if (cell !== undefined || close !== undefined) this.save();
    this.evaluate();
  }

  /** A closing MARKET order filled `filled` contracts: the direction's cells hold that much less. */
  private settleClose(direction: 'long' | 'short', filled: Decimal): void {
    let left = filled;
    for (const cell of this.cells) {
      if (cell.direction !== direction || left.lte(0)) continue;
      const taken = cell.held.lt(left) ? cell.held : left;
      cell.held = cell.held.minus(taken);
      left = left.minus(taken);
    }
  }

  /** The order never came to be: the cell tries again (later, with `backOff`). */
  private dropOrder(id: string, backOff: boolean): void {
    this.awaiting.delete(id);
    const retryAt = backOff ? this.ctx.clock.now() + RETRY_AFTER_MS : 0;
    const cell = this.byId.get(id);
    if (cell !== undefined) {
      this.byId.delete(id);
      cell.order = undefined;
      cell.retryAt = retryAt;
    }
    const close = this.closes.get(id);
    if (close !== undefined) {
      this.closes.delete(id);
      this.closeRetryAt = retryAt;
    }
    if (cell !== undefined || close !== undefined) this.save();
  }

  /**
   * Start-up and after every resync: each cell's order as the cache knows it now (finished ones are
   * booked, vanished ones forgotten), and open orders of ours that no cell claims are cancelled.
   */
  private resync(): void {
    this.byId.clear();
    for (const cell of this.cells) {
      if (cell.order === undefined) continue;
      const id = this.ctx.clientOrderIdFor(cell.order.key);
      const known = this.ctx.cache.order(id);
      if (known !== undefined && !isOpenStatus(known.status)) settleOrder(cell, known.filledQty);
      else if (known === undefined && !this.awaiting.has(id)) cell.order = undefined;
      else this.byId.set(id, cell);
    }
    for (const [id, close] of [...this.closes]) {
      const known = this.ctx.cache.order(id);
      if (known !== undefined && !isOpenStatus(known.status)) this.settleClose(close.direction, known.filledQty);
      if (known === undefined ? !this.awaiting.has(id) : !isOpenStatus(known.status)) this.closes.delete(id);
    }
    for (const order of this.ctx.openOrders(this.symbol)) {
      if (!this.byId.has(order.clientOrderId) && !this.closes.has(order.clientOrderId)) this.cancel(order.clientOrderId);
    }
    if (this.phase !== 'waiting') this.save();
  }

  private nextKey(prefix: string): string {
    this.seq += 1;
    return `${prefix}${this.seq}`;
  }

  private save(): void {
    saveGrid(this.ctx.store, { fingerprint: this.fingerprint, seq: this.seq, stopped: this.phase === 'stopped', cells: this.cells });
  }
}
