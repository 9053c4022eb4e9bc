import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { AlgoFamily, ExchangeFailure, ExchangePort } from '../../model/exchange-port.js';
import type { AlgoOrderSnapshot } from '../../model/orders.js';
import { strategyOfClientOrderId } from './client-order-ids.js';
import type { Executor } from './executor.js';

/** A regular order nobody here can attribute yet: an unknown snapshot or open order, or the order of a fill booked to nobody. */
export interface UnattributedOrder {
  readonly symbol: string;
  readonly orderId: string;
}

export interface TriggeredOrdersOptions {
  readonly port: ExchangePort;
  readonly executor: Executor;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly publish: (event: BusEvent) => void;
  /** Configured strategy ids: a row nobody here knows that carries one's tag is that strategy's. */
  readonly strategies: readonly string[];
}

export interface TriggeredOutcome {
  /** Orders attributed to the strategy whose row created them, or fetched and adopted for it. */
  readonly attributed: number;
  /** Lookups that failed (left for the next reconciliation). */
  readonly unresolved: number;
}

/** Both families of rows: TP/SL first (they trigger most, from attached stops). */
const FAMILIES: readonly AlgoFamily[] = ['tpsl', 'plan'];
/** Pages of one family's history read per symbol and lookup (newest first; a triggered row is usually on the first). */
const MAX_PAGES = 5;
/** Order ids looked up already, remembered this many: a foreign order is not looked up at every reconciliation. */
const SEARCHED_LIMIT = 5000;
/**
 * Lookups per order, in different reconciliations: a second one in case the exchange listed the row's
 * trigger a moment after the order it created (the spec does not say they are written at once).
 */
const LOOKUPS_PER_ORDER = 2;
/** Linked but never seen orders fetched by id per reconciliation (weight 1 each); the rest wait for the next one. */
const MAX_CHILD_QUERIES = 50;

/**
 * Reconciliation's step for the orders our plan and TP/SL rows create when they trigger. The row's
 * triggered event links its order to the row's strategy; when that event was lost (a stream drop) and
 * the order finished before a reconciliation, nothing else would: it would stay unjournaled and its fill
 * would be booked to `external`. So the orders nobody here knows are looked up in the rows' history
 * (`executedOrderId`), linked to the row's owner, and orders linked but never seen are fetched by id and
 * adopted. The ledgers move the fills they booked to `external` once their order has an owner (at the
 * latest at the resync that ends the reconciliation). Calls are bounded: only for unattributed orders,
 * grouped by symbol, each looked up once per reconciliation and twice in all.
 */
export class TriggeredOrders {
  /** Order id → lookups that did not find its row, and the reconciliation of the last one. */
  private readonly searched = new Map<string, { readonly lookups: number; readonly run: number }>();
  private run = 0;
  /** Linked orders a query did not find once (forgotten when the next reconciliation does not find them either). */
  private readonly missing = new Set<string>();

  constructor(private readonly options: TriggeredOrdersOptions) {}

  /** A reconciliation begins: an order is looked up once per reconciliation at most. */
  nextRun(): void {
    this.run += 1;
  }

  /** Finds the rows that created `orders` (those not attributed or looked up yet) and links each order to the row's owner. */
  async link(orders: Iterable<UnattributedOrder>): Promise<TriggeredOutcome> {
    const ex = this.options.executor;
    const bySymbol = new Map<string, Set<string>>();
    for (const order of orders) {
      const searched = this.searched.get(order.orderId);
      if ((searched !== undefined && (searched.lookups >= LOOKUPS_PER_ORDER || searched.run === this.run)) || ex.childOwner(order.orderId) !== undefined) continue;
      const ids = bySymbol.get(order.symbol) ?? new Set<string>();
      ids.add(order.orderId);
      bySymbol.set(order.symbol, ids);
    }
    let attributed = 0;
    let unresolved = 0;
    for (const [symbol, wanted] of bySymbol) {
      const rows = await this.creatorsOf(symbol, wanted);
      if (!rows.ok) {
        unresolved += 1;
        this.options.logger.warn({ symbol, failure: rows.error }, 'triggered orders not looked up: plan and TP/SL history unavailable');
        continue;
      }
      const found = new Set<string>();
      for (const row of rows.value) {
        if (row.executedOrderId !== undefined) found.add(row.executedOrderId);
        if (this.take(row)) attributed += 1;
      }
      for (const id of wanted) if (!found.has(id)) this.remember(id);
    }
    return { attributed, unresolved };
  }

  /** Orders our rows created that were never seen: their snapshots by id, adopted for the row's strategy and published. */
  async fetchLinked(): Promise<TriggeredOutcome> {
    const { executor: ex, port } = this.options;
    let attributed = 0;
    let unresolved = 0;
    const linked = ex.linkedChildren();
    const ids = new Set(linked.map((child) => child.orderId));
    for (const id of this.missing) if (!ids.has(id)) this.missing.delete(id);
    for (const child of linked.slice(0, MAX_CHILD_QUERIES)) {
      const reply = await port.queryOrderById(child.symbol, child.orderId);
      if (!reply.ok) {
        unresolved += 1;
        continue;
      }
      if (reply.value === undefined) {
        // Perhaps not listed yet (a row that triggered a moment ago): forgotten at the second miss.
        if (this.missing.delete(child.orderId)) ex.forgetChild(child.orderId);
        else this.missing.add(child.orderId);
        continue;
      }
      this.missing.delete(child.orderId);
      const event: BusEvent = { type: 'account.order', source: 'rest', time: this.options.clock.now(), order: reply.value };
      ex.onEvent(event);
      this.options.publish(event);
      attributed += 1;
      this.options.logger.info({ orderId: child.orderId, clientOrderId: reply.value.clientOrderId, owner: child.strategyId }, 'adopted an order a plan or TP/SL row created (its events were lost)');
    }
    return { attributed, unresolved };
  }

  /** The triggered rows of `symbol` that created one of `wanted`, from the newest history pages of both families. */
  private async creatorsOf(symbol: string, wanted: ReadonlySet<string>): Promise<Result<AlgoOrderSnapshot[], ExchangeFailure>> {
    const left = new Set(wanted);
    const found: AlgoOrderSnapshot[] = [];
    for (const family of FAMILIES) {
      let before: string | undefined;
      for (let page = 0; page < MAX_PAGES && left.size > 0; page++) {
        const reply = await this.options.port.fetchAlgoHistory(symbol, family, before);
        if (!reply.ok) return reply;
        for (const row of reply.value.rows) {
          if (row.executedOrderId === undefined || !left.has(row.executedOrderId)) continue;
          left.delete(row.executedOrderId);
          found.push(row);
        }
        if (reply.value.next === undefined) break;
        before = reply.value.next;
      }
      if (left.size === 0) break;
    }
    return ok(found);
  }

  /**
   * A triggered row found in the history: replayed to the executor (a live row of ours links its order, an
   * attached TP/SL row is adopted with it), else linked for its journaled or tagged owner. Published, so
   * the cache and the strategy see the final state they missed. Answers whether its order is ours now.
   */
  private take(row: AlgoOrderSnapshot): boolean {
    const { executor: ex } = this.options;
    const child = row.executedOrderId;
    if (child === undefined) return false;
    const event: BusEvent = { type: 'account.algo', source: 'rest', time: this.options.clock.now(), order: row };
    ex.onEvent(event);
    const journaled = ex.ownerOf(row.clientOrderId);
    const owner = journaled ?? strategyOfClientOrderId(row.clientOrderId, this.options.strategies);
    if (owner !== undefined) {
      if (journaled === undefined) ex.adopt(owner, row);
      else ex.linkChild(child, owner, row.symbol);
    }
    this.options.publish(event);
    if (owner === undefined) return false;
    this.options.logger.info({ clientOrderId: row.clientOrderId, orderId: child, owner }, 'a triggered row found in the history: the order it created is its strategy\'s');
    return true;
  }

  private remember(orderId: string): void {
    const lookups = (this.searched.get(orderId)?.lookups ?? 0) + 1;
    this.searched.delete(orderId);
    this.searched.set(orderId, { lookups, run: this.run });
    if (this.searched.size <= SEARCHED_LIMIT) return;
    const oldest = this.searched.keys().next().value;
    if (oldest !== undefined) this.searched.delete(oldest);
  }
}
