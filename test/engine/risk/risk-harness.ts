import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { Cache } from '../../../src/engine/cache.js';
import type { StrategyRisk } from '../../../src/engine/risk/risk-engine.js';
import { RiskEngine } from '../../../src/engine/risk/risk-engine.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { ExchangeCommand } from '../../../src/model/commands.js';
import type { Instrument, PositionSide, Side } from '../../../src/model/instrument.js';
import type { Intent } from '../../../src/model/intents.js';
import type { AlgoKind, AlgoStatus, OrderStatus } from '../../../src/model/orders.js';
import type { GlobalRiskLimits, RiskLimits } from '../../../src/model/risk-limits.js';

/** BTC: tick 0.1, 1 contract = 0.001 BTC; at mark 100000 one contract is worth 100 USDT. */
export function btc(overrides: Partial<Instrument> = {}): Instrument {
  return {
    symbol: 'BTC-SWAP-USDT',
    category: 'USDT',
    status: 'TRADING',
    baseAsset: 'BTC',
    marginAsset: 'USDT',
    contractMultiplier: dec('0.001'),
    tickSize: dec('0.1'),
    minPrice: dec('0.1'),
    maxPrice: dec('1000000'),
    qtyStep: dec('1'),
    minQty: dec('1'),
    maxQty: dec('10000'),
    minNotional: dec('5'),
    maxNotional: dec('500000'),
    limitBand: { buyUpRate: dec('0.1'), sellDownRate: dec('0.1') },
    marketBand: { buyUpRate: dec('0.1'), sellDownRate: dec('0.1') },
    maxOpenOrders: 200,
    maxOpenAlgoOrders: 10,
    maxLeverage: dec('100'),
    ...overrides,
  };
}

/** ETH: tick 0.01, 1 contract = 0.01 ETH; at mark 3000 one contract is worth 30 USDT. */
export function eth(overrides: Partial<Instrument> = {}): Instrument {
  return btc({ symbol: 'ETH-SWAP-USDT', baseAsset: 'ETH', contractMultiplier: dec('0.01'), tickSize: dec('0.01'), ...overrides });
}

export const BTC = 'BTC-SWAP-USDT';
export const ETH = 'ETH-SWAP-USDT';

export interface HarnessOptions {
  readonly global?: GlobalRiskLimits;
  readonly strategies?: Readonly<Record<string, { readonly symbols?: readonly string[]; readonly limits?: RiskLimits }>>;
  readonly instruments?: readonly Instrument[];
  /** Mark prices to start from (default BTC 100000, ETH 3000); `{}` for none. */
  readonly marks?: Readonly<Record<string, string>>;
  /** USDT wallet balance (default 10000); null for no balance known. */
  readonly wallet?: string | null;
}

interface OrderSpec {
  readonly symbol?: string;
  readonly side: Side;
  readonly positionSide?: PositionSide;
  readonly type?: 'LIMIT' | 'MARKET';
  readonly price?: string;
  readonly quantity: string;
  readonly filledQty?: string;
  readonly status?: OrderStatus;
}

interface AlgoSpec {
  readonly symbol?: string;
  readonly kind?: AlgoKind;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly orderType?: 'LIMIT' | 'MARKET';
  readonly triggerPrice: string;
  readonly price?: string;
  readonly quantity: string;
  readonly status?: AlgoStatus;
}

/**
 * A risk engine over the real kernel cache, fed with model events, and the executor's side of the deal
 * (who owns which open order, deterministic client order ids) kept in plain maps.
 */
export class RiskHarness {
  readonly clock = new VirtualClock();
  readonly cache = new Cache();
  readonly engine: RiskEngine;
  private readonly owned = new Map<string, Set<string>>();
  private readonly submitted = new Map<string, ExchangeCommand>();
  private sequence = 0;
  private exchangeIds = 0;

  constructor(options: HarnessOptions = {}) {
    const strategies = new Map<string, StrategyRisk>();
    const configured = options.strategies ?? { s1: {}, s2: {} };
    for (const [id, s] of Object.entries(configured)) {
      strategies.set(id, { symbols: s.symbols ?? [BTC, ETH], limits: s.limits ?? {} });
      this.owned.set(id, new Set());
    }
    this.apply({ type: 'instruments.loaded', time: this.clock.now(), instruments: options.instruments ?? [btc(), eth()] });
    for (const [symbol, price] of Object.entries(options.marks ?? { [BTC]: '100000', [ETH]: '3000' })) this.apply(this.markEvent(symbol, price));
    if (options.wallet !== null) this.balance(options.wallet ?? '10000');
    this.engine = new RiskEngine({
      cache: this.cache,
      clock: this.clock,
      global: options.global ?? {},
      strategies,
      orders: {
        openOrdersOf: (id) => [...(this.owned.get(id) ?? [])],
        openOrdersOfAll: (ids) => ids.flatMap((id) => [...(this.owned.get(id) ?? [])]),
        liveCount: () => [...this.owned.values()].reduce((n, ids) => n + ids.size, 0),
        ownsOpenOrder: (id, clientOrderId) => this.owned.get(id)?.has(clientOrderId) ?? false,
        clientOrderId: (id, key) => (key !== undefined ? `${id}-${key}` : `${id}-${++this.sequence}`),
        submittedCommand: (clientOrderId) => this.submitted.get(clientOrderId),
        ownerOf: () => undefined,
        journalHealth: { unavailable: undefined },
      },
    });
  }

  apply(...events: BusEvent[]): void {
    for (const event of events) this.cache.apply(event);
  }

  /** Applies to the cache, then lets the engine see the event if the cache took it (the kernel's order). */
  feed(event: BusEvent): ReturnType<RiskEngine['onEvent']> {
    if (!this.cache.apply(event)) return undefined;
    return this.engine.onEvent(event);
  }

  mark(symbol: string, price: string): ReturnType<RiskEngine['onEvent']> {
    return this.feed(this.markEvent(symbol, price));
  }

  private markEvent(symbol: string, price: string): BusEvent {
    return { type: 'market.markPrice', symbol, time: this.clock.now(), price: dec(price) };
  }

  book(symbol: string, bid: string, ask: string): void {
    this.apply({ type: 'market.bookTicker', symbol, time: this.clock.now(), bidPrice: dec(bid), bidQty: dec(10), askPrice: dec(ask), askQty: dec(10) });
  }

  balance(wallet: string, unrealized = '0'): void {
    this.apply({
      type: 'account.balance',
      source: 'rest',
      time: this.clock.now(),
      balance: { asset: 'USDT', walletBalance: dec(wallet), availableBalance: dec(wallet), lockedMargin: dec(0), unrealizedPnl: dec(unrealized), updateTime: this.clock.now() },
    });
  }

  position(symbol: string, positionSide: PositionSide, qty: string, avgPrice: string, unrealized = '0'): ReturnType<RiskEngine['onEvent']> {
    return this.feed({
      type: 'account.position',
      source: 'stream',
      time: this.clock.now(),
      position: {
        symbol,
        positionSide,
        qty: dec(qty),
        avgPrice: dec(avgPrice),
        leverage: dec(10),
        margin: dec(0),
        unrealizedPnl: dec(unrealized),
        realizedPnl: dec(0),
        updateTime: this.clock.now(),
      },
    });
  }

  fill(symbol: string, tradeId: string, realizedPnl: string, fee: string, time = this.clock.now()): ReturnType<RiskEngine['onEvent']> {
    return this.feed({
      type: 'account.fill',
      source: 'stream',
      time,
      fill: {
        symbol,
        tradeId,
        orderId: 'x',
        clientOrderId: '',
        side: 'SELL',
        positionSide: 'LONG',
        price: dec(1),
        qty: dec(1),
        fee: dec(fee),
        feeAsset: 'USDT',
        isMaker: false,
        realizedPnl: dec(realizedPnl),
        time,
      },
    });
  }

  /** An open regular order in the cache, owned by `owner` (undefined: nobody's, e.g. placed by hand). */
  order(owner: string | undefined, clientOrderId: string, spec: OrderSpec): void {
    const side = spec.side;
    this.apply({
      type: 'account.order',
      source: 'stream',
      time: this.clock.now(),
      order: {
        symbol: spec.symbol ?? BTC,
        orderId: String(++this.exchangeIds),
        clientOrderId,
        side,
        positionSide: spec.positionSide ?? (side === 'BUY' ? 'LONG' : 'SHORT'),
        type: spec.type ?? 'LIMIT',
        timeInForce: 'GTC',
        price: dec(spec.price ?? '0'),
        quantity: dec(spec.quantity),
        filledQty: dec(spec.filledQty ?? '0'),
        avgPrice: dec(0),
        status: spec.status ?? 'NEW',
        updateTime: this.clock.now(),
      },
    });
    if (owner !== undefined && (spec.status === undefined || spec.status === 'NEW' || spec.status === 'PARTIALLY_FILLED')) this.owned.get(owner)?.add(clientOrderId);
  }

  algo(owner: string | undefined, clientOrderId: string, spec: AlgoSpec): void {
    this.apply({
      type: 'account.algo',
      source: 'stream',
      time: this.clock.now(),
      order: {
        symbol: spec.symbol ?? BTC,
        orderId: String(++this.exchangeIds),
        clientOrderId,
        kind: spec.kind ?? 'PLAN',
        side: spec.side,
        positionSide: spec.positionSide,
        orderType: spec.orderType ?? 'MARKET',
        triggerPrice: dec(spec.triggerPrice),
        triggerBy: 'CONTRACT_PRICE',
        price: dec(spec.price ?? '0'),
        quantity: dec(spec.quantity),
        status: spec.status ?? 'ORDER_NEW',
        updateTime: this.clock.now(),
      },
    });
    if (owner !== undefined && (spec.status ?? 'ORDER_NEW') === 'ORDER_NEW') this.owned.get(owner)?.add(clientOrderId);
  }

  /** An id the executor has for the strategy but the cache has not seen yet (submitted, not acknowledged), with its command when given. */
  pending(owner: string, clientOrderId: string, command?: ExchangeCommand): void {
    this.owned.get(owner)?.add(clientOrderId);
    if (command !== undefined) this.submitted.set(clientOrderId, command);
  }

  check(strategyId: string, intent: Intent): ReturnType<RiskEngine['check']> {
    return this.engine.check(strategyId, intent);
  }

  /** The approved commands (fails the test with the denial otherwise). */
  approve(strategyId: string, intent: Intent): readonly ExchangeCommand[] {
    const result = this.engine.check(strategyId, intent);
    if (!result.ok) throw new Error(`denied ${result.error.code}: ${result.error.message}`);
    return result.value;
  }

  /** The denial code (fails the test when approved). */
  denied(strategyId: string, intent: Intent): string {
    const result = this.engine.check(strategyId, intent);
    if (result.ok) throw new Error(`approved: ${JSON.stringify(result.value)}`);
    return result.error.code;
  }
}

export function d(value: string | number): Decimal {
  return dec(value);
}
