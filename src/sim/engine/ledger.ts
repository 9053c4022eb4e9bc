import type { Decimal } from '../../core/decimal.js';
import { dec, decText } from '../../core/decimal.js';
import type { IdSequence } from './ids.js';
import type { OrderRecord } from './order-record.js';
import { PositionRecord } from './position-record.js';
import type { AccountType, AccountView, BalanceFlowView, Category, FlowKind, FlowQuery, MarginType, PositionSide } from './types.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';

const ZERO = dec(0);

export const DEFAULT_LEVERAGE = 20;

const FLOW_TYPES: Readonly<Record<FlowKind, { readonly value: number; readonly type: string; readonly name: string }>> = {
  TRANSFER: { value: 51, type: 'USER_ACCOUNT_TRANSFER', name: 'Transfer' },
  FEE: { value: 10, type: 'TRADING_FEE', name: 'Trading fee' },
  REALIZED_PNL: { value: 28, type: 'REALIZED_PNL', name: 'Realized PnL' },
  FUNDING: { value: 32, type: 'FUNDING_FEE', name: 'Funding fee' },
  LIQUIDATION: { value: 700, type: 'LIQUIDATION', name: 'Liquidation' },
  // Spot wallet moves of the simulated wallet; their numbers and names are not sourced (API-NOTES lists futures types only).
  WITHDRAW: { value: 2, type: 'USER_ACCOUNT_WITHDRAW', name: 'Withdraw' },
  DEPOSIT: { value: 1, type: 'USER_ACCOUNT_DEPOSIT', name: 'Deposit' },
};

/** A user's contract account of one settlement coin (USDT-M or USDC-M). */
export class FuturesAccount {
  private walletValue: Decimal = ZERO;
  /** Bumped on every change that can move the account's risk (wallet, positions, margins, leverage). */
  version = 0;
  /** Keyed `symbol|side`, in the order they were opened (the figures sum them in this order); add them with `position`. */
  readonly positions = new Map<string, PositionRecord>();
  /** The same positions by symbol, then side: a lookup makes no key text (one per order placed and per fill). */
  private readonly bySymbol = new Map<string, Record<PositionSide, PositionRecord | undefined>>();
  readonly settings = new Map<string, { leverage: number; marginType: MarginType }>();
  readonly openOrders = new Set<OrderRecord>();
  /** `symbol|side` of the isolated positions whose margin is topped up from the account before liquidation. */
  readonly autoAddMargin = new Set<string>();
  /** Wallet at the start of the current UTC day, for todayPnl. */
  dayStart = { day: -1, wallet: ZERO, realized: ZERO };
  realizedTotal: Decimal = ZERO;

  constructor(
    readonly accountId: string,
    readonly userId: string,
    readonly category: Category,
  ) {}

  get wallet(): Decimal {
    return this.walletValue;
  }

  set wallet(value: Decimal) {
    this.walletValue = value;
    this.version++;
  }

  /** Marks a risk-relevant change that does not go through the wallet. */
  touch(): void {
    this.version++;
  }

  settingsOf(symbol: string): { leverage: number; marginType: MarginType } {
    let s = this.settings.get(symbol);
    if (s === undefined) {
      s = { leverage: DEFAULT_LEVERAGE, marginType: 'CROSS' };
      this.settings.set(symbol, s);
    }
    return s;
  }

  position(symbol: string, side: PositionSide): PositionRecord {
    let pair = this.bySymbol.get(symbol);
    let p = pair?.[side];
    if (p === undefined) {
      const s = this.settingsOf(symbol);
      p = new PositionRecord(symbol, side, s.leverage, s.marginType);
      this.positions.set(`${symbol}|${side}`, p);
      if (pair === undefined) {
        pair = { LONG: undefined, SHORT: undefined };
        this.bySymbol.set(symbol, pair);
      }
      pair[side] = p;
    }
    return p;
  }

  existingPosition(symbol: string, side: PositionSide): PositionRecord | undefined {
    return this.bySymbol.get(symbol)?.[side];
  }

  orderMargin(): Decimal {
    let sum = ZERO;
    for (const o of this.openOrders) sum = sum.add(o.marginLocked);
    return sum;
  }

  positionMargin(): Decimal {
    let sum = ZERO;
    for (const p of this.positions.values()) if (p.lots > 0) sum = sum.add(p.margin);
    return sum;
  }
}

/**
 * A user's contract accounts by category. A class, not an object literal: a literal gets V8's boilerplate
 * the second time its line runs (a process's second backtest), which widened its field types and
 * deoptimized the fill path's readers (`finish`).
 */
class FuturesAccounts implements Readonly<Record<Category, FuturesAccount>> {
  readonly USDT: FuturesAccount;
  readonly USDC: FuturesAccount;

  constructor(usdtId: string, usdcId: string, userId: string) {
    this.USDT = new FuturesAccount(usdtId, userId, 'USDT');
    this.USDC = new FuturesAccount(usdcId, userId, 'USDC');
  }
}

/** A user (parent or sub-user) with its spot, contract and copy-trading accounts. */
export class UserRecord {
  readonly spot = new Map<string, Decimal>();
  readonly copyTrading = new Map<string, Decimal>();
  readonly futures: Readonly<Record<Category, FuturesAccount>>;

  constructor(
    readonly userId: string,
    readonly email: string,
    readonly remark: string,
    readonly parentUserId: string | undefined,
    readonly mainAccountId: string,
    futuresUsdtId: string,
    futuresUsdcId: string,
    readonly copyTradingAccountId: string,
  ) {
    this.futures = new FuturesAccounts(futuresUsdtId, futuresUsdcId, userId);
  }

  accounts(): AccountView[] {
    return [
      { accountId: this.mainAccountId, userId: this.userId, accountType: 'MAIN' },
      { accountId: this.futures.USDT.accountId, userId: this.userId, accountType: 'FUTURES' },
      { accountId: this.copyTradingAccountId, userId: this.userId, accountType: 'COPY_TRADING' },
    ];
  }
}

/**
 * One balance change as `FlowBook.record` got it. Every key is present, in this order, at every call site
 * (undefined where it does not apply): one hidden class, so `record` optimized on the fills' entries does not
 * deoptimize on the next run's opening transfer.
 */
interface FlowEntry {
  readonly userId: string;
  readonly accountId: string;
  readonly accountType: AccountType;
  readonly category: Category | undefined;
  readonly coin: string;
  readonly kind: FlowKind;
  readonly symbol: string | undefined;
  readonly change: Decimal;
  readonly total: Decimal;
  readonly time: number;
}

/** A recorded balance change; its view (the amounts' text) is made when a query first hands it out: a backtest books two per fill and reads almost none. */
class FlowRow {
  private shown: BalanceFlowView | undefined;

  constructor(
    readonly id: string,
    readonly entry: FlowEntry,
  ) {}

  get kind(): FlowKind {
    return this.entry.kind;
  }

  get created(): number {
    return this.entry.time;
  }

  get view(): BalanceFlowView {
    if (this.shown !== undefined) return this.shown;
    const e = this.entry;
    const t = FLOW_TYPES[e.kind];
    this.shown = {
      id: this.id,
      accountId: e.accountId,
      accountType: e.accountType,
      userId: e.userId,
      coin: e.coin,
      kind: e.kind,
      flowTypeValue: t.value,
      flowType: t.type,
      flowName: t.name,
      symbol: e.symbol ?? '',
      change: decText(e.change),
      total: decText(e.total),
      created: e.time,
    };
    return this.shown;
  }
}

/** Every balance change, as the balance-flow endpoints show them (newest first on query). */
export class FlowBook {
  private readonly rows: FlowRow[] = emptyObjectArray();
  /** The same rows split by kind, in the same order: a query of one kind (funding) reads only its own. */
  private readonly byKind = new Map<FlowKind, FlowRow[]>();

  constructor(
    private readonly ids: IdSequence,
    /** The oldest rows go beyond this many. */
    private readonly maxRows = Infinity,
  ) {
    // Every kind's list made now, not at the kind's first row of a run (made in optimized code, it deoptimized `record`).
    for (const kind of Object.keys(FLOW_TYPES) as FlowKind[]) this.byKind.set(kind, emptyObjectArray());
  }

  /** Books `entry` (kept as it is: its decimals are immutable). */
  record(entry: FlowEntry): void {
    if (entry.change.isZero()) return;
    const row = new FlowRow(this.ids.next(), entry);
    this.rows.push(row);
    let ofKind = this.byKind.get(entry.kind);
    if (ofKind === undefined) {
      ofKind = emptyObjectArray();
      this.byKind.set(entry.kind, ofKind);
    }
    ofKind.push(row);
    if (this.rows.length > this.maxRows) this.forget(this.rows.length - this.maxRows);
  }

  /** Drops the `count` oldest rows, from `rows` and from their kind's list (where they are the oldest too). */
  private forget(count: number): void {
    for (const row of this.rows.splice(0, count)) {
      const ofKind = this.byKind.get(row.kind);
      if (ofKind?.[0] === row) ofKind.shift();
    }
  }

  get size(): number {
    return this.rows.length;
  }

  /** Forgets rows created before `cutoff`. */
  purge(cutoff: number): void {
    let drop = 0;
    while (drop < this.rows.length && (this.rows[drop]?.created ?? Infinity) < cutoff) drop++;
    if (drop > 0) this.forget(drop);
  }

  query(q: FlowQuery): BalanceFlowView[] {
    const out: BalanceFlowView[] = [];
    const rows = q.kind === undefined ? this.rows : (this.byKind.get(q.kind) ?? []);
    for (let i = rows.length - 1; i >= 0 && out.length < q.limit; i--) {
      const row = rows[i];
      if (row === undefined) continue;
      const r = row.entry;
      if (r.userId !== q.userId) continue;
      if (q.accountType !== undefined && r.accountType !== q.accountType) continue;
      if (q.category !== undefined && r.accountType === 'FUTURES' && r.coin !== q.category) continue;
      if (q.coin !== undefined && q.coin !== '' && r.coin !== q.coin) continue;
      if (q.kind !== undefined && r.kind !== q.kind) continue;
      if (q.fromId !== undefined && BigInt(row.id) < BigInt(q.fromId)) continue;
      if (q.endId !== undefined && BigInt(row.id) > BigInt(q.endId)) continue;
      // Rows are kept in time order: everything further back is older still.
      if (q.startTime !== undefined && r.time < q.startTime) break;
      if (q.endTime !== undefined && r.time > q.endTime) continue;
      out.push(row.view);
    }
    return out;
  }
}
