import type { Decimal } from '../../../core/decimal.js';
import { dec, decText } from '../../../core/decimal.js';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import { AlgoRecord } from './record.js';
import type { TpSlSetting, TrailingSetting } from './record.js';
import type { EngineState } from '../engine-state.js';
import type { FuturesAccount } from '../ledger.js';
import { checkPrice, notionalOf, openingMargin, resolveLots } from '../order-checks.js';
import type { OrderRecord } from '../order-record.js';
import type { PositionRecord } from '../position-record.js';
import { reject } from '../rejects.js';
import type { SymbolBook } from '../symbol-book.js';
import type { TradingDesk } from '../trading-desk.js';
import { directionFor, rateE8, tpslDirection, trailingDirection, TriggerBook } from '../triggers/index.js';
import type { TriggerSpec } from '../triggers/index.js';
import type { AlgoOrderView, AttachedStop, ModifyAlgoCommand, PlacePlanCommand, PositionSide, SimReject, StopOrderType, TrailingParams } from '../types.js';
import { money } from '../views.js';

/**
 * Plan orders and TP/SL rows: admission, their triggers in the TriggerBook, and what happens when one
 * fires (a regular order is submitted; `executedOrderId` links to it). TP/SL attached to an order are
 * created when that order fills and follow its filled quantity; TP/SL set on a position close the whole
 * position. Rows of a position that went flat are canceled.
 */
export class AlgoDesk {
  readonly triggers = new TriggerBook();
  readonly rows = new Map<string, AlgoRecord>();
  /** The row whose triggered order is being submitted, if any. */
  private firing: string | undefined;

  constructor(
    private readonly s: EngineState,
    private readonly desk: TradingDesk,
  ) {}

  placePlan(account: FuturesAccount, command: PlacePlanCommand): Result<AlgoRecord, SimReject> {
    const book = this.s.book(command.symbol, account.category);
    if (!('instrument' in book)) return err(book);
    const stop = checkPrice(book, command.stopPrice, 'stopPrice');
    if (!stop.ok) return stop;
    let priceTicks = 0;
    if (command.type === 'STOP') {
      if (command.price === undefined || command.price.isZero()) return err(reject.mandatory('price'));
      const price = checkPrice(book, command.price);
      if (!price.ok) return price;
      priceTicks = price.value;
    }
    const lots = resolveLots(book, command.quantity, command.valueQuantity, priceTicks > 0 ? priceTicks : stop.value);
    if (!lots.ok) return lots;
    const limit = this.checkRowLimits(account, book, command.clientOrderId);
    if (limit !== undefined) return err(limit);
    const settings = account.settingsOf(command.symbol);
    const row = new AlgoRecord(
      this.s.ids.order.next(),
      command.clientOrderId,
      account.userId,
      account.accountId,
      account.category,
      command.symbol,
      command.side,
      command.positionSide,
      'PLAN',
      priceTicks,
      lots.value,
      stop.value,
      command.triggerBy,
      command.timeInForce,
      settings.leverage,
      settings.marginType,
      this.s.time,
      '0',
      undefined,
      { ...(command.takeProfit === undefined ? {} : { takeProfit: command.takeProfit }), ...(command.stopLoss === undefined ? {} : { stopLoss: command.stopLoss }) },
    );
    const current = this.currentTicks(book, command.triggerBy);
    this.register(row, { kind: 'FIXED', symbol: row.symbol, source: row.triggerBy, direction: directionFor(stop.value, current ?? stop.value), stopTicks: stop.value });
    return ok(row);
  }

  /** TP/SL on a whole position (trading-stop); replaces the position's existing row of the same kind. */
  setPositionStop(account: FuturesAccount, symbol: string, positionSide: PositionSide, kind: StopOrderType, stop: AttachedStop): Result<AlgoRecord, SimReject> {
    const book = this.s.book(symbol, account.category);
    if (!('instrument' in book)) return err(book);
    const position = account.existingPosition(symbol, positionSide);
    if (position === undefined || position.lots === 0) return err(reject.noPosition(positionSide));
    for (const row of this.rows.values()) {
      if (row.isOpen && row.accountId === account.accountId && row.symbol === symbol && row.positionSide === positionSide && row.tpsl?.wholePosition === true && row.tpsl.stopOrderType === kind) this.cancelRow(row);
    }
    return this.createTpSl(account, book, positionSide, kind, stop, 0, '0');
  }

  private createTpSl(account: FuturesAccount, book: SymbolBook, positionSide: PositionSide, kind: StopOrderType, stop: AttachedStop, lots: number, parentOrderId: string): Result<AlgoRecord, SimReject> {
    const trigger = checkPrice(book, stop.triggerPrice, kind === 'TAKE_PROFIT' ? 'takeProfit' : 'stopLoss');
    if (!trigger.ok) return trigger;
    let priceTicks = 0;
    if (stop.orderType === 'LIMIT') {
      if (stop.limitPrice === undefined) return err(reject.mandatory(kind === 'TAKE_PROFIT' ? 'tpLimitPrice' : 'slLimitPrice'));
      const price = checkPrice(book, stop.limitPrice);
      if (!price.ok) return price;
      priceTicks = price.value;
    }
    const direction = tpslDirection(positionSide, kind);
    const current = this.currentTicks(book, stop.triggerBy);
    if (current !== undefined && (direction === 'RISING' ? trigger.value <= current : trigger.value >= current)) {
      const code = positionSide === 'LONG' ? (kind === 'TAKE_PROFIT' ? -3141 : -3142) : kind === 'TAKE_PROFIT' ? -3143 : -3144;
      return err(reject.tpslSide(code, kind === 'TAKE_PROFIT' ? 'Take-profit' : 'Stop-loss'));
    }
    const limit = this.checkRowLimits(account, book, undefined);
    if (limit !== undefined) return err(limit);
    const settings = account.settingsOf(book.instrument.symbol);
    const tpsl: TpSlSetting = { stopOrderType: kind, stopType: 'FIXED_STOP', wholePosition: lots === 0, trailing: undefined };
    const row = new AlgoRecord(
      this.s.ids.order.next(),
      this.s.ids.clientOrder.next(),
      account.userId,
      account.accountId,
      account.category,
      book.instrument.symbol,
      positionSide === 'LONG' ? 'SELL' : 'BUY',
      positionSide,
      'TPSL',
      priceTicks,
      lots,
      trigger.value,
      stop.triggerBy,
      'GTC',
      settings.leverage,
      settings.marginType,
      this.s.time,
      parentOrderId,
      tpsl,
      {},
    );
    this.register(row, { kind: 'FIXED', symbol: row.symbol, source: row.triggerBy, direction, stopTicks: trigger.value });
    return ok(row);
  }

  /** After a fill of a regular order: create or grow the TP/SL rows it carried. */
  afterFill(order: OrderRecord, account: FuturesAccount): void {
    if (order.isClose || (order.attached.takeProfit === undefined && order.attached.stopLoss === undefined)) return;
    const book = this.s.books.get(order.symbol);
    if (book === undefined) return;
    for (const [kind, stop] of [
      ['TAKE_PROFIT', order.attached.takeProfit],
      ['STOP_LOSS', order.attached.stopLoss],
    ] as const) {
      if (stop === undefined) continue;
      const existing = [...this.rows.values()].find((r) => r.parentOrderId === order.orderId && r.tpsl?.stopOrderType === kind);
      if (existing !== undefined) {
        if (existing.isOpen) {
          existing.lots = order.executedLots;
          existing.updateTime = this.s.time;
          this.emit(existing);
        }
        continue;
      }
      // A leg whose trigger is already on the wrong side is not effective; the order itself stands.
      const created = this.createTpSl(account, book, order.positionSide, kind, stop, order.executedLots, order.orderId);
      if (!created.ok) continue;
    }
  }

  /** A position went flat: its open TP/SL rows have nothing left to protect. */
  positionClosed(account: FuturesAccount, position: PositionRecord): void {
    for (const row of [...this.rows.values()]) {
      if (row.orderId === this.firing) continue;
      if (row.isOpen && row.family === 'TPSL' && row.accountId === account.accountId && row.symbol === position.symbol && row.positionSide === position.side) this.cancelRow(row);
    }
  }

  /** Price sources: called for every trade (CONTRACT_PRICE) and mark (MARK_PRICE) price. */
  onPrice(symbol: string, source: 'CONTRACT_PRICE' | 'MARK_PRICE', ticks: number): void {
    const fired = this.triggers.onPrice(symbol, source, ticks);
    const activated = this.triggers.takeActivated();
    // A trailing stop reaching its activation price reports it (activeStatus 1, document 001) at once.
    // Indexed loops: this runs for every trade and mark price, and an array iterator (with its result
    // objects) was allocated per call even when nothing was activated.
    for (let i = 0; i < activated.length; i++) {
      const id = activated[i]!;
      const row = this.rows.get(id);
      if (row === undefined || !row.isOpen) continue;
      row.activated = true;
      if (fired.includes(id)) continue;
      row.updateTime = this.s.time;
      this.emit(row, ticks);
    }
    if (fired.length === 0) return;
    for (const id of [...fired]) {
      const row = this.rows.get(id);
      if (row === undefined || !row.isOpen) continue;
      const final = this.triggers.firedState(id);
      row.activated = final?.activeStatus === 1;
      this.execute(row, final?.levelTicks ?? ticks, ticks);
    }
  }

  private execute(row: AlgoRecord, levelTicks: number, priceTicks: number): void {
    const account = this.s.users.get(row.userId)?.futures[row.category];
    const book = this.s.books.get(row.symbol);
    if (account === undefined || book === undefined) return;
    row.triggeredAtTicks = priceTicks;
    row.stopTicks = levelTicks;
    row.updateTime = this.s.time;
    let lots = row.lots;
    if (row.family === 'TPSL') {
      const position = account.existingPosition(row.symbol, row.positionSide);
      const available = position?.availableLots ?? 0;
      lots = row.tpsl?.wholePosition === true ? available : Math.min(row.lots, available);
      if (lots <= 0) {
        row.status = 'ORDER_NOT_EFFECTIVE';
        this.emit(row, priceTicks);
        return;
      }
    }
    const market = row.priceTicks === 0;
    // The row's own order may close the position: positionClosed must not cancel the row it is executing.
    this.firing = row.orderId;
    const placed = this.desk.submit(account, {
      symbol: row.symbol,
      side: row.side,
      positionSide: row.positionSide,
      type: market ? 'MARKET' : 'LIMIT',
      quantity: dec(book.qty.toText(lots)),
      ...(market ? {} : { price: dec(book.price.toText(row.priceTicks)) }),
      priceType: market ? 'MARKET' : 'INPUT',
      timeInForce: market ? 'IOC' : row.timeInForce,
      clientOrderId: this.s.ids.clientOrder.next(),
      ...(row.attached.takeProfit === undefined ? {} : { takeProfit: row.attached.takeProfit }),
      ...(row.attached.stopLoss === undefined ? {} : { stopLoss: row.attached.stopLoss }),
      sourceAlgoOrderId: row.orderId,
      forced: row.family === 'TPSL',
    });
    this.firing = undefined;
    if (!placed.ok) {
      row.status = 'ORDER_FAILED';
      this.emit(row, priceTicks);
      return;
    }
    row.status = 'ORDER_FILLED';
    row.executedOrderId = placed.value.orderId;
    row.executedLots = placed.value.executedLots;
    row.executedPriceTicks = placed.value.executedLots > 0 ? book.price.nearestUnits(Number(placed.value.cumQuote.div(dec(book.qty.toText(placed.value.executedLots)).mul(book.instrument.contractMultiplier)))) : 0;
    this.emit(row, priceTicks);
  }

  modify(row: AlgoRecord, command: ModifyAlgoCommand): Result<AlgoRecord, SimReject> {
    const book = this.s.books.get(row.symbol);
    if (book === undefined) throw new RangeError(`no book for ${row.symbol}`);
    if (!row.isOpen) return err(reject.notModifiable(row.status));
    let priceTicks = 0;
    if (!command.price.isZero()) {
      const price = checkPrice(book, command.price);
      if (!price.ok) return price;
      priceTicks = price.value;
    }
    let lots = 0;
    // On a TP/SL row quantity 0 means the whole position (document 000, rule 8).
    if (!(row.tpsl !== undefined && command.quantity.isZero())) {
      const resolved = resolveLots(book, command.quantity, undefined, 0);
      if (!resolved.ok) return resolved;
      lots = resolved.value;
    }
    const stopType = command.stopType ?? row.tpsl?.stopType;
    let spec: TriggerSpec;
    let stopTicks = row.stopTicks;
    let trailing: TrailingSetting | undefined;
    if (row.tpsl !== undefined && stopType === 'TRAILING_STOP') {
      const params = command.trailing;
      if (params === undefined) return err(reject.mandatory('fallbackType'));
      const t = this.trailingOf(book, params);
      if (!t.ok) return t;
      trailing = t.value;
      spec = {
        kind: 'TRAILING',
        symbol: row.symbol,
        source: command.triggerBy,
        direction: trailingDirection(row.positionSide),
        activeTicks: trailing.activeTicks,
        callback: trailing.fallbackType === 'RATE' ? { type: 'RATE', rateE8: rateE8(trailing.fallbackQuantity) ?? 0 } : { type: 'PRICE', ticks: book.price.toUnits(trailing.fallbackQuantity) },
      };
    } else {
      const stop = checkPrice(book, command.stopPrice, 'stopPrice');
      if (!stop.ok) return stop;
      stopTicks = stop.value;
      const direction = row.tpsl !== undefined ? tpslDirection(row.positionSide, row.tpsl.stopOrderType) : directionFor(stopTicks, this.currentTicks(book, command.triggerBy) ?? stopTicks);
      spec = { kind: 'FIXED', symbol: row.symbol, source: command.triggerBy, direction, stopTicks };
    }
    row.priceTicks = priceTicks;
    row.lots = lots;
    row.stopTicks = stopTicks;
    row.triggerBy = command.triggerBy;
    if (row.tpsl !== undefined) {
      row.tpsl.stopType = stopType ?? 'FIXED_STOP';
      row.tpsl.trailing = trailing;
      row.tpsl.wholePosition = lots === 0;
    }
    // "newClientOrderId: default generated" (document 000); a v1 TP/SL update ignores it.
    if (command.keepClientOrderId !== true) row.clientOrderId = command.newClientOrderId ?? this.s.ids.clientOrder.next();
    row.updateTime = this.s.time;
    this.triggers.update(row.orderId, spec);
    row.activated = this.triggers.get(row.orderId)?.activeStatus === 1;
    this.emit(row);
    return ok(row);
  }

  private trailingOf(book: SymbolBook, params: TrailingParams): Result<TrailingSetting, SimReject> {
    if (params.fallbackQuantity.lte(0)) return err(reject.param('fallbackQuantity'));
    let activeTicks = 0;
    if (!params.activePrice.isZero()) {
      const active = checkPrice(book, params.activePrice, 'activePrice');
      if (!active.ok) return active;
      activeTicks = active.value;
    }
    const text = decText(params.fallbackQuantity);
    if (params.fallbackType === 'RATE') {
      if (params.fallbackQuantity.gte(1) || rateE8(text) === undefined) return err({ code: -1166, msg: 'Trailing callback rate must be below 1 with at most 8 decimals.' });
    } else if (book.price.tryUnits(text) === undefined) return err({ code: -1166, msg: `Trailing callback price must be a multiple of the tick size ${book.price.step}.` });
    return ok({ activePrice: decText(params.activePrice), activeTicks, fallbackType: params.fallbackType, fallbackQuantity: text });
  }

  /** Forgets finished rows last updated before `cutoff`, and the oldest finished ones beyond `maxFinished`. */
  purge(cutoff: number, maxFinished: number): void {
    const finished: AlgoRecord[] = [];
    for (const row of this.rows.values()) {
      if (row.isOpen) continue;
      if (row.updateTime < cutoff) this.rows.delete(row.orderId);
      else finished.push(row);
    }
    for (let i = 0; i < finished.length - maxFinished; i++) {
      const row = finished[i];
      if (row !== undefined) this.rows.delete(row.orderId);
    }
  }

  /** Rows still open. */
  get openCount(): number {
    let n = 0;
    for (const row of this.rows.values()) if (row.isOpen) n++;
    return n;
  }

  cancelRow(row: AlgoRecord): void {
    if (!row.isOpen) return;
    const state = this.triggers.get(row.orderId);
    if (state !== undefined) row.activated = state.activeStatus === 1;
    this.triggers.remove(row.orderId);
    row.status = 'ORDER_CANCELED';
    row.updateTime = this.s.time;
    this.emit(row);
  }

  view(row: AlgoRecord): AlgoOrderView {
    const book = this.s.books.get(row.symbol);
    if (book === undefined) throw new RangeError(`no book for ${row.symbol}`);
    const state = row.isOpen ? this.triggers.get(row.orderId) : undefined;
    const trailing = row.tpsl?.trailing;
    const liveLevel = state !== undefined && state.kind === 'TRAILING' ? state.levelTicks : undefined;
    const stopTicks = trailing !== undefined && row.isOpen ? (liveLevel ?? 0) : row.stopTicks;
    const lotsShown = row.lots;
    const marginPrice = row.priceTicks > 0 ? row.priceTicks : row.stopTicks;
    const margin = row.isClose || lotsShown === 0 || marginPrice === 0 ? dec(0) : openingMargin(book, notionalOf(book, lotsShown, marginPrice), row.leverage);
    const market = row.priceTicks === 0;
    const type = row.family === 'PLAN' ? (market ? 'STOP_MARKET' : 'STOP') : market ? 'STOP_PROFIT_LOSS_MARKET' : 'STOP_PROFIT_LOSS';
    const base: AlgoOrderView = {
      orderId: row.orderId,
      clientOrderId: row.clientOrderId,
      accountId: row.accountId,
      userId: row.userId,
      category: row.category,
      symbol: row.symbol,
      side: row.side,
      positionSide: row.positionSide,
      isClose: row.isClose,
      type,
      price: market ? '0' : book.price.toText(row.priceTicks),
      origQty: book.qty.toText(lotsShown),
      stopPrice: book.price.toText(stopTicks),
      triggerBy: row.triggerBy,
      timeInForce: row.timeInForce,
      status: row.status,
      leverage: String(row.leverage),
      marginLocked: money(margin),
      marginType: row.marginType,
      contractMultiplier: book.instrument.contractMultiplier,
      executedOrderId: row.executedOrderId,
      executedPrice: row.executedPriceTicks > 0 ? book.price.toText(row.executedPriceTicks) : '0',
      executedQty: book.qty.toText(row.executedLots),
      parentOrderId: row.parentOrderId,
      time: row.time,
      updateTime: row.updateTime,
    };
    if (row.tpsl === undefined) return base;
    const long = row.positionSide === 'LONG';
    const profit = row.tpsl.stopOrderType === 'TAKE_PROFIT';
    return {
      ...base,
      tpsl: {
        stopOrderType: row.tpsl.stopOrderType,
        stopType: row.tpsl.stopType,
        planOrderType: `STOP_${long ? 'LONG' : 'SHORT'}_${profit ? 'PROFIT' : 'LOSS'}`,
        wholePosition: row.tpsl.wholePosition,
        activePrice: trailing?.activePrice ?? '0',
        ...(trailing === undefined ? {} : { fallbackType: trailing.fallbackType }),
        fallbackQuantity: trailing?.fallbackQuantity ?? '0',
        activeStatus: state !== undefined && state.kind === 'TRAILING' ? state.activeStatus : trailing !== undefined && row.activated ? 1 : 0,
      },
    };
  }

  emit(row: AlgoRecord, quoteTicks?: number): void {
    const book = this.s.books.get(row.symbol);
    const quotePrice = quoteTicks !== undefined && book !== undefined ? book.price.toText(quoteTicks) : undefined;
    this.s.emit({ type: 'plan', time: this.s.time, userId: row.userId, category: row.category, plan: this.view(row), ...(quotePrice === undefined ? {} : { quotePrice }) });
  }

  private register(row: AlgoRecord, spec: TriggerSpec): void {
    this.rows.set(row.orderId, row);
    this.triggers.add(row.orderId, spec);
    this.emit(row);
  }

  private checkRowLimits(account: FuturesAccount, book: SymbolBook, clientOrderId: string | undefined): SimReject | undefined {
    let count = 0;
    for (const row of this.rows.values()) {
      if (!row.isOpen || row.accountId !== account.accountId) continue;
      if (clientOrderId !== undefined && row.clientOrderId === clientOrderId) return reject.duplicateClientId(clientOrderId);
      if (row.symbol === book.instrument.symbol) count++;
    }
    const max = book.filters.limitTrading.maxConditionNum;
    return count >= Number(max) ? reject.maxAlgoOrders(max) : undefined;
  }

  private currentTicks(book: SymbolBook, source: 'CONTRACT_PRICE' | 'MARK_PRICE'): number | undefined {
    const ticks = source === 'MARK_PRICE' ? book.markTicks || book.lastTicks : book.lastTicks || book.markTicks;
    return ticks > 0 ? ticks : undefined;
  }
}

export type { Decimal };
