import { decText } from '../../core/decimal.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionLife, PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import type { MarginType, PositionSide } from './types.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';

/** One closed life of a position (flat → open → flat), as GET /api/v1/futures/historyPositions lists it. */
export interface ClosedPositionView {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly marginType: MarginType;
  readonly leverage: number;
  readonly openTime: number;
  readonly closeTime: number;
  readonly openAvgPrice: string;
  readonly closeAvgPrice: string;
  /** Contracts: the largest size of this life, and what was closed. */
  readonly maxQty: string;
  readonly closedQty: string;
  readonly realizedPnl: string;
  readonly liquidated: boolean;
}

export interface ClosedPositionQuery {
  readonly symbol?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

/** What a closed life keeps for its row: its decimals as they were (immutable), the text made when first shown. */
class ClosedPositionRow {
  private shown: ClosedPositionView | undefined;

  constructor(
    readonly symbol: string,
    readonly closeTime: number,
    private readonly side: PositionSide,
    private readonly marginType: MarginType,
    private readonly leverage: number,
    private readonly life: PositionLife,
    private readonly book: SymbolBook,
  ) {}

  /** The row as GET historyPositions lists it: a backtest closes a position on most closing fills and lists none. */
  get view(): ClosedPositionView {
    if (this.shown !== undefined) return this.shown;
    const { life, book } = this;
    this.shown = {
      symbol: this.symbol,
      side: this.side,
      marginType: this.marginType,
      leverage: this.leverage,
      openTime: life.openedAt,
      closeTime: this.closeTime,
      openAvgPrice: decText(life.openAvgPrice),
      closeAvgPrice: life.closedQty.isZero() ? '0' : decText(life.closeValue.div(life.closedQty).toDecimalPlaces(book.price.decimals)),
      maxQty: book.qty.toText(life.maxLots),
      closedQty: decText(life.closedQty),
      realizedPnl: decText(life.realized),
      liquidated: life.liquidated,
    };
    return this.shown;
  }
}

/** Closed positions per futures account, newest last, at most `maxRecords` each. */
export class PositionHistory {
  private readonly rows = new Map<string, ClosedPositionRow[]>();

  constructor(private readonly maxRecords: number) {}

  /** The position just went flat: its life becomes a row (the life is no longer the position's, so it stays as it is now). */
  record(account: FuturesAccount, position: PositionRecord, book: SymbolBook, time: number): void {
    const life = position.life;
    if (life === undefined) return;
    position.life = undefined;
    const row = new ClosedPositionRow(position.symbol, time, position.side, position.marginType, position.leverage, life, book);
    let list = this.rows.get(account.accountId);
    if (list === undefined) {
      list = emptyObjectArray();
      this.rows.set(account.accountId, list);
    }
    list.push(row);
    if (list.length > this.maxRecords) list.splice(0, list.length - this.maxRecords);
  }

  /** Newest first. */
  list(accountId: string, q: ClosedPositionQuery): ClosedPositionView[] {
    const all = this.rows.get(accountId) ?? [];
    const out: ClosedPositionView[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < q.limit; i--) {
      const row = all[i];
      if (row === undefined) continue;
      if (q.symbol !== undefined && q.symbol !== '' && row.symbol !== q.symbol) continue;
      if (q.startTime !== undefined && row.closeTime < q.startTime) continue;
      if (q.endTime !== undefined && row.closeTime > q.endTime) continue;
      out.push(row.view);
    }
    return out;
  }
}
