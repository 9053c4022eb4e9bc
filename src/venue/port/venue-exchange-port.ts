import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Balance, FundingPayment, Position } from '../../model/account.js';
import type {
  CancelAlgoCommand,
  CancelAllCommand,
  CancelOrderCommand,
  ModifyAlgoCommand,
  ModifyOrderCommand,
  PlaceAlgoCommand,
  PlaceOrderCommand,
} from '../../model/commands.js';
import type { AccountSnapshot, AlgoFamily, AlgoHistoryPage, CallTrace, ExchangeFailure, ExchangePort, PortResult } from '../../model/exchange-port.js';
import type { Category, Instrument } from '../../model/instrument.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from '../../model/orders.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { AlgoOrdersApi } from '../api/algo-orders.js';
import type { OrdersV1Api } from '../api/orders/v1.js';
import type { OrdersV2Api } from '../api/orders/v2.js';
import type { ExchangeClient } from '../exchange-client.js';
import type { FuturesBalance, FuturesBalanceFlow, Position as WirePosition } from '../parsers/account.js';
import type { TpSlOrderV1 } from '../parsers/order-v1.js';
import type { OrderV2 } from '../parsers/order-v2.js';
import type { VenueError } from '../venue-error.js';
import type { StopCategory } from '../../protocol/wire-enums.js';
import { toBalance, toFill, toPosition } from './account-mapping.js';
import { categoriesOf, categoryOf } from './category.js';
import {
  batchLegRequest,
  hasAttachedStops,
  modifyOrderRequest,
  placeOrderRequest,
  planRequest,
  trailingUpdateRequest,
  updateAlgoRequest,
} from './command-mapping.js';
import type { CallKind } from './failure-mapping.js';
import { isNotFound, legFailure, localFailure, mappingFailure, toExchangeFailure } from './failure-mapping.js';
import { toInstrument } from './instrument-mapping.js';
import type { Mapped } from './order-mapping.js';
import { toAlgoSnapshot, toAlgoSnapshotFromV1, toOrderSnapshot } from './order-mapping.js';
import { allOrderPages, allTradePages, lowestOrderId } from './paging.js';

export interface VenueExchangePortOptions {
  /** The signed, rate-governed client (live exchange or `stratd sim` over loopback). */
  readonly client: ExchangeClient;
  readonly logger?: Logger;
  /** Rows asked for per page of list calls, 1 to 1000 (default 1000). */
  readonly pageSize?: number;
}

type LegResult = Result<OrderSnapshot, ExchangeFailure>;

/** One category's part of an account snapshot, before the snapshot's exchange time is known. */
interface CategoryRows {
  readonly openOrders: readonly OrderSnapshot[];
  readonly openAlgoOrders: readonly AlgoOrderSnapshot[];
  readonly positions: readonly WirePosition[];
  readonly balances: readonly FuturesBalance[];
  readonly funding: readonly FundingPayment[];
}

const MAX_BATCH = 10;
/** Balance flow type of a funding fee (API-NOTES §5.11) and how far back a fetched account lists them (a trading day). */
const FUNDING_FLOW_TYPE = 32;
const FUNDING_LOOKBACK_MS = 86_400_000;
const BATCH_ENDPOINT = endpointLabel(ENDPOINTS.batchOrdersV2);

/**
 * The kernel's ExchangePort over the exchange client: trading through the signed v2 endpoints (plus the
 * v1 order/update for trailing stops, which only it can make), replies mapped to model snapshots in
 * contracts, every VenueError mapped to an ExchangeFailure. Client order ids address every order.
 */
export class VenueExchangePort implements ExchangePort {
  private readonly client: ExchangeClient;
  private readonly logger: Logger;
  private readonly pageSize: number;

  constructor(options: VenueExchangePortOptions) {
    const pageSize = options.pageSize ?? 1000;
    if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) throw new RangeError(`pageSize must be an integer from 1 to 1000, got ${pageSize}`);
    this.client = options.client;
    this.logger = options.logger ?? silentLogger;
    this.pageSize = pageSize;
  }

  async loadInstruments(): PortResult<readonly Instrument[]> {
    const info = await this.client.market.exchangeInfo();
    if (!info.ok) return err(toExchangeFailure(info.error, 'read'));
    const instruments: Instrument[] = [];
    for (const contract of info.value.contracts) {
      const mapped = toInstrument(contract);
      if (mapped.ok) instruments.push(mapped.value);
      else this.logger.warn({ symbol: contract.symbol, reason: mapped.error }, 'contract left out of the instruments');
    }
    return ok(instruments);
  }

  async placeOrder(command: PlaceOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot> {
    // Risk resolved the command (quantized, filters checked): the API's client-side checks are not run again.
    return settle(await this.ordersV2(trace).placeApproved(placeOrderRequest(command)), toOrderSnapshot, 'write');
  }

  /**
   * Legs without TP/SL go out as v2 batches, one per category; legs with TP/SL (which batches cannot
   * carry) as single orders. When that is one call and it fails as a whole, the outer result is that
   * failure; otherwise each leg carries its own outcome.
   */
  async placeOrders(commands: readonly PlaceOrderCommand[]): PortResult<ReadonlyArray<LegResult>> {
    if (commands.length === 0 || commands.length > MAX_BATCH) return err(localFailure(`a batch holds 1 to ${MAX_BATCH} orders, got ${commands.length}`));
    const groups = new Map<string, number[]>();
    commands.forEach((command, i) => {
      const key = hasAttachedStops(command) ? `single:${i}` : `batch:${categoryOf(command.symbol)}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    const results: LegResult[] = new Array<LegResult>(commands.length);
    const outcomes = await Promise.all(
      [...groups.entries()].map(async ([key, indexes]) => {
        const legs = indexes.map((i) => commands[i]).filter((c): c is PlaceOrderCommand => c !== undefined);
        const outcome = key.startsWith('single:') ? await this.singleLeg(legs) : await this.batch(legs);
        if (outcome.ok) outcome.value.forEach((leg, n) => assign(results, indexes[n], leg));
        else for (const i of indexes) assign(results, i, err(outcome.error));
        return outcome;
      }),
    );
    const [only] = outcomes;
    if (outcomes.length === 1 && only !== undefined && !only.ok) return err(only.error);
    return ok(results);
  }

  async modifyOrder(command: ModifyOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot> {
    return settle(await this.ordersV2(trace).modifyOrder(modifyOrderRequest(command)), toOrderSnapshot, 'write');
  }

  async cancelOrder(command: CancelOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot> {
    const reply = await this.ordersV2(trace).cancelOrder({ origClientOrderId: command.clientOrderId, category: categoryOf(command.symbol) });
    return settle(reply, toOrderSnapshot, 'write');
  }

  async cancelAll(command: CancelAllCommand, trace?: CallTrace): PortResult<void> {
    const reply = await this.ordersV2(trace).cancelAll([command.symbol], undefined, categoryOf(command.symbol));
    return reply.ok ? ok(undefined) : err(toExchangeFailure(reply.error, 'write'));
  }

  async placeAlgo(command: PlaceAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot> {
    return settle(await this.algo(trace).createPlanOrder(planRequest(command)), toAlgoSnapshot, 'write');
  }

  async modifyAlgo(command: ModifyAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot> {
    if (command.trailing === undefined) return settle(await this.algo(trace).updateAlgoOrder(updateAlgoRequest(command)), toAlgoSnapshot, 'write');
    if (command.kind === 'PLAN') return err(localFailure('a trailing stop applies to TP/SL rows only, not to plan orders'));
    const reply: Result<TpSlOrderV1, VenueError> = await this.ordersV1(trace).orderV1Update(trailingUpdateRequest(command, command.trailing));
    return settle(reply, toAlgoSnapshotFromV1, 'write');
  }

  async cancelAlgo(command: CancelAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot> {
    const reply = await this.algo(trace).cancelAlgoOrder({ origClientOrderId: command.clientOrderId, category: categoryOf(command.symbol) });
    return settle(reply, toAlgoSnapshot, 'write');
  }

  /** The order APIs, traced when the command carries a trace (tick-to-order latency). */
  private ordersV2(trace: CallTrace | undefined): OrdersV2Api {
    return trace === undefined ? this.client.ordersV2 : this.client.ordersV2.traced(trace);
  }

  private ordersV1(trace: CallTrace | undefined): OrdersV1Api {
    return trace === undefined ? this.client.ordersV1 : this.client.ordersV1.traced(trace);
  }

  private algo(trace: CallTrace | undefined): AlgoOrdersApi {
    return trace === undefined ? this.client.algo : this.client.algo.traced(trace);
  }

  async queryOrder(symbol: string, clientOrderId: string): PortResult<OrderSnapshot | undefined> {
    const reply = await this.client.ordersV2.getOrder({ origClientOrderId: clientOrderId, category: categoryOf(symbol) });
    if (!reply.ok && isNotFound(reply.error)) return ok(undefined);
    return settle(reply, toOrderSnapshot, 'read');
  }

  async queryAlgo(symbol: string, clientOrderId: string): PortResult<AlgoOrderSnapshot | undefined> {
    const reply = await this.client.algo.getAlgoOrder({ origClientOrderId: clientOrderId, category: categoryOf(symbol) });
    if (!reply.ok && isNotFound(reply.error)) return ok(undefined);
    return settle(reply, toAlgoSnapshot, 'read');
  }

  /** Open orders, open plan and TP/SL rows, positions, balances and the day's funding payments of every category the symbols use (all their symbols). */
  async fetchAccount(symbols: readonly string[]): PortResult<AccountSnapshot> {
    // On the exchange's clock, as stream events are: a local time would drop the events of the next
    // seconds as older than the snapshot whenever the local clock runs ahead of the exchange's. The
    // start is read on the offset the fetch ends with: a request refused for its timestamp (-1021: the
    // exchange's clock moved) re-syncs the offset mid-fetch, and the estimate made before it is off by
    // the move, seconds into the future when the exchange's clock moved back.
    const timeSync = this.client.timeSync;
    const startEstimate = timeSync.serverNow();
    const anchorAtStart = timeSync.anchor;
    // A row left out of these lists would read as an order or position that is not there (a position
    // flattened in the cache, an order taken for closed): the snapshot is refused instead, and retried.
    const skipped: string[] = [];
    const watch = this.client.rest.skippedRows$.subscribe((s) => {
      if (SNAPSHOT_LISTS.has(s.endpoint)) skipped.push(...s.rows.map((r) => `${s.endpoint} ${r.row} (${r.field}: ${r.message})`));
    });
    let parts: Array<Result<CategoryRows, ExchangeFailure>>;
    try {
      parts = await Promise.all(categoriesOf(symbols).map((category) => this.fetchCategory(category, startEstimate)));
    } finally {
      watch.unsubscribe();
    }
    if (skipped.length > 0) return err(incompleteSnapshot(skipped));
    const fetchedAt = Math.round(startEstimate - anchorAtStart + timeSync.anchor);
    const openOrders: OrderSnapshot[] = [];
    const openAlgoOrders: AlgoOrderSnapshot[] = [];
    const positions: Position[] = [];
    const balances = new Map<string, Balance>();
    const funding: FundingPayment[] = [];
    for (const part of parts) {
      if (!part.ok) return part;
      funding.push(...part.value.funding);
      openOrders.push(...part.value.openOrders);
      openAlgoOrders.push(...part.value.openAlgoOrders);
      positions.push(...part.value.positions.map((row) => toPosition(row, fetchedAt)));
      for (const row of part.value.balances) if (!balances.has(row.coin)) balances.set(row.coin, toBalance(row, fetchedAt));
    }
    return ok({ openOrders, openAlgoOrders, positions, balances: [...balances.values()], funding, fetchedAt });
  }

  async fetchFills(symbol: string, fromTime: number): PortResult<readonly Fill[]> {
    const category = categoryOf(symbol);
    const rows = await allTradePages(this.pageSize, (cursor) =>
      this.client.ordersV2.userTrades({ symbol, startTime: fromTime, limit: this.pageSize, category, ...cursor }),
    );
    if (!rows.ok) return err(toExchangeFailure(rows.error, 'read'));
    return ok(rows.value.filter((row) => row.time >= fromTime).map(toFill));
  }

  async fetchAlgoHistory(symbol: string, family: AlgoFamily, before?: string): PortResult<AlgoHistoryPage> {
    const reply = await this.client.algo.historyAlgoOrders({
      symbol,
      stopCategory: family === 'plan' ? 'STOP' : 'STOP_PROFIT_LOSS',
      limit: this.pageSize,
      category: categoryOf(symbol),
      ...(before === undefined ? {} : { orderId: before }),
    });
    if (!reply.ok) return err(toExchangeFailure(reply.error, 'read'));
    const rows = mapAll(reply.value, toAlgoSnapshot);
    if (!rows.ok) return err(mappingFailure(rows.error, 'read'));
    // A full page may have more below its lowest id (the cursor answers only lower ids).
    const next = reply.value.length < this.pageSize ? undefined : lowestOrderId(reply.value);
    return ok(next === undefined || next === before ? { rows: rows.value } : { rows: rows.value, next });
  }

  async queryOrderById(symbol: string, orderId: string): PortResult<OrderSnapshot | undefined> {
    const reply = await this.client.ordersV2.getOrder({ orderId, category: categoryOf(symbol) });
    if (!reply.ok && isNotFound(reply.error)) return ok(undefined);
    return settle(reply, toOrderSnapshot, 'read');
  }

  /** One category's lists; positions and balances stay wire rows until the snapshot's time is known. */
  private async fetchCategory(category: Category, startEstimate: number): PortResult<CategoryRows> {
    const algoRows = (stopCategory: StopCategory): Promise<Result<OrderV2[], VenueError>> =>
      allOrderPages(this.pageSize, (orderId) => this.client.algo.openAlgoOrders({ stopCategory, limit: this.pageSize, category, ...(orderId === undefined ? {} : { orderId }) }));
    const [orders, plans, tpsl, positions, balances, flows] = await Promise.all([
      allOrderPages(this.pageSize, (orderId) => this.client.ordersV2.openOrders({ limit: this.pageSize, category, ...(orderId === undefined ? {} : { orderId }) })),
      algoRows('STOP'),
      algoRows('STOP_PROFIT_LOSS'),
      this.client.account.positions({ category }),
      this.client.account.futuresBalance(category),
      this.client.account.futuresBalanceFlow({ flowType: FUNDING_FLOW_TYPE, startTime: startEstimate - FUNDING_LOOKBACK_MS, limit: 1000, category }),
    ]);
    if (!orders.ok) return err(toExchangeFailure(orders.error, 'read'));
    if (!plans.ok) return err(toExchangeFailure(plans.error, 'read'));
    if (!tpsl.ok) return err(toExchangeFailure(tpsl.error, 'read'));
    if (!positions.ok) return err(toExchangeFailure(positions.error, 'read'));
    if (!balances.ok) return err(toExchangeFailure(balances.error, 'read'));
    const openOrders = mapAll(orders.value, toOrderSnapshot);
    if (!openOrders.ok) return err(mappingFailure(openOrders.error, 'read'));
    const openAlgoOrders = mapAll([...plans.value, ...tpsl.value], toAlgoSnapshot);
    if (!openAlgoOrders.ok) return err(mappingFailure(openAlgoOrders.error, 'read'));
    return ok({
      openOrders: openOrders.value,
      openAlgoOrders: openAlgoOrders.value,
      positions: positions.value,
      balances: balances.value,
      funding: this.fundingOf(flows, category),
    });
  }

  /** The day's funding payments, oldest first; a failed read leaves them to the next reconciliation. */
  private fundingOf(flows: Result<FuturesBalanceFlow[], VenueError>, category: Category): FundingPayment[] {
    if (!flows.ok) {
      this.logger.warn({ category, error: flows.error.message }, 'funding payments not read: the day PnL counts them at the next reconciliation');
      return [];
    }
    return flows.value
      .filter((row) => row.flowTypeValue === FUNDING_FLOW_TYPE)
      .map((row) => ({ flowId: row.id, symbol: row.symbol ?? row.symbolId ?? '', asset: row.coin, amount: row.change, time: row.created }))
      .sort((a, b) => a.time - b.time);
  }

  private async singleLeg(legs: readonly PlaceOrderCommand[]): PortResult<readonly LegResult[]> {
    const [command] = legs;
    if (command === undefined) return ok([]);
    const placed = await this.placeOrder(command);
    // A failed single leg is still a leg outcome, except when it is the whole request (see placeOrders).
    return placed.ok ? ok([placed]) : err(placed.error);
  }

  private async batch(legs: readonly PlaceOrderCommand[]): PortResult<readonly LegResult[]> {
    const [first] = legs;
    if (first === undefined) return ok([]);
    const reply = await this.client.ordersV2.placeBatch(legs.map(batchLegRequest), categoryOf(first.symbol));
    if (!reply.ok) return err(toExchangeFailure(reply.error, 'write'));
    if (reply.value.length !== legs.length) return err(mappingFailure(`${reply.value.length} batch results for ${legs.length} orders`, 'write'));
    return ok(
      reply.value.map((leg): LegResult => {
        if ((leg.code === 200 || leg.code === 0) && leg.order !== undefined && leg.order !== null) {
          const mapped = toOrderSnapshot(leg.order);
          return mapped.ok ? mapped : err(mappingFailure(mapped.error, 'write'));
        }
        return err(legFailure(BATCH_ENDPOINT, leg.code, leg.msg));
      }),
    );
  }
}

/** A client reply turned into a port result through a row mapping. */
function settle<R, T>(reply: Result<R, VenueError>, map: (row: R) => Mapped<T>, call: CallKind): Result<T, ExchangeFailure> {
  if (!reply.ok) return err(toExchangeFailure(reply.error, call));
  const mapped = map(reply.value);
  return mapped.ok ? mapped : err(mappingFailure(mapped.error, call));
}

function mapAll<R, T>(rows: readonly R[], map: (row: R) => Mapped<T>): Mapped<T[]> {
  const out: T[] = [];
  for (const row of rows) {
    const mapped = map(row);
    if (!mapped.ok) return mapped;
    out.push(mapped.value);
  }
  return ok(out);
}

function assign(results: LegResult[], index: number | undefined, leg: LegResult): void {
  if (index !== undefined) results[index] = leg;
}

/** The lists an account snapshot is read from: none may leave a row out (see fetchAccount). */
const SNAPSHOT_LISTS: ReadonlySet<string> = new Set(
  [ENDPOINTS.openOrdersV2, ENDPOINTS.openAlgoOrders, ENDPOINTS.positions, ENDPOINTS.futuresBalance].map(endpointLabel),
);

/** An account snapshot with rows left out: not acted on; the reconciliation fails and is retried. */
function incompleteSnapshot(skipped: readonly string[]): ExchangeFailure {
  const shown = skipped.slice(0, 3).join('; ');
  const more = skipped.length > 3 ? ` and ${skipped.length - 3} more` : '';
  return { kind: 'invalid', code: 'INCOMPLETE_SNAPSHOT', message: `account snapshot with unreadable rows, not acted on: ${shown}${more}`, retryable: true };
}
