import { isOpenAlgoStatus, isOpenStatus } from 'stratd/strategy';
import type { AlgoOrderSnapshot, BusEvent, Decimal, ExchangeCommand, HandlerContext, Intent, OrderSnapshot, PositionSide } from 'stratd/strategy';
import { loadGuards, nextKey, saveGuards } from './guard-store.js';
import type { BracketParams } from './params.js';
import type { StopKind } from './stop-targets.js';
import { bestPrice, improves, passed, stopTargets } from './stop-targets.js';

type Ctx = HandlerContext<BracketParams>;

/** After a refusal, the guard waits this long before it tries again. */
export const RETRY_AFTER_MS = 5_000;
/** After one of its stops fired, the guard waits for the position to show it (at most this long). */
export const FIRED_GRACE_MS = 3_000;

const KINDS: readonly StopKind[] = ['STOP_LOSS', 'TAKE_PROFIT'];

/** One exchange-side stop of a position: a closing plan order, as requested and as confirmed. */
interface Slot {
  readonly kind: StopKind;
  readonly key: string;
  readonly id: string;
  trigger: Decimal;
  quantity: Decimal;
  pending: 'place' | 'modify' | 'cancel' | undefined;
}

/** The stops of one position side of one symbol. */
interface Guard {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly slots: Map<StopKind, Slot>;
  /** The best trigger price seen while the position was open (trailing stop). */
  best: Decimal | undefined;
  /** The client id of a MARKET close in flight (a stop was already passed). */
  closing: string | undefined;
  /** Nothing is sent before this time (after a refusal, or while a fired stop's position update is due). */
  holdUntil: number;
}

function keyOf(symbol: string, side: PositionSide): string {
  return `${symbol}/${side}`;
}

/**
 * Guards every position on the instance's symbols, whoever opened it: keeps a stop-loss and a
 * take-profit on the exchange (closing plan orders from `tpsl` intents), resizes and re-prices them
 * when the position changes, raises the stop-loss behind the price (trailing), and removes them once
 * the position is flat.
 */
export class Bracket {
  private readonly guards = new Map<string, Guard>();
  private readonly bySlotId = new Map<string, { guard: Guard; slot: Slot }>();
  private readonly strays = new Set<string>();

  constructor(private readonly ctx: Ctx) {}

  start(): void {
    const { ctx } = this;
    for (const saved of loadGuards(ctx.store)) {
      if (!ctx.symbols.includes(saved.symbol)) continue;
      const guard = this.guardOf(saved.symbol, saved.side);
      guard.best = saved.best;
      for (const kind of KINDS) {
        const key = saved.keys[kind];
        if (key === undefined) continue;
        const id = ctx.clientOrderIdFor(key);
        const algo = ctx.cache.algoOrder(id);
        if (algo !== undefined && isOpenAlgoStatus(algo.status)) this.addSlot(guard, { kind, key, id, trigger: algo.triggerPrice, quantity: algo.quantity, pending: undefined });
      }
    }
    this.cancelStrays();
    for (const position of ctx.account.positions()) if (ctx.symbols.includes(position.symbol) && position.qty.gt(0)) this.guardOf(position.symbol, position.positionSide);
    this.save();
    this.evaluateAll();
  }

  stop(): void {
    this.save();
    if (!this.ctx.params.cancelOnStop) return;
    for (const symbol of this.ctx.symbols) this.ctx.emit({ type: 'cancel-all', symbol, includeAlgo: true });
  }

  onEvent(event: BusEvent): void {
    switch (event.type) {
      case 'market.markPrice':
      case 'market.trade':
        if ((event.type === 'market.markPrice') === (this.ctx.params.triggerBy === 'MARK_PRICE')) this.evaluateSymbol(event.symbol);
        return;
      case 'account.position': {
        const guard = this.guardOf(event.position.symbol, event.position.positionSide);
        guard.holdUntil = 0;
        this.evaluate(guard);
        return;
      }
      case 'account.algo':
        this.onAlgo(event.order);
        return;
      case 'account.order':
        this.onOrder(event.order);
        return;
      case 'command.submitted':
        if (event.command.type === 'modify-algo') this.confirmed(event.command.clientOrderId);
        return;
      case 'command.failed':
        this.onFailed(event.command);
        return;
      case 'intent.denied':
        this.onDenied(event.intent, event.denial.code !== 'NOT_READY');
        return;
      case 'account.resynced':
        this.resync();
        return;
      case 'timer':
        this.evaluateAll();
        return;
      default:
        return;
    }
  }

  private guardOf(symbol: string, side: PositionSide): Guard {
    const key = keyOf(symbol, side);
    let guard = this.guards.get(key);
    if (guard === undefined) {
      guard = { symbol, side, slots: new Map(), best: undefined, closing: undefined, holdUntil: 0 };
      this.guards.set(key, guard);
    }
    return guard;
  }

  private evaluateAll(): void {
    for (const guard of this.guards.values()) this.evaluate(guard);
  }

  private evaluateSymbol(symbol: string): void {
    for (const guard of this.guards.values()) if (guard.symbol === symbol) this.evaluate(guard);
  }

  private triggerPriceOf(symbol: string): Decimal | undefined {
    return this.ctx.params.triggerBy === 'MARK_PRICE' ? this.ctx.cache.markPrice(symbol) : this.ctx.cache.lastPrice(symbol);
  }

  private evaluate(guard: Guard): void {
    const { cache, params, clock } = this.ctx;
    const position = this.ctx.account.position(guard.symbol, guard.side);
    if (position === undefined || position.qty.lte(0)) {
      this.disarm(guard);
      return;
    }
    const price = this.triggerPriceOf(guard.symbol);
    const instrument = cache.instrument(guard.symbol);
    if (guard.closing !== undefined || clock.now() < guard.holdUntil || price === undefined || instrument === undefined) return;
    guard.best = bestPrice(guard.side, guard.best, price);
    const targets = stopTargets(guard.side, position.avgPrice, guard.best, params, instrument.tickSize);
    // A stop that stands on the exchange at its target fires by itself; one that cannot be placed any more does not.
    const breached = KINDS.filter((kind) => {
      const target = targets[kind];
      const slot = guard.slots.get(kind);
      const standing = slot !== undefined && slot.pending === undefined && target !== undefined && slot.trigger.eq(target);
      return target !== undefined && !standing && passed(guard.side, kind, target, price);
    });
    if (breached.length > 0 && params.closeOnBreach) {
      this.close(guard, breached, price);
      return;
    }
    for (const kind of KINDS) {
      const target = breached.includes(kind) ? undefined : targets[kind];
      const slot = guard.slots.get(kind);
      if (target === undefined) {
        if (slot !== undefined) this.cancel(slot);
      } else if (slot === undefined) {
        this.place(guard, kind, target, position.qty);
      } else if (slot.pending === undefined) {
        this.adjust(guard, slot, target, position.qty, price);
      }
    }
  }

  /** Resized with the position (and re-priced, the entry having moved); else only a stop-loss that trails up. */
  private adjust(guard: Guard, slot: Slot, target: Decimal, quantity: Decimal, price: Decimal): void {
    const resized = !slot.quantity.eq(quantity);
    const step = price.mul(this.ctx.params.trailingStepPct).div(100);
    const trails = slot.kind === 'STOP_LOSS' && improves(guard.side, slot.trigger, target) && target.minus(slot.trigger).abs().gte(step);
    const moved = !target.eq(slot.trigger) && (resized || trails);
    if (!resized && !moved) return;
    slot.pending = 'modify';
    if (resized) slot.quantity = quantity;
    if (moved) slot.trigger = target;
    if (moved && slot.kind === 'STOP_LOSS') this.save();
    this.ctx.emit({ type: 'modify-algo', clientOrderId: slot.id, ...(moved ? { triggerPrice: target } : {}), ...(resized ? { quantity } : {}) });
  }

  private place(guard: Guard, kind: StopKind, trigger: Decimal, quantity: Decimal): void {
    const key = nextKey(this.ctx.store, kind === 'STOP_LOSS' ? 'sl' : 'tp');
    this.addSlot(guard, { kind, key, id: this.ctx.clientOrderIdFor(key), trigger, quantity, pending: 'place' });
    this.save();
    this.ctx.emit({ type: 'tpsl', key, symbol: guard.symbol, positionSide: guard.side, kind, triggerPrice: trigger, triggerBy: this.ctx.params.triggerBy, quantity });
  }

  private cancel(slot: Slot): void {
    if (slot.pending !== undefined) return;
    slot.pending = 'cancel';
    this.ctx.emit({ type: 'cancel-algo', clientOrderId: slot.id });
  }

  /** A stop the price has already passed cannot be placed: the position is closed at market instead. */
  private close(guard: Guard, breached: readonly StopKind[], price: Decimal): void {
    const key = nextKey(this.ctx.store, 'bx');
    guard.closing = this.ctx.clientOrderIdFor(key);
    this.ctx.logger.warn({ symbol: guard.symbol, side: guard.side, stops: breached, price: price.toFixed() }, 'bracket: price already beyond a stop, closing at market');
    this.ctx.emit({ type: 'place', key, symbol: guard.symbol, side: guard.side === 'LONG' ? 'SELL' : 'BUY', positionSide: guard.side, orderType: 'MARKET', closePosition: true });
  }

  /** Flat: the stops have nothing left to protect. */
  private disarm(guard: Guard): void {
    for (const slot of guard.slots.values()) this.cancel(slot);
    if (guard.best !== undefined) {
      guard.best = undefined;
      this.save();
    }
  }

  private addSlot(guard: Guard, slot: Slot): void {
    guard.slots.set(slot.kind, slot);
    this.bySlotId.set(slot.id, { guard, slot });
  }

  private removeSlot(guard: Guard, slot: Slot): void {
    guard.slots.delete(slot.kind);
    this.bySlotId.delete(slot.id);
    this.save();
  }

  private onAlgo(order: AlgoOrderSnapshot): void {
    const found = this.bySlotId.get(order.clientOrderId);
    if (found === undefined) {
      // Ours (events of other owners never reach us), yet no guard knows it: an earlier run's.
      if (isOpenAlgoStatus(order.status)) this.cancelStray(order.clientOrderId);
      else this.strays.delete(order.clientOrderId);
      return;
    }
    const { guard, slot } = found;
    if (isOpenAlgoStatus(order.status)) {
      if (slot.pending === 'place') slot.pending = undefined;
      if (slot.pending === undefined) {
        slot.trigger = order.triggerPrice;
        slot.quantity = order.quantity;
      }
      this.evaluate(guard);
      return;
    }
    this.removeSlot(guard, slot);
    if (order.status === 'ORDER_FILLED') {
      this.ctx.logger.info({ symbol: guard.symbol, side: guard.side, kind: slot.kind, trigger: order.triggerPrice.toFixed() }, 'bracket: stop triggered');
      guard.holdUntil = this.ctx.clock.now() + FIRED_GRACE_MS;
    }
    this.evaluate(guard);
  }

  /** Our MARKET close finished (or our plan order's child did): the guard looks again. */
  private onOrder(order: OrderSnapshot): void {
    if (isOpenStatus(order.status)) return;
    for (const guard of this.guards.values()) {
      if (guard.closing !== order.clientOrderId) continue;
      guard.closing = undefined;
      this.evaluate(guard);
    }
  }

  private confirmed(id: string): void {
    const found = this.bySlotId.get(id);
    if (found?.slot.pending === 'modify') found.slot.pending = undefined;
  }

  private refused(id: string, backOff: boolean): void {
    const found = this.bySlotId.get(id);
    if (found === undefined) return;
    const { guard, slot } = found;
    if (backOff) guard.holdUntil = this.ctx.clock.now() + RETRY_AFTER_MS;
    // What the exchange shows is what stands: nothing (a refused placement, a stop gone meanwhile), or the stop as it is.
    const algo = this.ctx.cache.algoOrder(id);
    if (slot.pending === 'place' || algo === undefined || !isOpenAlgoStatus(algo.status)) {
      this.removeSlot(guard, slot);
      return;
    }
    slot.pending = undefined;
    slot.trigger = algo.triggerPrice;
    slot.quantity = algo.quantity;
  }

  private closeRefused(id: string, backOff: boolean): void {
    for (const guard of this.guards.values()) {
      if (guard.closing !== id) continue;
      guard.closing = undefined;
      if (backOff) guard.holdUntil = this.ctx.clock.now() + RETRY_AFTER_MS;
    }
  }

  private onFailed(command: ExchangeCommand): void {
    if (command.type === 'place-algo' || command.type === 'modify-algo' || command.type === 'cancel-algo') {
      this.strays.delete(command.clientOrderId);
      this.refused(command.clientOrderId, true);
    }
    if (command.type === 'place-order') this.closeRefused(command.clientOrderId, true);
  }

  /** `backOff` false: NOT_READY (a resync in progress); the next event or timer tick tries again. */
  private onDenied(intent: Intent, backOff: boolean): void {
    if (intent.type === 'tpsl' && intent.key !== undefined) this.refused(this.ctx.clientOrderIdFor(intent.key), backOff);
    if (intent.type === 'modify-algo' || intent.type === 'cancel-algo') {
      this.strays.delete(intent.clientOrderId);
      this.refused(intent.clientOrderId, backOff);
    }
    if (intent.type === 'place' && intent.key !== undefined) this.closeRefused(this.ctx.clientOrderIdFor(intent.key), backOff);
  }

  /** After a resync: stops the exchange no longer shows are forgotten, ours nobody claims cancelled. */
  private resync(): void {
    for (const { guard, slot } of [...this.bySlotId.values()]) {
      const algo = this.ctx.cache.algoOrder(slot.id);
      if (algo === undefined ? slot.pending !== 'place' : !isOpenAlgoStatus(algo.status)) this.removeSlot(guard, slot);
    }
    this.cancelStrays();
    this.evaluateAll();
  }

  private cancelStrays(): void {
    for (const algo of this.ctx.openAlgoOrders()) if (!this.bySlotId.has(algo.clientOrderId)) this.cancelStray(algo.clientOrderId);
  }

  private cancelStray(id: string): void {
    if (this.strays.has(id)) return;
    this.strays.add(id);
    this.ctx.emit({ type: 'cancel-algo', clientOrderId: id });
  }

  private save(): void {
    saveGuards(
      this.ctx.store,
      [...this.guards.values()]
        .filter((g) => g.slots.size > 0 || g.best !== undefined)
        .map((g) => ({
          symbol: g.symbol,
          side: g.side,
          keys: Object.fromEntries([...g.slots.values()].map((s) => [s.kind, s.key])),
          best: g.best,
        })),
    );
  }
}

