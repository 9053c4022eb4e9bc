import type { Decimal } from '../../core/decimal.js';
import { compareDecimals, dec } from '../../core/decimal.js';
import { dividedExact, minusExact, plusExact, timesExact, timesRatioExact, weightedAverageExact } from '../../core/exact-decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { accountFigures, accountFiguresLater } from './account-math.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import { OrderRecord } from './order-record.js';
import { checkLimitBand, checkNotional, checkPrice, leverageRate, notionalOf, openingMargin, resolveLots } from './order-checks.js';
import type { PositionRecord } from './position-record.js';
import { reject } from './rejects.js';
import type { Fill, SymbolBook } from './symbol-book.js';
import type { AttachedStop, PositionSide, PriceType, Side, SimReject, TimeInForce } from './types.js';
import { BalanceEvent, OrderEvent, PositionEvent } from './account-event-objects.js';
import { orderMoment, positionMoment } from './account-moments.js';
import { money, moneyValue } from './views.js';

const ZERO = dec(0);

/** What the desk needs to open an order, from any source (API, plan trigger, TP/SL, liquidation). */
export interface OrderSpec {
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly type: 'LIMIT' | 'MARKET';
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly priceType: PriceType;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId: string;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
  readonly sourceAlgoOrderId?: string;
  /** Liquidation and flash close may exceed the open-order filters. */
  readonly forced?: boolean;
}

/** Callbacks to the parts that react to fills (TP/SL attachment, position-bound rows). */
export interface DeskHooks {
  afterFill(order: OrderRecord, account: FuturesAccount, position: PositionRecord): void;
  positionClosed(account: FuturesAccount, position: PositionRecord): void;
}

/** Regular orders: admission, matching, fills and their accounting, cancels and modifications. */
export class TradingDesk {
  constructor(
    private readonly s: EngineState,
    private readonly hooks: DeskHooks,
  ) {}

  /**
   * Admits, matches and (if it remains) rests an order; answers the order or the exchange's refusal.
   * `marketBand`: the protective band of a market order, v1 priceType MARKET ±5 %, v2 MARKET the
   * MARKET_TRADING band (an argument, so a place command is read as it is, not copied with it).
   */
  submit(account: FuturesAccount, spec: OrderSpec, marketBand: 'v1' | 'v2' = 'v2'): Result<OrderRecord, SimReject> {
    const bookOrReject = this.s.book(spec.symbol, account.category);
    if (!('instrument' in bookOrReject)) return err(bookOrReject);
    const book = bookOrReject;
    const buying = spec.side === 'BUY';
    const settings = account.settingsOf(spec.symbol);
    const isClose = (spec.side === 'SELL') === (spec.positionSide === 'LONG');

    let priceTicks: number;
    let timeInForce = spec.timeInForce;
    if (spec.type === 'MARKET') {
      const rate = marketBand === 'v1' ? book.rates.marketV1 : buying ? book.rates.marketBuy : book.rates.marketSell;
      const band = book.bandTicks(buying, rate);
      if (band === undefined || book.depth === undefined) return err(reject.noDepth(spec.symbol));
      priceTicks = band;
      timeInForce = 'IOC';
    } else {
      if (spec.price === undefined) return err(reject.mandatory('price'));
      const checked = checkPrice(book, spec.price);
      if (!checked.ok) return checked;
      priceTicks = checked.value;
      if (spec.forced !== true) {
        const band = checkLimitBand(book, buying, priceTicks);
        if (band !== undefined) return err(band);
      }
    }
    const lotsReference = spec.type === 'MARKET' ? (book.lastTicks > 0 ? book.lastTicks : priceTicks) : priceTicks;
    const lots = resolveLots(book, spec.quantity, spec.valueQuantity, lotsReference);
    if (!lots.ok) return lots;
    const notional = notionalOf(book, lots.value, priceTicks);
    if (spec.forced !== true) {
      const small = checkNotional(book, lotsReference === priceTicks ? notional : notionalOf(book, lots.value, lotsReference));
      if (small !== undefined) return err(small);
      // One pass over the open orders for both checks; a duplicate id is refused before the count.
      let sameSymbol = 0;
      for (const o of account.openOrders) {
        if (o.clientOrderId === spec.clientOrderId) return err(reject.duplicateClientId(spec.clientOrderId));
        if (o.symbol === spec.symbol) sameSymbol++;
      }
      if (sameSymbol >= book.maxOpenOrders) return err(reject.maxOrders(book.filters.limitTrading.maxEntrustNum));
    }
    let marginLocked = ZERO;
    const position = account.position(spec.symbol, spec.positionSide);
    if (isClose) {
      if (position.lots === 0) return err(reject.noPosition(spec.positionSide));
      if (lots.value > position.availableLots) return err(reject.closeTooLarge(book.qty.toText(lots.value), book.qty.toText(position.availableLots)));
    } else {
      const afterLots = position.lots + lots.value;
      if (book.tiers.beyondLast(afterLots)) return err({ code: -3148, msg: 'Position would exceed the maximum risk limit.' });
      if (compareDecimals(leverageRate(settings.leverage), book.tiers.ofLots(afterLots).initialMarginRate) < 0) return err(reject.positionTooLarge());
      marginLocked = openingMargin(book, notional, settings.leverage);
      if (accountFigures(this.s, account).compareAvailable(marginLocked) < 0) return err(reject.insufficientBalance());
    }
    if (spec.timeInForce === 'POST_ONLY') {
      const crosses = buying ? book.bestAskTicks > 0 && priceTicks >= book.bestAskTicks : book.bestBidTicks > 0 && priceTicks <= book.bestBidTicks;
      if (crosses) return err(reject.postOnly());
    }

    const order = new OrderRecord(
      this.s.ids.order.next(),
      spec.clientOrderId,
      account.userId,
      account.accountId,
      account.category,
      spec.symbol,
      spec.side,
      spec.positionSide,
      spec.type,
      priceTicks,
      spec.type === 'MARKET' ? 'MARKET' : spec.priceType,
      lots.value,
      timeInForce,
      settings.leverage,
      settings.marginType,
      this.s.time,
      attachedStops(spec),
      spec.sourceAlgoOrderId,
    );
    order.marginLocked = marginLocked;
    this.s.addOrder(order);
    account.openOrders.add(order);
    if (isClose) position.closingLots += lots.value;
    this.emitOrder(order);

    if (timeInForce === 'FOK') {
      const available = book.sweep(order, priceTicks, order.origLots, false).reduce((sum, f) => sum + f.lots, 0);
      if (available < order.origLots) {
        this.finish(order, 'CANCELED');
        return ok(order);
      }
    }
    this.applyFills(book.sweep(order, priceTicks, order.origLots, true));
    if (order.isOpen) {
      if (timeInForce === 'IOC' || timeInForce === 'FOK') this.finish(order, 'CANCELED');
      else book.rest(order);
    }
    if (!isClose) this.emitBalance(account);
    return ok(order);
  }

  /**
   * Closes `lots` of a position at `priceTicks` as one taker fill, outside the book: liquidation at the
   * mark price. The order is recorded like any other so history, trades and the stream show it.
   */
  forceClose(account: FuturesAccount, position: PositionRecord, priceTicks: number, clientOrderId: string): OrderRecord {
    const order = new OrderRecord(
      this.s.ids.order.next(),
      clientOrderId,
      account.userId,
      account.accountId,
      account.category,
      position.symbol,
      position.side === 'LONG' ? 'SELL' : 'BUY',
      position.side,
      'MARKET',
      priceTicks,
      'MARKET',
      position.lots,
      'IOC',
      position.leverage,
      position.marginType,
      this.s.time,
      {},
      undefined,
    );
    this.s.addOrder(order);
    account.openOrders.add(order);
    position.closingLots += position.lots;
    this.emitOrder(order);
    this.applyFill({ order, lots: order.origLots, priceTicks, isMaker: false });
    return order;
  }

  /** Applies executions in order: order state, fees, position, realized PnL, and their events. */
  applyFills(fills: readonly Fill[] | undefined): void {
    if (fills === undefined) return;
    for (const fill of fills) if (fill.order.isOpen && fill.lots > 0) this.applyFill(fill);
  }

  private applyFill(fill: Fill): void {
    const order = fill.order;
    const s = this.s;
    const book = s.books.get(order.symbol);
    const account = s.users.get(order.userId)?.futures[order.category];
    if (book === undefined || account === undefined) throw new RangeError(`fill for unknown order ${order.orderId}`);
    const lots = Math.min(fill.lots, order.remainingLots);
    const price = s.priceOf(book, fill.priceTicks);
    const notional = notionalOf(book, lots, fill.priceTicks);
    const fee = timesExact(notional, fill.isMaker ? book.makerFeeRate : book.takerFeeRate);
    const position = account.position(order.symbol, order.positionSide);
    const remainingBefore = order.remainingLots;

    account.touch();
    order.executedLots += lots;
    order.cumQuote = plusExact(order.cumQuote, notional);
    order.commission = plusExact(order.commission, fee);
    order.updateTime = s.time;
    account.wallet = minusExact(account.wallet, fee);
    s.flows.record({ userId: account.userId, accountId: account.accountId, accountType: 'FUTURES', category: account.category, coin: account.category, kind: 'FEE', symbol: order.symbol, change: fee.neg(), total: account.wallet, time: s.time });

    let realized = ZERO;
    if (!order.isClose) {
      const release = timesRatioExact(order.marginLocked, lots, remainingBefore);
      order.marginLocked = minusExact(order.marginLocked, release);
      const coinsBefore = book.qtyDecimals.of(position.lots);
      const coinsAdded = book.qtyDecimals.of(lots);
      position.avgPrice = weightedAverageExact(position.avgPrice, coinsBefore, price, coinsAdded);
      if (position.lots === 0) {
        position.leverage = order.leverage;
        position.marginType = order.marginType;
        position.life = { openedAt: s.time, maxLots: 0, closedQty: ZERO, closeValue: ZERO, realized: ZERO, openAvgPrice: ZERO, liquidated: false };
      }
      position.lots += lots;
      if (position.life !== undefined) position.life.maxLots = Math.max(position.life.maxLots, position.lots);
      position.margin = plusExact(position.margin, dividedExact(notional, position.leverage));
      s.markHolder(account, order.symbol, true);
    } else {
      const closing = Math.min(lots, position.lots);
      // The decimals of the lots and the multiplier the text would parse to; × −1 as a negation (the same digits and sign, zero's included).
      const coins = book.qtyDecimals.of(closing).mul(book.multiplierDecimal);
      const move = price.sub(position.avgPrice).mul(coins);
      realized = position.direction === 1 ? move : move.neg();
      if (position.marginType === 'ISOLATED' && realized.neg().gt(position.margin)) realized = position.margin.neg();
      const released = position.lots === 0 ? ZERO : timesRatioExact(position.margin, closing, position.lots);
      if (position.life !== undefined) {
        const closedQty = book.qtyDecimals.of(closing);
        position.life.closedQty = plusExact(position.life.closedQty, closedQty);
        position.life.closeValue = plusExact(position.life.closeValue, timesExact(price, closedQty));
        position.life.realized = plusExact(position.life.realized, realized);
        position.life.openAvgPrice = position.avgPrice;
        position.life.liquidated ||= order.clientOrderId.startsWith('liquidation-');
      }
      position.margin = minusExact(position.margin, released);
      position.lots -= closing;
      position.closingLots = Math.max(0, position.closingLots - lots);
      position.realizedPnl = plusExact(position.realizedPnl, realized);
      account.realizedTotal = plusExact(account.realizedTotal, realized);
      order.realizedPnl = plusExact(order.realizedPnl, realized);
      account.wallet = plusExact(account.wallet, realized);
      const liquidation = order.clientOrderId.startsWith('liquidation-');
      s.flows.record({ userId: account.userId, accountId: account.accountId, accountType: 'FUTURES', category: account.category, coin: account.category, kind: liquidation ? 'LIQUIDATION' : 'REALIZED_PNL', symbol: order.symbol, change: realized, total: account.wallet, time: s.time });
      if (position.lots === 0) {
        position.avgPrice = ZERO;
        position.margin = ZERO;
        s.markHolder(account, order.symbol, hasAnyPosition(account, order.symbol));
      }
    }

    const qtyText = book.qty.toText(lots);
    const priceText = book.price.toText(fill.priceTicks);
    const trade = {
      id: s.ids.trade.next(),
      ticketId: s.ids.ticket.next(),
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      accountId: account.accountId,
      userId: account.userId,
      category: account.category,
      symbol: order.symbol,
      side: order.side,
      positionSide: order.positionSide,
      isClose: order.isClose,
      type: order.type,
      price: priceText,
      qty: qtyText,
      commission: money(fee),
      commissionAsset: account.category,
      makerRebate: '0',
      realizedPnl: money(realized),
      isMaker: fill.isMaker,
      matchOrderId: '0',
      matchAccountId: '0',
      time: s.time,
    } as const;
    s.recordTrade(account.accountId, trade);

    const done = order.remainingLots === 0;
    order.status = done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (done) this.close(order, book, account);
    s.emit(new OrderEvent(s.time, orderMoment(s, order), { qty: qtyText, price: priceText, fee, isMaker: fill.isMaker }));
    s.emit({ type: 'trade', time: s.time, userId: account.userId, category: account.category, trade, amounts: { commission: moneyValue(fee), realizedPnl: moneyValue(realized), price, qty: book.qtyDecimals.of(lots) } });
    this.emitPosition(account, position);
    this.emitBalance(account);
    this.hooks.afterFill(order, account, position);
    if (position.lots === 0 && order.isClose) this.hooks.positionClosed(account, position);
  }

  /** Ends an open order (canceled or rejected), releasing its margin and reserved position. */
  finish(order: OrderRecord, status: 'CANCELED' | 'REJECTED'): void {
    if (!order.isOpen) return;
    const book = this.s.books.get(order.symbol);
    const account = this.s.users.get(order.userId)?.futures[order.category];
    if (book === undefined || account === undefined) throw new RangeError(`unknown order ${order.orderId}`);
    order.status = status;
    order.updateTime = this.s.time;
    this.close(order, book, account);
    this.emitOrder(order);
    this.emitBalance(account);
  }

  private close(order: OrderRecord, book: SymbolBook, account: FuturesAccount): void {
    book.remove(order);
    account.openOrders.delete(order);
    this.s.orderFinished(order);
    order.marginLocked = ZERO;
    if (order.isClose) {
      const position = account.position(order.symbol, order.positionSide);
      position.closingLots = Math.max(0, position.closingLots - order.remainingLots);
    }
  }

  /**
   * Replaces price and/or quantity of an open limit order. It keeps its place in the queue only when the
   * price is the same and the quantity does not grow; otherwise it goes to the back and may match at once.
   */
  modify(account: FuturesAccount, order: OrderRecord, newRemainingLots: number, priceTicks: number, priceType: PriceType, newClientOrderId: string | undefined): Result<OrderRecord, SimReject> {
    const book = this.s.books.get(order.symbol);
    if (book === undefined) throw new RangeError(`no book for ${order.symbol}`);
    const newOrigLots = order.executedLots + newRemainingLots;
    const position = account.position(order.symbol, order.positionSide);
    const settings = { leverage: order.leverage };
    let newMargin = ZERO;
    if (order.isClose) {
      if (newRemainingLots > position.availableLots + order.remainingLots) return err(reject.closeTooLarge(book.qty.toText(newRemainingLots), book.qty.toText(position.availableLots + order.remainingLots)));
    } else {
      newMargin = openingMargin(book, notionalOf(book, newRemainingLots, priceTicks), settings.leverage);
      const available = accountFigures(this.s, account).available.add(order.marginLocked);
      if (available.lt(newMargin)) return err(reject.insufficientBalance());
    }
    const keepsQueue = priceTicks === order.priceTicks && newRemainingLots <= order.remainingLots;
    book.remove(order);
    if (order.isClose) position.closingLots += newRemainingLots - order.remainingLots;
    order.origLots = newOrigLots;
    order.priceTicks = priceTicks;
    order.priceType = priceType;
    order.marginLocked = newMargin;
    if (newClientOrderId !== undefined) this.s.clientIds.rename(order, newClientOrderId);
    order.updateTime = this.s.time;
    if (keepsQueue) book.rest(order, true);
    else {
      this.emitOrder(order);
      this.applyFills(book.sweep(order, priceTicks, order.remainingLots, true));
      if (order.isOpen) book.rest(order);
      this.emitBalance(account);
      return ok(order);
    }
    this.emitOrder(order);
    this.emitBalance(account);
    return ok(order);
  }

  emitOrder(order: OrderRecord): void {
    this.s.emit(new OrderEvent(this.s.time, orderMoment(this.s, order)));
  }

  emitPosition(account: FuturesAccount, position: PositionRecord): void {
    this.s.emit(new PositionEvent(this.s.time, positionMoment(this.s, account, position)));
  }

  emitBalance(account: FuturesAccount): void {
    this.s.emit(new BalanceEvent(this.s.time, account.userId, account.category, accountFiguresLater(this.s, account)));
  }
}

function hasAnyPosition(account: FuturesAccount, symbol: string): boolean {
  return (account.existingPosition(symbol, 'LONG')?.lots ?? 0) > 0 || (account.existingPosition(symbol, 'SHORT')?.lots ?? 0) > 0;
}

const NO_STOPS: OrderRecord['attached'] = Object.freeze({});

/** The take-profit and stop-loss an order carries to its fills, the shared empty one when it has neither (no spread per order placed). */
function attachedStops(spec: OrderSpec): OrderRecord['attached'] {
  const { takeProfit, stopLoss } = spec;
  if (takeProfit === undefined) return stopLoss === undefined ? NO_STOPS : { stopLoss };
  return stopLoss === undefined ? { takeProfit } : { takeProfit, stopLoss };
}
