import { z } from 'zod';
import { dec } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import type { LedgerPosition } from '../../model/ledger.js';
import type { LedgerState } from './book.js';

/** The ledgers' persisted form: JSON with decimals as strings (exact), read back through a schema. */

const decimalText = z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i);

const positionSchema = z.object({
  owner: z.string().min(1),
  symbol: z.string().min(1),
  positionSide: z.enum(['LONG', 'SHORT']),
  qty: decimalText,
  avgPrice: decimalText,
  realizedPnl: decimalText,
  fees: decimalText,
  funding: decimalText,
  updateTime: z.number().int(),
});

const stateSchema = z.object({ version: z.literal(1), positions: z.array(positionSchema), fills: z.array(z.string()) });

export type LedgerStateJson = z.input<typeof stateSchema>;

export function encodeLedgerState(state: LedgerState): LedgerStateJson {
  return {
    version: 1,
    positions: state.positions.map((p) => ({
      owner: p.owner,
      symbol: p.symbol,
      positionSide: p.positionSide,
      qty: p.qty.toFixed(),
      avgPrice: p.avgPrice.toFixed(),
      realizedPnl: p.realizedPnl.toFixed(),
      fees: p.fees.toFixed(),
      funding: p.funding.toFixed(),
      updateTime: p.updateTime,
    })),
    fills: [...state.fills],
  };
}

/** Undefined for nothing stored; a stored value that does not parse is a damaged state file (throws). */
export function decodeLedgerState(stored: unknown): LedgerState | undefined {
  if (stored === undefined) return undefined;
  const parsed = stateSchema.safeParse(stored);
  if (!parsed.success) throw new InvariantError('LEDGER_STATE_INVALID', `stored ledgers do not parse: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const positions: LedgerPosition[] = parsed.data.positions.map((p) => ({
    ...p,
    qty: dec(p.qty),
    avgPrice: dec(p.avgPrice),
    realizedPnl: dec(p.realizedPnl),
    fees: dec(p.fees),
    funding: dec(p.funding),
  }));
  return { positions, fills: parsed.data.fills };
}
