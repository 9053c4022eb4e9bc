import type { Decimal } from '../../core/decimal.js';
import { wireDecimal } from '../wire/schema.js';
import type { BookTicker } from './market.js';

/**
 * The rows of a book ticker reply read in one plain pass, for the market poll on the way to an order
 * (tick-to-order): the fields `bookTickerSchema` reads, by the same rules (`epochMs`, `z.string()`,
 * `decimal`), into the same values. It accepts only what the schema accepts; at the first row it does
 * not take whole it answers undefined, and the caller parses the reply with `bookTickersSchema`, which
 * skips and reports the bad rows (the parsing rule of README "The exchange client") and names
 * whatever is wrong.
 */
export function readBookTickers(payload: unknown): BookTicker[] | undefined {
  const rows = Array.isArray(payload) ? (payload as unknown[]) : isRecord(payload) ? [payload] : undefined;
  if (rows === undefined) return undefined;
  const out: BookTicker[] = [];
  for (const row of rows) {
    if (!isRecord(row)) return undefined;
    const time = epochMs(row['t']);
    const symbol = row['s'];
    const bidPrice = amount(row['b']);
    const bidQty = amount(row['bq']);
    const askPrice = amount(row['a']);
    const askQty = amount(row['aq']);
    if (time === undefined || typeof symbol !== 'string' || bidPrice === undefined || bidQty === undefined || askPrice === undefined || askQty === undefined) return undefined;
    out.push({ time, symbol, bidPrice, bidQty, askPrice, askQty });
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `epochMs`: digits a number holds exactly, or a non-negative safe integer. */
function epochMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  const ms = Number(value);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

function amount(value: unknown): Decimal | undefined {
  return typeof value === 'string' || typeof value === 'number' ? wireDecimal(value) : undefined;
}
