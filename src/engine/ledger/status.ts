import type { LedgerPosition } from '../../model/ledger.js';

/** One ledger row as /status and `stratd status` show it (decimals as text). */
export interface LedgerStatusRow {
  readonly owner: string;
  readonly symbol: string;
  readonly side: string;
  readonly qty: string;
  readonly avgPrice: string;
  readonly realizedPnl: string;
  readonly fees: string;
  readonly funding: string;
}

/** The ledgers for /status: holdings and ledgers with any PnL, fees or funding, the external one last. */
export function ledgerStatus(positions: readonly LedgerPosition[]): readonly LedgerStatusRow[] {
  return positions
    .filter((p) => !p.qty.isZero() || !p.realizedPnl.isZero() || !p.fees.isZero() || !p.funding.isZero())
    .map((p) => ({
      owner: p.owner,
      symbol: p.symbol,
      side: p.positionSide,
      qty: p.qty.toFixed(),
      avgPrice: p.avgPrice.toFixed(),
      realizedPnl: p.realizedPnl.toFixed(),
      fees: p.fees.toFixed(),
      funding: p.funding.toFixed(),
    }));
}
