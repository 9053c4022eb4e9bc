import { z } from 'zod';
import { dec } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import type { LedgerPosition } from '../../model/ledger.js';
import type { Fill } from '../../model/orders.js';
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

const fillSchema = z.object({
  symbol: z.string().min(1),
  tradeId: z.string().min(1),
  orderId: z.string(),
  clientOrderId: z.string(),
  side: z.enum(['BUY', 'SELL']),
  positionSide: z.enum(['LONG', 'SHORT']),
  price: decimalText,
  qty: decimalText,
  fee: decimalText,
  feeAsset: z.string(),
  isMaker: z.boolean(),
  realizedPnl: decimalText,
  time: z.number().int(),
});

const stateSchema = z.object({ version: z.literal(1), positions: z.array(positionSchema), fills: z.array(z.string()), unattributed: z.array(fillSchema).optional() });

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
    ...(state.unattributed === undefined
      ? {}
      : {
          unattributed: state.unattributed.map((f) => ({
            ...f,
            price: f.price.toFixed(),
            qty: f.qty.toFixed(),
            fee: f.fee.toFixed(),
            realizedPnl: f.realizedPnl.toFixed(),
          })),
        }),
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
  const unattributed: Fill[] | undefined = parsed.data.unattributed?.map((f) => ({ ...f, price: dec(f.price), qty: dec(f.qty), fee: dec(f.fee), realizedPnl: dec(f.realizedPnl) }));
  return { positions, fills: parsed.data.fills, ...(unattributed === undefined ? {} : { unattributed }) };
}
