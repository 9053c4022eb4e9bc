import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import { interval } from 'rxjs';
import type { Clock } from '../../../core/clock.js';
import type { Decimal } from '../../../core/decimal.js';
import { decText } from '../../../core/decimal.js';
import type { Balance } from '../../../model/account.js';
import type { BusEvent } from '../../../model/bus-events.js';
import type { Fill } from '../../../model/orders.js';

/** One line of the dashboard's feed: a fill or a denied intent. */
export type FeedItem =
  | {
      readonly kind: 'fill';
      readonly time: number;
      readonly strategy: string;
      readonly symbol: string;
      readonly side: string;
      readonly price: string;
      readonly qty: string;
      readonly realizedPnl: string;
      readonly fee: string;
      readonly maker: boolean;
    }
  | { readonly kind: 'denial'; readonly time: number; readonly strategy: string; readonly symbol: string; readonly code: string; readonly message: string };

export type FillItem = Extract<FeedItem, { kind: 'fill' }>;

/** A point of the day's equity curve: wallet balance plus unrealized PnL of one margin asset. */
export interface EquityPoint {
  readonly time: number;
  readonly value: string;
}

export interface DashboardHistoryOptions {
  readonly events$: Observable<BusEvent>;
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  /** Who placed an order (the executor's journal); undefined: not one of ours. */
  readonly ownerOf: (clientOrderId: string) => string | undefined;
  /** The account's balances now (the kernel's cache). */
  readonly balances: () => readonly Balance[];
  /** How often the equity curve takes a point; default 10 s (8,640 points a day). */
  readonly equityEveryMs?: number;
  /** Feed lines kept; default 100. */
  readonly feedSize?: number;
  /** Fills kept per symbol for the chart markers; default 500. */
  readonly fillsPerSymbol?: number;
}

const DAY_MS = 86_400_000;
/** Trade ids remembered to drop a fill the stream and a REST resync both report. */
const SEEN_TRADES = 4096;

/**
 * What the dashboard shows that no other part of the daemon keeps: the latest fills and denials, the
 * fills per symbol (chart markers) and today's equity curve (UTC day), taken from the event bus and a
 * timer on the injected scheduler. Everything is bounded.
 */
export class DashboardHistory {
  private readonly feedItems: FeedItem[] = [];
  private readonly fillsBySymbol = new Map<string, FillItem[]>();
  private readonly seen = new Set<string>();
  private readonly equity: EquityPoint[] = [];
  private readonly subscriptions: Subscription[] = [];
  private readonly feedSize: number;
  private readonly fillsPerSymbol: number;
  private readonly equityEveryMs: number;
  private equityAsset: string | undefined;

  constructor(private readonly options: DashboardHistoryOptions) {
    this.feedSize = options.feedSize ?? 100;
    this.fillsPerSymbol = options.fillsPerSymbol ?? 500;
    this.equityEveryMs = options.equityEveryMs ?? 10_000;
  }

  start(): void {
    this.subscriptions.push(this.options.events$.subscribe((event) => this.onEvent(event)));
    this.sampleEquity();
    this.subscriptions.push(interval(this.equityEveryMs, this.options.scheduler).subscribe(() => this.sampleEquity()));
  }

  stop(): void {
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }

  /** Newest first. */
  feed(limit: number): readonly FeedItem[] {
    return this.feedItems.slice(-limit).reverse();
  }

  fills(symbol: string): readonly FillItem[] {
    return this.fillsBySymbol.get(symbol) ?? [];
  }

  /** Today's curve (oldest first), the current value last; undefined asset before any balance is known. */
  equityCurve(): { readonly asset: string | undefined; readonly points: readonly EquityPoint[] } {
    const now = this.currentEquity();
    return { asset: this.equityAsset, points: now === undefined ? [...this.equity] : [...this.equity, now] };
  }

  /** The current point alone (live updates). */
  currentEquity(): EquityPoint | undefined {
    const value = this.equityValue();
    return value === undefined ? undefined : { time: this.options.clock.now(), value: decText(value) };
  }

  onEvent(event: BusEvent): void {
    if (event.type === 'account.fill') this.addFill(event.fill);
    else if (event.type === 'intent.denied') {
      const { intent } = event;
      this.push({ kind: 'denial', time: event.time, strategy: event.strategyId, symbol: 'symbol' in intent ? intent.symbol : '', code: event.denial.code, message: event.denial.message });
    }
  }

  private addFill(fill: Fill): void {
    const key = `${fill.symbol}/${fill.tradeId}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.seen.size > SEEN_TRADES) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    const item: FillItem = {
      kind: 'fill',
      time: fill.time,
      strategy: (fill.clientOrderId === '' ? undefined : this.options.ownerOf(fill.clientOrderId)) ?? 'external',
      symbol: fill.symbol,
      side: fill.side,
      price: decText(fill.price),
      qty: decText(fill.qty),
      realizedPnl: decText(fill.realizedPnl),
      fee: `${decText(fill.fee)} ${fill.feeAsset}`,
      maker: fill.isMaker,
    };
    this.push(item);
    let list = this.fillsBySymbol.get(fill.symbol);
    if (list === undefined) {
      list = [];
      this.fillsBySymbol.set(fill.symbol, list);
    }
    list.push(item);
    if (list.length > this.fillsPerSymbol) list.splice(0, list.length - this.fillsPerSymbol);
  }

  private push(item: FeedItem): void {
    this.feedItems.push(item);
    if (this.feedItems.length > this.feedSize) this.feedItems.splice(0, this.feedItems.length - this.feedSize);
  }

  private sampleEquity(): void {
    const now = this.options.clock.now();
    const first = this.equity[0];
    if (first !== undefined && Math.floor(first.time / DAY_MS) !== Math.floor(now / DAY_MS)) this.equity.length = 0;
    const point = this.currentEquity();
    if (point !== undefined) this.equity.push(point);
  }

  /** Wallet balance plus unrealized PnL of the margin asset (USDT when held, else the first one). */
  private equityValue(): Decimal | undefined {
    const balances = this.options.balances();
    const balance = balances.find((b) => b.asset === (this.equityAsset ?? 'USDT')) ?? balances[0];
    if (balance === undefined) return undefined;
    this.equityAsset = balance.asset;
    return balance.walletBalance.add(balance.unrealizedPnl);
  }
}
