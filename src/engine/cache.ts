import type { Decimal } from '../core/decimal.js';
import { assertNever } from '../core/errors.js';
import type { Balance, Position } from '../model/account.js';
import { positionKey } from '../model/account.js';
import type { AccountEvent } from '../model/account-events.js';
import type { BusEvent } from '../model/bus-events.js';
import type { CacheView } from '../model/cache-view.js';
import type { Instrument, PositionSide } from '../model/instrument.js';
import type { BookSnapshot, KlineInterval, KlineUpdated, MarketEvent } from '../model/market-events.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../model/orders.js';
import { isOpenAlgoStatus, isOpenStatus, supersedes } from '../model/orders.js';
import { RecentKeys } from './recent-keys.js';
import { SymbolMarket } from './symbol-market.js';
import type { TableSize } from '../core/table-size.js';

export interface CacheOptions {
  /** Closed klines kept per symbol and interval. */
  readonly klineHistory?: number;
  /** Terminal orders (and plan orders) kept for lookups by client order id before they are purged. */
  readonly closedOrderHistory?: number;
  /**
   * How long (exchange time, from the newest terminal order) a terminal order is kept; default 15 minutes,
   * far longer than any stale event of it can arrive late (a reconciliation's reply racing its last event).
   */
  readonly closedOrderMaxAgeMs?: number;
  /** Fill trade ids remembered per symbol to drop duplicates (stream + REST resync). */
  readonly fillMemory?: number;
  /**
   * How long (fill time, from the symbol's newest fill) a fill's id is remembered; default one hour. The
   * REST resync asks for a symbol's fills from its newest one seen, so only recent fills ever come twice.
   */
  readonly fillMemoryMaxAgeMs?: number;
}


/** Funding payments remembered (a few a day per symbol) and for how long: longer than a resync looks back (a day). */
const FUNDING_MEMORY = 10_000;
const FUNDING_MEMORY_MS = 2 * 86_400_000;
/**
 * The single read model: instruments, balances, positions, orders, plan/TP-SL orders and market state.
 * `apply` answers whether an event changed anything: stale order events (older exchange time, less
 * progress) and repeated fills answer false and are not passed on to strategies.
 */
export class Cache implements CacheView {
  private readonly instrumentsBySymbol = new Map<string, Instrument>();
  private readonly balancesByAsset = new Map<string, Balance>();
  private readonly positionsByKey = new Map<string, Position>();
  private readonly ordersById = new Map<string, OrderSnapshot>();
  private readonly openOrderIds = new Set<string>();
  private readonly clientIdByOrderId = new Map<string, string>();
  private readonly closedOrders: RecentKeys;
  private readonly algoById = new Map<string, AlgoOrderSnapshot>();
  /** Client order ids of the open plan/TP-SL orders, in `algoById`'s order: listing them reads none of the retained closed rows. */
  private readonly openAlgoIds = new Set<string>();
  private readonly closedAlgos: RecentKeys;
  /** Fill trade ids per symbol. */
  private readonly fillIds = new Map<string, RecentKeys>();
  /** Funding flow ids already passed on: resyncs list the last day's payments each time. */
  private readonly fundingIds = new RecentKeys(FUNDING_MEMORY);
  private readonly fillMemory: number;
  /** `retire`'s readers and forgetters, made once (two closures per finished order were made before). */
  private readonly orderClosedAt = (id: string): number | undefined => this.ordersById.get(id)?.updateTime;
  private readonly forgetOrderOf = (id: string): void => this.forgetOrder(id);
  private readonly algoClosedAt = (id: string): number | undefined => this.algoById.get(id)?.updateTime;
  private readonly forgetAlgoOf = (id: string): void => this.forgetAlgo(id);
  private readonly markets = new Map<string, SymbolMarket>();
  private readonly klineHistory: number;
  private readonly closedMaxAgeMs: number;
  private readonly fillMaxAgeMs: number;

  constructor(options: CacheOptions = {}) {
    this.klineHistory = options.klineHistory ?? 500;
    this.closedMaxAgeMs = options.closedOrderMaxAgeMs ?? 900_000;
    this.fillMaxAgeMs = options.fillMemoryMaxAgeMs ?? 3_600_000;
    this.closedOrders = new RecentKeys(options.closedOrderHistory ?? 5000);
    this.closedAlgos = new RecentKeys(options.closedOrderHistory ?? 5000);
    this.fillMemory = options.fillMemory ?? 20_000;
  }

  apply(event: BusEvent): boolean {
    switch (event.type) {
      case 'market.book':
      case 'market.trade':
      case 'market.kline':
      case 'market.bookTicker':
      case 'market.ticker24h':
      case 'market.markPrice':
      case 'market.indexPrice':
      case 'market.fundingRate':
      case 'market.openInterest':
        return this.applyMarket(event);
      case 'account.order':
      case 'account.algo':
      case 'account.fill':
      case 'account.position':
      case 'account.balance':
      case 'account.funding':
        return this.applyAccount(event);
      case 'instruments.loaded':
        for (const instrument of event.instruments) this.instrumentsBySymbol.set(instrument.symbol, instrument);
        return true;
      case 'instrument.status': {
        const current = this.instrumentsBySymbol.get(event.symbol);
        if (current !== undefined) this.instrumentsBySymbol.set(event.symbol, { ...current, status: event.to });
        return true;
      }
      case 'stream.connected':
      case 'stream.disconnected':
      case 'account.resynced':
      case 'intent.denied':
      case 'command.submitted':
      case 'command.failed':
      case 'risk.killSwitch':
      case 'risk.protection':
      case 'strategy.started':
      case 'strategy.stopped':
      case 'timer':
      case 'job.finished':
      case 'bus.dropped':
      case 'catalog.changed':
      case 'catalog.synced':
      case 'signal.received':
      case 'ledger.positionLost':
      case 'ledger.claimed':
        return true;
      default:
        return assertNever(event, 'bus event');
    }
  }

  private applyMarket(event: MarketEvent): boolean {
    let market = this.markets.get(event.symbol);
    if (market === undefined) {
      market = new SymbolMarket(this.klineHistory);
      this.markets.set(event.symbol, market);
    }
    return market.apply(event);
  }

  private applyAccount(event: AccountEvent): boolean {
    switch (event.type) {
      case 'account.order':
        return this.applyOrder(event.order);
      case 'account.algo':
        return this.applyAlgo(event.order);
      case 'account.fill': {
        // Per symbol: the REST resync asks each symbol's fills from its newest one, which is never forgotten.
        let ids = this.fillIds.get(event.fill.symbol);
        if (ids === undefined) {
          ids = new RecentKeys(this.fillMemory);
          this.fillIds.set(event.fill.symbol, ids);
        }
        if (!ids.add(event.fill.tradeId, event.fill.time)) return false;
        ids.forgetBefore(event.fill.time - this.fillMaxAgeMs);
        return true;
      }
      case 'account.position': {
        const key = positionKey(event.position.symbol, event.position.positionSide);
        const current = this.positionsByKey.get(key);
        if (current !== undefined && current.updateTime > event.position.updateTime) return false;
        if (event.position.qty.isZero()) this.positionsByKey.delete(key);
        else this.positionsByKey.set(key, event.position);
        return true;
      }
      case 'account.balance': {
        const current = this.balancesByAsset.get(event.balance.asset);
        if (current !== undefined && current.updateTime > event.balance.updateTime) return false;
        this.balancesByAsset.set(event.balance.asset, event.balance);
        return true;
      }
      case 'account.funding':
        // Once per payment: a resync lists the day's payments again.
        if (!this.fundingIds.add(event.funding.flowId, event.funding.time)) return false;
        this.fundingIds.forgetBefore(event.funding.time - FUNDING_MEMORY_MS);
        return true;
      default:
        return assertNever(event, 'account event');
    }
  }

  private applyOrder(order: OrderSnapshot): boolean {
    const current = this.ordersById.get(order.clientOrderId);
    if (current !== undefined && !supersedes(current, order)) return false;
    this.ordersById.set(order.clientOrderId, order);
    // Set with the order's first snapshot (and when its exchange id changes): while the cache holds an
    // order, its id maps to it (both are forgotten together), and a lookup of a fresh id text costs its hash.
    if (current === undefined || current.orderId !== order.orderId) this.clientIdByOrderId.set(order.orderId, order.clientOrderId);
    if (isOpenStatus(order.status)) {
      this.openOrderIds.add(order.clientOrderId);
    } else {
      this.openOrderIds.delete(order.clientOrderId);
      this.retire(this.closedOrders, order.clientOrderId, order.updateTime, this.orderClosedAt, this.forgetOrderOf);
    }
    return true;
  }

  /**
   * Remembers a terminal order among the closed ones, then forgets the closed ones beyond the count bound
   * and, by age, those closed more than the retention before this one (`closedAt`: a kept one's time).
   */
  private retire(closed: RecentKeys, id: string, time: number, closedAt: (id: string) => number | undefined, forget: (id: string) => void): void {
    const evicted = closed.push(id);
    if (evicted !== undefined) forget(evicted);
    const cutoff = time - this.closedMaxAgeMs;
    for (let oldest = closed.oldest(); oldest !== undefined && oldest !== id; oldest = closed.oldest()) {
      const at = closedAt(oldest);
      if (at !== undefined && at >= cutoff) break;
      closed.delete(oldest);
      forget(oldest);
    }
  }

  /** Drops a terminal order (not one open again under the same id). */
  private forgetOrder(clientOrderId: string): void {
    if (this.openOrderIds.has(clientOrderId)) return;
    const old = this.ordersById.get(clientOrderId);
    if (old !== undefined) this.clientIdByOrderId.delete(old.orderId);
    this.ordersById.delete(clientOrderId);
  }

  private applyAlgo(order: AlgoOrderSnapshot): boolean {
    const current = this.algoById.get(order.clientOrderId);
    if (current !== undefined && (!isOpenAlgoStatus(current.status) || current.updateTime > order.updateTime)) return false;
    this.algoById.set(order.clientOrderId, order);
    if (isOpenAlgoStatus(order.status)) {
      this.openAlgoIds.add(order.clientOrderId);
    } else {
      this.openAlgoIds.delete(order.clientOrderId);
      this.retire(this.closedAlgos, order.clientOrderId, order.updateTime, this.algoClosedAt, this.forgetAlgoOf);
    }
    return true;
  }

  private forgetAlgo(clientOrderId: string): void {
    const old = this.algoById.get(clientOrderId);
    if (old !== undefined && !isOpenAlgoStatus(old.status)) this.algoById.delete(clientOrderId);
  }

  /** Sizes of the tables that grow with trading (metrics), with the count bound of each purge policy. */
  sizes(): readonly TableSize[] {
    const open = this.openOrderIds.size;
    let klines = 0;
    let series = 0;
    for (const market of this.markets.values()) {
      const count = market.klineCount();
      klines += count.klines;
      series += count.series;
    }
    return [
      { name: 'cache.orders', size: this.ordersById.size, limit: this.closedOrders.limit + open },
      { name: 'cache.orderIds', size: this.clientIdByOrderId.size, limit: this.closedOrders.limit + open },
      { name: 'cache.closedOrders', size: this.closedOrders.size, limit: this.closedOrders.limit },
      { name: 'cache.algoOrders', size: this.algoById.size, limit: this.closedAlgos.limit + (this.algoById.size - this.closedAlgos.size) },
      { name: 'cache.fillIds', size: [...this.fillIds.values()].reduce((n, ids) => n + ids.size, 0), limit: this.fillMemory * Math.max(1, this.fillIds.size) },
      { name: 'cache.klines', size: klines, limit: this.klineHistory * Math.max(1, series) },
    ];
  }

  /** The client order id of an exchange order id the cache has seen. */
  clientOrderIdOf(orderId: string): string | undefined {
    return this.clientIdByOrderId.get(orderId);
  }

  instrument(symbol: string): Instrument | undefined {
    return this.instrumentsBySymbol.get(symbol);
  }
  instruments(): readonly Instrument[] {
    return [...this.instrumentsBySymbol.values()];
  }
  balance(asset: string): Balance | undefined {
    return this.balancesByAsset.get(asset);
  }
  balances(): readonly Balance[] {
    return [...this.balancesByAsset.values()];
  }
  position(symbol: string, positionSide: PositionSide): Position | undefined {
    return this.positionsByKey.get(positionKey(symbol, positionSide));
  }
  positions(): readonly Position[] {
    return [...this.positionsByKey.values()];
  }
  order(clientOrderId: string): OrderSnapshot | undefined {
    return this.ordersById.get(clientOrderId);
  }
  openOrders(symbol?: string): readonly OrderSnapshot[] {
    const out: OrderSnapshot[] = [];
    for (const id of this.openOrderIds) {
      const order = this.ordersById.get(id);
      if (order !== undefined && (symbol === undefined || order.symbol === symbol)) out.push(order);
    }
    return out;
  }
  openOrderCount(symbol?: string): number {
    return openCount(this.openOrderIds, this.ordersById, symbol);
  }
  algoOrder(clientOrderId: string): AlgoOrderSnapshot | undefined {
    return this.algoById.get(clientOrderId);
  }
  openAlgoOrders(symbol?: string): readonly AlgoOrderSnapshot[] {
    const out: AlgoOrderSnapshot[] = [];
    for (const id of this.openAlgoIds) {
      const order = this.algoById.get(id);
      if (order !== undefined && (symbol === undefined || order.symbol === symbol)) out.push(order);
    }
    return out;
  }
  openAlgoOrderCount(symbol?: string): number {
    return openCount(this.openAlgoIds, this.algoById, symbol);
  }
  book(symbol: string): BookSnapshot | undefined {
    return this.markets.get(symbol)?.book;
  }
  bestBid(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.bestBid();
  }
  bestAsk(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.bestAsk();
  }
  midPrice(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.midPrice();
  }
  lastPrice(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.lastPrice;
  }
  markPrice(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.markPrice;
  }
  indexPrice(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.indexPrice;
  }
  fundingRate(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.fundingRate;
  }
  openInterest(symbol: string): Decimal | undefined {
    return this.markets.get(symbol)?.openInterest;
  }
  klines(symbol: string, interval: KlineInterval): readonly KlineUpdated[] {
    return this.markets.get(symbol)?.klines(interval) ?? [];
  }
  lastMarketTime(symbol: string): number | undefined {
    return this.markets.get(symbol)?.lastTime;
  }
}

/** How many of `open` are known orders (of `symbol`, when given): the length of the list `openOrders` would make. */
function openCount(open: ReadonlySet<string>, byId: ReadonlyMap<string, { readonly symbol: string }>, symbol: string | undefined): number {
  let count = 0;
  for (const id of open) {
    const order = byId.get(id);
    if (order !== undefined && (symbol === undefined || order.symbol === symbol)) count += 1;
  }
  return count;
}
