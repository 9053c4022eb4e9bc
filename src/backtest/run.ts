import type { Subscription } from 'rxjs';
import type { Decimal } from '../core/decimal.js';
import { dec } from '../core/decimal.js';
import { decimalOfText } from '../core/decimal-cache.js';
import { InvariantError } from '../core/errors.js';
import { silentLogger } from '../core/logger.js';
import { VirtualClock } from '../core/virtual-time.js';
import { Kernel, LEDGER_STORE_ID } from '../engine/kernel.js';
import type { BusEvent } from '../model/bus-events.js';
import type { Category } from '../model/instrument.js';
import { SimExchange } from '../sim/engine/sim-exchange.js';
import type { EquityParts } from '../sim/engine/sim-exchange.js';
import type { BookPrices } from '../sim/engine/symbol-book.js';
import type { AccountEvent as SimAccountEvent } from '../sim/engine/types.js';
import type { MarketEvent as SimMarketEvent } from '../sim/market-stream/events.js';
import type { SimInstrument } from '../sim/market-stream/instruments.js';
import type { MarketStreamWarning } from '../sim/market-stream/stream-error.js';
import type { LatencyModel } from '../sim/port/port-latency.js';
import { SimExchangePort } from '../sim/port/exchange-port.js';
import { modelMarketEvent } from '../sim/port/market-events.js';
import { KlineBuilder } from './kline-builder.js';
import { BarFeed, barModelNote, DEFAULT_BAR_MODEL, hasBars } from './bar-fill-model.js';
import { algoSnapshotOf, fillOf, orderSnapshotOfEvent } from '../sim/port/snapshots.js';
import { MemoryJournal } from '../store/memory-journal.js';
import { MemoryKeyValueStores } from '../store/memory-kv.js';
import { UnreadStateStore } from '../store/unread-state-kv.js';
import { BacktestError } from '../recording/error.js';
import type { BacktestOptions, BacktestResult, FillRecord, ObservedMarketEvent } from './types.js';
import { EquityCurve } from './equity-curve.js';
import type { EquitySample } from './equity-curve.js';
import { fillSequenceHash } from './fill-hash.js';
import { FundingWatch } from './funding-watch.js';
import { FundingCoverage } from './funding/funding-coverage.js';
import { HandlerTracker } from './handler-tracker.js';
import { BacktestWork } from './backtest-work.js';
import { OrderLog } from './order-log.js';
import { PnlLedger } from './pnl-ledger.js';
import type { RecordingFeed } from '../recording/feed.js';
import type { BacktestSummary, OwnerFigures } from './summary.js';
import { ANNUALIZATION, money, ownerFigures } from './summary.js';
import { UncountedKernelMetrics } from './uncounted-metrics.js';
import { macrotask, VirtualDriver } from './virtual-driver.js';

export const DEFAULT_BACKTEST_LATENCY: LatencyModel = { orderLatencyMs: 50, ackLatencyMs: 50 };
export const DEFAULT_EQUITY_INTERVAL_MS = 60_000;
export const PROGRESS_EVERY_EVENTS = 50_000;

const DAY_MS = 86_400_000;
const CATEGORIES: readonly Category[] = ['USDT', 'USDC'];

/**
 * One backtest: a virtual clock, the simulator's engine fed by the recordings, the in-process port with
 * its latency model, and the kernel of `stratd run` (strategies, risk engine, executor, cache, an
 * in-memory journal). The engine's market events reach the kernel at their own time; account events
 * through the port, after the ack latency; commands reach the engine after the order latency.
 */
export class BacktestRun {
  private readonly clock: VirtualClock;
  private readonly engine: SimExchange;
  private readonly port: SimExchangePort;
  private readonly kernel: Kernel;
  private readonly driver: VirtualDriver;
  private readonly strategyIds: readonly string[];
  private readonly instruments: ReadonlyMap<string, SimInstrument>;
  private readonly ledger: PnlLedger;
  private readonly funding: FundingWatch;
  private readonly fundingCoverage: FundingCoverage;
  private readonly orders = new OrderLog();
  private readonly fills: FillRecord[] = [];
  private readonly equity: EquityCurve;
  private readonly intervalMs: number;
  private readonly latency: LatencyModel;
  private readonly denied = new Map<string, number>();
  private readonly rejected = new Map<string, number>();
  /** Latest warm-up event per kind and symbol, handed to the kernel before it starts. */
  private readonly warmed = new Map<string, SimMarketEvent>();
  private readonly klines: KlineBuilder;
  private warming = true;
  /** The recordings hold bars: klines are built from them, not from the (synthetic or sparse) trades. */
  private readonly bars: boolean;
  /** `options.onRecordedEvent`, unless the engine replays bars (their path is not the recorded events). */
  private readonly onRecordedEvent: ((event: SimMarketEvent) => void) | undefined;
  private events = 0;
  private lastEventTime: number | undefined;
  /**
   * Its `quiet`: scheduled actions run that leave nothing asynchronous behind (equity samples, the kernel's
   * ticks), less the kernel events that may start asynchronous work (a protection or the kill switch acting,
   * a lost position's orders cancelled): the driver handles an instant of such actions without a turn of
   * the event loop only when its actions all counted here and nothing of the kind happened.
   */
  private readonly work: BacktestWork;
  /** The engine's equity parts at the last sample and their sum. */
  private lastEquity: { readonly parts: readonly EquityParts[]; readonly equity: Decimal } | undefined;

  /**
   * The options the per-event path reads, copied: the caller's object differs in shape from one backtest
   * of a process to the next (a first run without `prepared`, the next with it), and reading through it
   * deoptimized the replay loop in the second backtest ("wrong map").
   */
  private readonly to: number | undefined;
  private readonly replaysView: boolean;
  private readonly userId: string;

  private constructor(
    private readonly options: BacktestOptions,
    private readonly feed: RecordingFeed,
    private readonly startTime: number,
    private readonly warnings: readonly MarketStreamWarning[],
  ) {
    const { account } = options;
    this.to = options.to;
    this.replaysView = options.marketView !== undefined;
    this.userId = account.userId;
    this.clock = new VirtualClock(startTime);
    this.latency = options.latency ?? DEFAULT_BACKTEST_LATENCY;
    // A daemon's view has the klines its poller read: none are built from trades then.
    this.klines = new KlineBuilder(options.marketView === undefined ? (options.klines ?? []) : []);
    this.bars = feed instanceof BarFeed;
    this.onRecordedEvent = this.bars ? undefined : options.onRecordedEvent;
    this.intervalMs = options.equityIntervalMs ?? DEFAULT_EQUITY_INTERVAL_MS;
    this.instruments = new Map(feed.instruments.map((i) => [i.symbol, i]));
    this.strategyIds = options.strategies.map((s) => s.id).sort();
    this.engine = new SimExchange({
      instruments: feed.instruments,
      users: [{ userId: account.userId, email: `${account.userId}@backtest.stratd.local`, balances: { FUTURES: account.futures } }],
      startTime,
      feed,
    });
    // Even without latency a command is a round trip: the market events already arrived are handled first.
    this.port = new SimExchangePort({ engine: this.engine, userId: account.userId, time: this.clock, latency: this.latency, roundTrips: true });
    // A backtest keeps nothing: its journal and the strategies' stores live in memory, no database.
    const stores = new MemoryKeyValueStores();
    // The ledgers write their state after every fill for a restart to read; a backtest never restarts.
    const ledgerState = new UnreadStateStore(LEDGER_STORE_ID);
    const tracker = new HandlerTracker();
    const symbols = [...new Set([...feed.instruments.map((i) => i.symbol), ...options.strategies.flatMap((s) => s.symbols)])];
    this.kernel = new Kernel({
      time: this.clock,
      port: this.port,
      journal: new MemoryJournal(),
      keyValue: (id) => (id === LEDGER_STORE_ID ? ledgerState : stores.keyValue(id)),
      logger: options.logger ?? silentLogger,
      metrics: new UncountedKernelMetrics(),
      globalLimits: options.risk,
      strategies: options.strategies.map((s) => tracker.track(s)),
      symbols,
      orphans: options.orphans ?? 'adopt',
      ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
      ...(options.strategyRecorder === undefined ? {} : { strategyRecorder: options.strategyRecorder }),
    });
    const unlatent = this.latency.orderLatencyMs <= 0 && this.latency.ackLatencyMs <= 0;
    this.work = new BacktestWork(tracker, this.kernel.executor, unlatent);
    this.driver = new VirtualDriver({
      clock: this.clock,
      engine: this.engine,
      feed,
      work: this.work,
      instantReplies: unlatent,
    });
    this.ledger = new PnlLedger(this.strategyIds);
    this.funding = new FundingWatch(this.engine, account.userId, this.ledger);
    this.fundingCoverage = new FundingCoverage(feed.instruments.map((i) => i.symbol));
    this.equity = new EquityCurve(this.intervalMs, () => {
      this.work.quiet++;
      return this.sample();
    });
    this.port.accountEvents$.subscribe((event) => this.kernel.ingest(event));
    this.kernel.onEvent((event) => this.onKernelEvent(event));
    this.engine.onMarketEvent((event, book) => this.onMarketEvent(event, book));
    this.engine.onAccountEvent((event) => this.onAccountEvent(event));
  }

  /** Checks the options against the recordings and positions the feed at the start (warm-up applied). */
  static async prepare(options: BacktestOptions, recorded: RecordingFeed, warnings: readonly MarketStreamWarning[]): Promise<BacktestRun> {
    const { from, to } = options;
    // A downloaded history holds bars: the engine matches on the bar model's path through each of them.
    const feed = hasBars(recorded.headers) ? new BarFeed(recorded, options.barModel ?? DEFAULT_BAR_MODEL) : recorded;
    if (from !== undefined && to !== undefined && to < from) throw new BacktestError('BAD_RANGE', `--to ${to} is before --from ${from}`);
    const listed = new Set(feed.instruments.map((i) => i.symbol));
    for (const strategy of options.strategies) {
      for (const symbol of strategy.symbols) {
        if (!listed.has(symbol)) throw new BacktestError('UNKNOWN_SYMBOL', `strategy ${strategy.id} trades ${symbol}, which no recording contains (they hold ${[...listed].join(', ')})`);
      }
    }
    await feed.load(Number.NEGATIVE_INFINITY);
    const first = feed.peekTime();
    const startTime = from ?? first ?? Math.min(...feed.headers.map((h) => h.header.startTime));
    if (feed instanceof BarFeed) checkBarIntervals(options, feed);
    const run = new BacktestRun(options, feed, startTime, warnings);
    await run.warmUp();
    return run;
  }

  /** Events before `from` move the engine's market only; the kernel gets the latest of each kind at the start. */
  private async warmUp(): Promise<void> {
    for (;;) {
      if (!this.feed.covers(Number.NEGATIVE_INFINITY)) await this.feed.load(Number.NEGATIVE_INFINITY);
      const next = this.feed.peekTime();
      if (next === undefined || next >= this.startTime) break;
      this.engine.applyMarketEvent(this.feed.next());
    }
    this.warming = false;
    if (this.replaysView) return;
    const latest = [...this.warmed.entries()].sort(([a, x], [b, y]) => x.ts - y.ts || (a < b ? -1 : a > b ? 1 : 0));
    for (const [, event] of latest) {
      const model = modelMarketEvent(event);
      if (model !== undefined) this.kernel.ingest(model);
    }
    this.warmed.clear();
  }

  async execute(): Promise<BacktestResult> {
    // Without `to`, the run ends with the last event: nothing scheduled after it runs.
    const limit = (): number => this.to ?? (this.feed.exhausted() ? (this.lastEventTime ?? this.startTime) : Number.POSITIVE_INFINITY);
    this.equity.start(this.clock);
    const daily = this.scheduleDailyReset();
    // Start-up takes port round trips: it may run past `to` (the strategies then see no market at all).
    const started = await this.driver.until(this.kernel.start(), () => Number.POSITIVE_INFINITY);
    if (!started.ok) throw new BacktestError('START_FAILED', `the kernel could not start against the simulated exchange: ${started.error.code} ${started.error.message}`);
    // As in the daemon, the sources' events reach the kernel once it has started.
    const view = this.options.marketView === undefined ? undefined : this.replayView(this.options.marketView);
    let reported = 0;
    for (;;) {
      // Instants of market data alone are handled without a promise each; the others take a `step`.
      const now = this.driver.stepNow(limit);
      if (now === 'waiting') {
        await this.driver.finishInstant();
        const left = this.driver.settleLeft();
        if (left !== undefined) await left;
      } else if (now === 'none' && !(await this.driver.step(limit))) break;
      if (this.events - reported >= PROGRESS_EVERY_EVENTS) {
        reported = this.events;
        this.progress(false);
        await macrotask();
      }
    }
    const endTime = Math.max(this.clock.now(), this.to ?? this.lastEventTime ?? this.startTime);
    this.clock.advanceTo(endTime);
    this.engine.advanceTo(endTime);
    this.equity.stop();
    daily.stop();
    view?.stop();
    await this.driver.until(this.kernel.stop({ cancelOpenOrders: false }), () => Number.POSITIVE_INFINITY);
    this.port.close();
    this.equity.finish(this.clock.now());
    this.progress(true);
    return this.result(endTime);
  }

  private progress(done: boolean): void {
    this.options.onProgress?.({ events: this.events, time: this.clock.now(), startTime: this.startTime, done });
  }

  // ---------------------------------------------------------------- sources

  private onMarketEvent(event: SimMarketEvent, book: BookPrices | undefined): void {
    this.onRecordedEvent?.(event);
    if (event.type === 'funding') {
      this.fundingCoverage.onFunding(event);
      const instrument = this.instruments.get(event.symbol);
      if (instrument !== undefined) this.funding.onFunding(event, instrument.category);
    }
    if (this.warming) {
      if (event.type !== 'bar') this.warmed.set(`${event.type}/${event.symbol}`, event);
      // Warm-up trades (or bars) shape the klines forming at the start; klines closed before it are not replayed.
      if (event.type === 'trade' && !this.bars) {
        this.klines.advance(event.ts);
        this.klines.trade(event, book?.lastTicks, book?.priceDecimals);
      } else if (event.type === 'bar' && event.source === 'contract') {
        this.klines.advance(event.ts);
        this.klines.bar(event);
      }
      return;
    }
    if (event.ts > this.clock.now()) throw new InvariantError('LOOK_AHEAD', `market event of ${event.ts} applied at ${this.clock.now()}`);
    this.events++;
    this.lastEventTime = event.ts;
    if (this.replaysView) return;
    const closed = this.klines.advance(event.ts);
    for (let i = 0; i < closed.length; i++) this.kernel.ingest(closed[i]!);
    if (event.type === 'bar') {
      if (event.source === 'contract') this.klines.bar(event);
      return;
    }
    const model = modelMarketEvent(event, book);
    if (model === undefined) return;
    this.kernel.ingest(model);
    // The engine's ticks of the trade's price (on its symbol's grid): the klines compare prices by them.
    if (event.type === 'trade' && !this.bars) this.klines.trade(event, book?.lastTicks, book?.priceDecimals);
  }

  /** Hands the kernel each event of a daemon's view at its arrival time (those before now at once), in order. */
  private replayView(view: readonly ObservedMarketEvent[]): { stop(): void } {
    let index = 0;
    let timer: Subscription | undefined;
    const deliverDue = (): void => {
      const now = this.clock.now();
      // Each was the reply to a poll, which the simulator answers after pulling its market up to now.
      this.engine.advanceTo(now);
      for (let next = view[index]; next !== undefined && next.at <= now; next = view[++index]) this.kernel.ingest(next.event);
      const next = view[index];
      timer = next === undefined ? undefined : this.clock.schedule(deliverDue, next.at - now);
    };
    deliverDue();
    return { stop: () => timer?.unsubscribe() };
  }

  private onAccountEvent(event: SimAccountEvent): void {
    if (event.userId !== this.userId) return;
    if (event.type === 'trade') {
      const view = event.trade;
      const f = fillOf(view, event.amounts);
      // The record's fields by name: a spread of the fill was most of this listener's time (one per fill).
      const fill: FillRecord = {
        time: f.time,
        strategy: this.ownerOf(view.clientOrderId),
        symbol: f.symbol,
        clientOrderId: f.clientOrderId,
        orderId: f.orderId,
        tradeId: f.tradeId,
        side: f.side,
        positionSide: f.positionSide,
        isClose: view.isClose,
        isMaker: f.isMaker,
        price: f.price,
        qty: f.qty,
        fee: f.fee,
        feeAsset: f.feeAsset,
        realizedPnl: f.realizedPnl,
      };
      this.fills.push(fill);
      this.ledger.onFill(fill, decimalOfText(this.instruments.get(fill.symbol)?.contractMultiplier ?? '1'));
    } else if (event.type === 'order') {
      const order = orderSnapshotOfEvent(event);
      this.orders.onOrder(order, event.time, this.ownerOf(order.clientOrderId));
    } else if (event.type === 'plan') {
      this.orders.onAlgo(algoSnapshotOf(event.plan, event.time), event.time, this.ownerOf(event.plan.clientOrderId));
    }
  }

  private onKernelEvent(event: BusEvent): void {
    if (event.type === 'timer' && event.name === 'tick') this.work.quiet++;
    else if (event.type === 'risk.protection' || event.type === 'risk.killSwitch' || event.type === 'ledger.positionLost') this.work.quiet -= 1;
    if (event.type === 'intent.denied') this.denied.set(event.strategyId, (this.denied.get(event.strategyId) ?? 0) + 1);
    else if (event.type === 'command.failed') this.rejected.set(event.strategyId, (this.rejected.get(event.strategyId) ?? 0) + 1);
  }

  private ownerOf(clientOrderId: string): string {
    return this.kernel.executor.ownerOf(clientOrderId) ?? '';
  }

  /** The daemon's dailyReset job (00:00 UTC): a new PnL day for the kill switch. */
  private scheduleDailyReset(): { stop(): void } {
    let timer: Subscription | undefined;
    const fire = (): void => {
      const now = this.clock.now();
      this.kernel.startNewDay();
      this.kernel.ingest({ type: 'job.finished', time: now, job: 'dailyReset', ok: true, detail: '' });
      timer = this.clock.schedule(fire, DAY_MS - (now % DAY_MS));
    };
    timer = this.clock.schedule(fire, DAY_MS - (this.startTime % DAY_MS));
    return { stop: () => timer?.unsubscribe() };
  }

  // ---------------------------------------------------------------- figures

  private markOf = (symbol: string): Decimal | undefined => {
    const price = this.engine.markPrice(symbol) ?? this.engine.lastPrice(symbol);
    return price === undefined ? undefined : decimalOfText(price);
  };

  private equityParts(): readonly EquityParts[] {
    return CATEGORIES.map((category) => this.engine.equityParts({ userId: this.options.account.userId, category }));
  }

  private accountUnrealized(parts = this.equityParts()): Decimal {
    let total = dec(0);
    for (const part of parts) {
      for (const pnl of part.unrealizedPnl) total = total.add(pnl);
    }
    return total;
  }

  /** The account's equity (every unrealized PnL, then each balance, summed in that order) and each strategy's PnL; the engine asked once per category. */
  private sample(): EquitySample {
    const parts = this.equityParts();
    const equity = this.equityOf(parts);
    const strategyPnl = this.strategyIds.map((id) => this.ledger.book(id)?.pnl(this.markOf) ?? dec(0));
    return { equity, strategyPnl };
  }

  /** Every unrealized PnL, then each balance, summed in that order; the last sum again when the engine answered the same parts (a flat account's until its wallet moves). */
  private equityOf(parts: readonly EquityParts[]): Decimal {
    const last = this.lastEquity;
    if (last !== undefined && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) return last.equity;
    let equity = this.accountUnrealized(parts);
    for (const part of parts) equity = equity.add(part.balance);
    this.lastEquity = { parts, equity };
    return equity;
  }

  private initialEquity(): Decimal {
    return Object.values(this.options.account.futures).reduce<Decimal>((sum, amount) => sum.add(amount ?? '0'), dec(0));
  }

  private result(endTime: number): BacktestResult {
    const initialEquity = this.initialEquity();
    const rows = this.equity.rows;
    const finalTime = this.clock.now();
    const common = { initialEquity, startTime: this.startTime, endTime: finalTime, intervalMs: this.intervalMs };
    const total = ownerFigures({
      ...common,
      book: this.ledger.total,
      orders: this.orders.size,
      denied: sumOf(this.denied),
      rejected: sumOf(this.rejected),
      unrealizedPnl: this.accountUnrealized(),
      curve: rows.map((r) => ({ equity: r.equity, partial: r.partial })),
    });
    const strategies: Record<string, OwnerFigures> = {};
    this.strategyIds.forEach((id, i) => {
      const book = this.ledger.book(id);
      if (book === undefined) return;
      strategies[id] = ownerFigures({
        ...common,
        book,
        orders: this.orders.countBy(id),
        denied: this.denied.get(id) ?? 0,
        rejected: this.rejected.get(id) ?? 0,
        unrealizedPnl: book.unrealizedPnl(this.markOf),
        curve: rows.map((r) => ({ equity: initialEquity.add(r.strategyPnl[i] ?? 0), partial: r.partial })),
      });
    });
    const { account } = this.options;
    const balances: Record<string, string> = {};
    for (const category of CATEGORIES) {
      const amount = account.futures[category];
      if (amount !== undefined) balances[category] = amount;
    }
    const fundingSeries = this.fundingCoverage.figures(new Set(this.fills.filter((f) => !f.isClose).map((f) => f.symbol)), endTime);
    const fundingWarnings = Object.values(fundingSeries).flatMap((f) => (f.warning === undefined ? [] : [f.warning]));
    const summary: BacktestSummary = {
      format: 'stratd-backtest-summary',
      version: 1,
      recordings: this.feed.counts(),
      range: { from: this.startTime, to: endTime, fromIso: new Date(this.startTime).toISOString(), toIso: new Date(endTime).toISOString() },
      latency: { orderLatencyMs: this.latency.orderLatencyMs, ackLatencyMs: this.latency.ackLatencyMs },
      account: { userId: account.userId, balances, initialEquity: money(initialEquity) },
      equityIntervalMs: this.intervalMs,
      annualization: ANNUALIZATION,
      events: this.events,
      fillsSha256: fillSequenceHash(this.fills),
      ...(this.bars ? { fillModel: barModelNote(this.options.barModel ?? DEFAULT_BAR_MODEL) } : {}),
      warnings: [...this.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`), ...fundingWarnings],
      ...(this.options.dataQuality === undefined ? {} : { dataQuality: this.options.dataQuality }),
      fundingSeries,
      total,
      strategies,
    };
    return { summary, fills: this.fills, orders: this.orders.rows(), algoOrders: this.orders.algoRows(), equity: rows, strategyIds: this.strategyIds, warnings: this.warnings };
  }
}

/** Klines are built from whole bars: each series of a bar-level symbol must be a whole number of its bars. */
function checkBarIntervals(options: BacktestOptions, feed: BarFeed): void {
  if (options.marketView !== undefined) return;
  const builder = new KlineBuilder(options.klines ?? []);
  for (const { header } of feed.headers) {
    const barMs = header.barMs;
    if (barMs === undefined) continue;
    for (const symbol of header.symbols) {
      const bad = builder.unbuildable(symbol, barMs)[0];
      if (bad !== undefined) throw new BacktestError('BAR_INTERVAL', `the recording holds ${barMs / 60_000}-minute bars of ${symbol}; klines of ${bad.interval} cannot be built from them (download a shorter interval)`);
    }
  }
}

function sumOf(counts: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const value of counts.values()) n += value;
  return n;
}
