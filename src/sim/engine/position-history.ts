import { decText } from '../../core/decimal.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import type { MarginType, PositionSide } from './types.js';

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

/** Closed positions per futures account, newest last, at most `maxRecords` each. */
export class PositionHistory {
  private readonly rows = new Map<string, ClosedPositionView[]>();

  constructor(private readonly maxRecords: number) {}

  /** The position just went flat: its life becomes a row. */
  record(account: FuturesAccount, position: PositionRecord, book: SymbolBook, time: number): void {
    const life = position.life;
    if (life === undefined) return;
    position.life = undefined;
    const row: ClosedPositionView = {
      symbol: position.symbol,
      side: position.side,
      marginType: position.marginType,
      leverage: position.leverage,
      openTime: life.openedAt,
      closeTime: time,
      openAvgPrice: decText(life.openAvgPrice),
      closeAvgPrice: life.closedQty.isZero() ? '0' : decText(life.closeValue.div(life.closedQty).toDecimalPlaces(book.price.decimals)),
      maxQty: book.qty.toText(life.maxLots),
      closedQty: decText(life.closedQty),
      realizedPnl: decText(life.realized),
      liquidated: life.liquidated,
    };
    let list = this.rows.get(account.accountId);
    if (list === undefined) {
      list = [];
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
      out.push(row);
    }
    return out;
  }
}
