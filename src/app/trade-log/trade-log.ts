import type { Observable, Subscription } from 'rxjs';
import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { AccountEventSource } from '../../model/account-events.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { Intent } from '../../model/intents.js';
import type { IntentDenied } from '../../model/kernel-events.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from '../../model/orders.js';
import { TradeDay } from './day.js';
import { TRADE_COMPONENT, tradeLineText } from './line.js';
import type { TradeEvent } from './line.js';

/** How many orders, trades and executed TP/SL orders are remembered to log each event once. */
const MEMORY = 5000;
/** The same denial (strategy, code, symbol) is logged at most once in this much event time; the rest are counted. */
const DENIAL_QUIET_MS = 60_000;

export interface TradeLogOptions {
  /** The daemon's logger: the trade log writes at info (error for a failed strategy, warn for the kill switch). */
  readonly logger: Logger;
  readonly cache: CacheView;
  /** The strategy that placed an order (the executor's journal), by client order id. */
  readonly ownerOf: (clientOrderId: string) => string | undefined;
  readonly symbolsOf: (strategyId: string) => readonly string[];
  /** The kill switch at start (a halt may outlive a restart): only a change is logged. */
  readonly killSwitchEngaged: boolean;
  /** When the trading day began (the daemon's start; then every daily reset). */
  readonly startedAt: number;
}

type Fields = Record<string, string | number | boolean>;

/**
 * The trade log a person reads: one line per order event that matters (placed, filled partly or fully,
 * cancelled, rejected, denied, TP/SL or plan triggered), per strategy start, stop and failure, and per
 * kill-switch change, each with its fields (JSON) and a readable `msg`. Fed by the kernel's bus after
 * the cache applied each event; the same order state or trade arriving twice (stream, then a
 * reconciliation) is logged once. Market data costs one type check per event and nothing more.
 */
export class TradeLog {
  readonly day: TradeDay;
  private readonly log: Logger;
  private readonly orderStates = new BoundedMap<string, string>();
  private readonly algoStates = new BoundedMap<string, string>();
  private readonly trades = new BoundedMap<string, true>();
  private readonly filledByOrder = new BoundedMap<string, Decimal>();
  /** The regular order a triggered TP/SL or plan order became, and the strategy it belongs to. */
  private readonly executedOwners = new BoundedMap<string, string>();
  /** Client order ids submitted by this run and not yet seen on the exchange: their first report is "placed", whatever its state. */
  private readonly submitted = new BoundedMap<string, true>();
  private readonly denials = new Map<string, { at: number; suppressed: number }>();
  private killSwitchEngaged: boolean;

  constructor(private readonly options: TradeLogOptions) {
    this.log = options.logger.child({ component: TRADE_COMPONENT });
    this.killSwitchEngaged = options.killSwitchEngaged;
    this.day = new TradeDay(options.startedAt);
  }

  /** Follows the kernel's events until the subscription ends; a line that cannot be built never breaks the stream. */
  watch(events$: Observable<BusEvent>): Subscription {
    return events$.subscribe((event) => {
      try {
        this.onEvent(event);
      } catch (error: unknown) {
        this.options.logger.error({ err: error instanceof Error ? error.message : String(error), event: event.type }, 'trade log line not built');
      }
    });
  }

  onEvent(event: BusEvent): void {
    switch (event.type) {
      case 'account.order':
        return this.order(event.order, event.source);
      case 'account.fill':
        return this.fill(event.fill);
      case 'account.algo':
        return this.algo(event.order, event.source);
      case 'command.submitted':
        if (event.command.type === 'place-order' || event.command.type === 'place-algo') {
          const id = event.command.clientOrderId;
          // The exchange's report may come before the executor's: then the order is known already.
          if (!this.orderStates.has(id) && !this.algoStates.has(id)) this.submitted.set(id, true);
        }
        return;
      case 'command.failed':
        return this.commandFailed(event.strategyId, event.command, `${event.failure.code}: ${event.failure.message}`);
      case 'intent.denied':
        return this.denied(event);
      case 'strategy.started':
        return this.write('info', 'started', { strategy: event.strategyId, symbol: this.options.symbolsOf(event.strategyId).join(',') });
      case 'strategy.stopped':
        return this.write(event.failed ? 'error' : 'info', event.failed ? 'failed' : 'stopped', { strategy: event.strategyId, reason: event.reason });
      case 'risk.killSwitch':
        if (event.engaged === this.killSwitchEngaged) return;
        this.killSwitchEngaged = event.engaged;
        return this.write(event.engaged ? 'warn' : 'info', 'killSwitch', { engaged: event.engaged, reason: event.reason, dayPnl: event.dayPnl.toFixed() });
      case 'job.finished':
        if (event.job === 'dailyReset' && event.ok) this.day.reset(event.time);
        return;
      default:
        return;
    }
  }

  private order(o: OrderSnapshot, source: AccountEventSource): void {
    const before = this.orderStates.get(o.clientOrderId);
    if (before === o.status) return;
    this.orderStates.set(o.clientOrderId, o.status);
    const fields = (): Fields => ({ ...this.orderFields(o), orderType: o.type, timeInForce: o.timeInForce });
    // Placed: an order this run submitted, whatever its first state, or one the stream shows open (placed
    // elsewhere, or reported before the executor's event). An order a reconciliation lists was placed before.
    const ours = this.submitted.delete(o.clientOrderId);
    const fresh = before === undefined && (ours || (source === 'stream' && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')));
    if (fresh && o.status !== 'REJECTED') this.write('info', 'placed', fields());
    if (o.status === 'CANCELED' && before !== 'REJECTED') {
      const filled = o.filledQty.isZero() ? {} : { filledQty: this.qty(o.symbol, o.filledQty) };
      this.write('info', 'cancelled', { ...fields(), ...filled });
    } else if (o.status === 'REJECTED' && before !== 'REJECTED') {
      this.write('info', 'rejected', { ...fields(), reason: 'rejected by the exchange' });
    }
  }

  private fill(f: Fill): void {
    const key = `${f.symbol}/${f.tradeId}`;
    if (this.trades.has(key)) return;
    this.trades.set(key, true);
    const strategy = this.strategyOf(f.clientOrderId) ?? this.executedOwners.get(f.orderId) ?? 'external';
    this.day.addFill(strategy, f.realizedPnl, f.fee, f.feeAsset);
    const filled = (this.filledByOrder.get(f.orderId) ?? dec(0)).add(f.qty);
    const ordered = f.clientOrderId === '' ? undefined : this.options.cache.order(f.clientOrderId)?.quantity;
    const partial = ordered !== undefined && filled.lt(ordered);
    if (partial) this.filledByOrder.set(f.orderId, filled);
    else this.filledByOrder.delete(f.orderId);
    this.write('info', 'filled', {
      strategy,
      symbol: f.symbol,
      side: f.side,
      positionSide: f.positionSide,
      qty: this.qty(f.symbol, f.qty),
      price: this.price(f.symbol, f.price),
      fee: f.fee.toFixed(),
      feeAsset: f.feeAsset,
      realizedPnl: f.realizedPnl.toFixed(),
      maker: f.isMaker,
      fillKind: partial ? 'partial' : 'full',
      filledQty: this.qty(f.symbol, filled),
      ...(ordered === undefined ? {} : { orderQty: this.qty(f.symbol, ordered) }),
      orderId: f.orderId,
      ...(f.clientOrderId === '' ? {} : { clientOrderId: f.clientOrderId }),
      tradeId: f.tradeId,
    });
  }

  private algo(a: AlgoOrderSnapshot, source: AccountEventSource): void {
    const before = this.algoStates.get(a.clientOrderId);
    if (before === a.status) return;
    this.algoStates.set(a.clientOrderId, a.status);
    const strategy = this.strategyOf(a.clientOrderId) ?? 'external';
    const fields: Fields = {
      strategy,
      symbol: a.symbol,
      kind: a.kind,
      side: a.side,
      positionSide: a.positionSide,
      qty: this.qty(a.symbol, a.quantity),
      ...(a.price.isZero() ? {} : { price: this.price(a.symbol, a.price) }),
      orderType: a.orderType,
      triggerPrice: this.price(a.symbol, a.triggerPrice),
      orderId: a.orderId,
      clientOrderId: a.clientOrderId,
    };
    const submitted = this.submitted.delete(a.clientOrderId);
    switch (a.status) {
      case 'ORDER_NEW':
        if (before === undefined && (submitted || source === 'stream')) this.write('info', 'placed', fields);
        return;
      case 'ORDER_FILLED':
        if (submitted && before === undefined) this.write('info', 'placed', fields);
        if (a.executedOrderId !== undefined) this.executedOwners.set(a.executedOrderId, strategy);
        return this.write('info', 'triggered', { ...fields, ...(a.executedOrderId === undefined ? {} : { executedOrderId: a.executedOrderId }) });
      case 'ORDER_CANCELED':
        return this.write('info', 'cancelled', fields);
      case 'ORDER_REJECTED':
      case 'ORDER_FAILED':
      case 'ORDER_NOT_EFFECTIVE':
        return this.write('info', 'rejected', { ...fields, reason: a.status });
    }
  }

  private commandFailed(strategy: string, command: ExchangeCommand, reason: string): void {
    const fields: Fields = { strategy, symbol: command.symbol, command: command.type, reason };
    if (command.type === 'place-order' || command.type === 'place-algo') {
      // The exchange's own report of this order, if one comes, adds nothing to this line.
      this.orderStates.set(command.clientOrderId, 'REJECTED');
      this.algoStates.set(command.clientOrderId, 'ORDER_REJECTED');
      this.submitted.delete(command.clientOrderId);
      Object.assign(fields, {
        side: command.side,
        positionSide: command.positionSide,
        qty: this.qty(command.symbol, command.quantity),
        orderType: command.orderType,
        ...(command.price === undefined ? {} : { price: this.price(command.symbol, command.price) }),
        clientOrderId: command.clientOrderId,
      });
    } else if ('clientOrderId' in command) {
      fields['clientOrderId'] = command.clientOrderId;
    }
    this.write('info', 'rejected', fields);
  }

  /** Risk denials: a strategy asking again and again (every tick) gets one line a minute per reason, with the count of the others. */
  private denied(event: IntentDenied): void {
    const symbol = intentSymbol(event.intent, this.options.cache);
    const key = `${event.strategyId}/${event.denial.code}/${symbol}`;
    const last = this.denials.get(key);
    if (last !== undefined && event.time - last.at < DENIAL_QUIET_MS) {
      last.suppressed += 1;
      return;
    }
    this.denials.set(key, { at: event.time, suppressed: 0 });
    this.write('info', 'denied', {
      strategy: event.strategyId,
      symbol,
      intent: event.intent.type,
      code: event.denial.code,
      reason: `${event.denial.code}: ${event.denial.message}`,
      ...(last === undefined || last.suppressed === 0 ? {} : { suppressed: last.suppressed }),
    });
  }

  private orderFields(o: OrderSnapshot): Fields {
    return {
      strategy: this.strategyOf(o.clientOrderId) ?? 'external',
      symbol: o.symbol,
      side: o.side,
      positionSide: o.positionSide,
      qty: this.qty(o.symbol, o.quantity),
      // A market order shows no price (the exchange's 0); its fills say what it paid.
      ...(o.price.isZero() ? {} : { price: this.price(o.symbol, o.price) }),
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
    };
  }

  private strategyOf(clientOrderId: string): string | undefined {
    return clientOrderId === '' ? undefined : this.options.ownerOf(clientOrderId);
  }

  /** Decimal text at the instrument's tick (as the exchange writes prices), or as it is. */
  private price(symbol: string, value: Decimal): string {
    const tick = this.options.cache.instrument(symbol)?.tickSize;
    return tick === undefined || value.decimalPlaces() > tick.decimalPlaces() ? value.toFixed() : value.toFixed(tick.decimalPlaces());
  }

  private qty(symbol: string, value: Decimal): string {
    const step = this.options.cache.instrument(symbol)?.qtyStep;
    return step === undefined || value.decimalPlaces() > step.decimalPlaces() ? value.toFixed() : value.toFixed(step.decimalPlaces());
  }

  private write(level: 'info' | 'warn' | 'error', event: TradeEvent, fields: Fields): void {
    const line = { event, ...fields };
    this.log[level](line, tradeLineText(line));
  }
}

/** The symbol an intent concerns: named in it, or that of the order it names. */
function intentSymbol(intent: Intent, cache: CacheView): string {
  if ('symbol' in intent) return intent.symbol;
  return cache.order(intent.clientOrderId)?.symbol ?? cache.algoOrder(intent.clientOrderId)?.symbol ?? '';
}

/** A Map that forgets its oldest entries beyond MEMORY. */
class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > MEMORY) {
      const oldest = this.map.keys().next();
      if (oldest.done !== true) this.map.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }
}
