import type { Bad } from '../wire/plain.js';
import { BAD, isRecord, plainEpochMs, plainRows, RepeatedDecimal } from '../wire/plain.js';
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
  return plainRows(payload, readBookTicker, true);
}

/**
 * One book ticker row alone (a market socket's `bookTicker` frame, whose data is the row itself), by
 * the same rules as `bookTickerSchema`: undefined when that pass does not take it whole (the caller
 * parses it with the schema then).
 */
export function readBookTickerRow(payload: unknown): BookTicker | undefined {
  if (!isRecord(payload)) return undefined;
  const row = readBookTicker(payload);
  return row === BAD ? undefined : row;
}

/** Each field's last wire value and its Decimal: a book ticker's prices repeat from one poll (or frame) to the next. */
const bids = new RepeatedDecimal();
const bidQtys = new RepeatedDecimal();
const asks = new RepeatedDecimal();
const askQtys = new RepeatedDecimal();

function readBookTicker(row: Record<string, unknown>): BookTicker | Bad {
  const time = plainEpochMs(row['t']);
  const symbol = row['s'];
  const bidPrice = bids.read(row['b']);
  const bidQty = bidQtys.read(row['bq']);
  const askPrice = asks.read(row['a']);
  const askQty = askQtys.read(row['aq']);
  if (time === BAD || typeof symbol !== 'string' || bidPrice === BAD || bidQty === BAD || askPrice === BAD || askQty === BAD) return BAD;
  return { time, symbol, bidPrice, bidQty, askPrice, askQty };
}
