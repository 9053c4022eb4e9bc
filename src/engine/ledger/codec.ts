import { z } from 'zod';
import { dec } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import type { LedgerPosition } from '../../model/ledger.js';
import type { Fill } from '../../model/orders.js';
import type { LedgerRecord, LedgerState } from './book.js';
import type { BookedChunk } from './booked-ids.js';

/**
 * The ledgers' persisted form: JSON with decimals as strings (exact), read back through a schema. Version 2
 * keeps the booked trade ids in chunks of their own keys (`ledgerFillsKey(n)`), the main record holding
 * only the open run and the chunks' numbers; version 1 (every id in the main record) is still read.
 */

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

const stateSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), positions: z.array(positionSchema), fills: z.array(z.string()), unattributed: z.array(fillSchema).optional() }),
  z.object({
    version: z.literal(2),
    positions: z.array(positionSchema),
    fills: z.array(z.string()),
    chunks: z.array(z.number().int().nonnegative()),
    unattributed: z.array(fillSchema).optional(),
  }),
]);

const chunkSchema = z.array(z.string().min(1));

export type LedgerStateJson = z.input<typeof stateSchema>;

/** The key of a sealed chunk of booked trade ids, beside the main record's key. */
export function ledgerFillsKey(mainKey: string, n: number): string {
  return `${mainKey}.fills.${n}`;
}

/** The chunk number of a key `ledgerFillsKey` made, else undefined. */
export function ledgerFillsChunkOf(mainKey: string, key: string): number | undefined {
  const prefix = `${mainKey}.fills.`;
  if (!key.startsWith(prefix)) return undefined;
  const n = key.slice(prefix.length);
  return /^\d+$/.test(n) ? Number(n) : undefined;
}

export function encodeLedgerState(state: LedgerRecord): LedgerStateJson {
  return {
    version: 2,
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
    chunks: [...state.chunks],
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

/**
 * The persisted form of `state` as a value for a key-value store, encoded when the store serializes it
 * (`JSON.stringify` calls `toJSON`): a store that writes at once encodes at once, a backtest's store that
 * keeps the value unread (UnreadStateStore) never does. `state` is a snapshot (`LedgerBook.record()`).
 */
export function ledgerStateValue(state: LedgerRecord): { toJSON(): LedgerStateJson } {
  return { toJSON: () => encodeLedgerState(state) };
}

/**
 * Undefined for nothing stored; a stored value that does not parse, or a chunk it lists that is missing or
 * does not parse, is a damaged state file (throws). `readChunk(n)`: the stored value of chunk `n`.
 */
export function decodeLedgerState(stored: unknown, readChunk: (n: number) => unknown, chunkSize: number): LedgerState | undefined {
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
  const booked = parsed.data.version === 1 ? chunked(parsed.data.fills, chunkSize) : { chunks: parsed.data.chunks.map((n) => ({ n, ids: storedChunk(n, readChunk(n)) })), open: parsed.data.fills, chunksStored: true };
  return { positions, booked, ...(unattributed === undefined ? {} : { unattributed }) };
}

function storedChunk(n: number, stored: unknown): readonly string[] {
  const parsed = chunkSchema.safeParse(stored);
  if (!parsed.success) throw new InvariantError('LEDGER_STATE_INVALID', `stored ledgers list trade-id chunk ${n}, which is ${stored === undefined ? 'missing' : 'damaged'}`);
  return parsed.data;
}

/** Version 1's single list of trade ids as chunks to write (the newest, short of a whole chunk, as the open run). */
function chunked(ids: readonly string[], size: number): { chunks: BookedChunk[]; open: readonly string[]; chunksStored: false } {
  const whole = ids.length - (ids.length % size);
  const chunks: BookedChunk[] = [];
  for (let at = 0; at < whole; at += size) chunks.push({ n: chunks.length, ids: ids.slice(at, at + size) });
  return { chunks, open: ids.slice(whole), chunksStored: false };
}
