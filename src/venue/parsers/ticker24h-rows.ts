import type { Ticker24h } from './market.js';
import type { Bad } from '../wire/plain.js';
import { BAD, plainDecimal, plainEpochMs, plainOptDecimal, plainRows } from '../wire/plain.js';

/**
 * The rows of a 24h ticker reply read in one plain pass: the fields `ticker24hSchema` reads, by the
 * same rules, into the same values (a bare row is a list of one, as `tickers24hSchema` takes it). At
 * the first row it does not take whole it answers undefined, and the caller parses the reply with
 * `tickers24hSchema`, which skips and reports the bad rows (README "The exchange client").
 */
export function readTickers24h(payload: unknown): Ticker24h[] | undefined {
  return plainRows(payload, readTicker24h, true);
}

function readTicker24h(row: Record<string, unknown>): Ticker24h | Bad {
  const time = plainEpochMs(row['t']);
  const symbol = row['s'];
  const lastPrice = plainDecimal(row['c']);
  const open = plainDecimal(row['o']);
  const high = plainDecimal(row['h']);
  const low = plainDecimal(row['l']);
  const bestBid = plainOptDecimal(row['b']);
  const bestAsk = plainOptDecimal(row['a']);
  const volume = plainDecimal(row['v']);
  const quoteVolume = plainDecimal(row['qv']);
  const priceChange = plainOptDecimal(row['pc']);
  const priceChangePercent = plainOptDecimal(row['pcp']);
  const openInterest = plainOptDecimal(row['op']);
  if (
    time === BAD ||
    typeof symbol !== 'string' ||
    lastPrice === BAD ||
    open === BAD ||
    high === BAD ||
    low === BAD ||
    bestBid === BAD ||
    bestAsk === BAD ||
    volume === BAD ||
    quoteVolume === BAD ||
    priceChange === BAD ||
    priceChangePercent === BAD ||
    openInterest === BAD
  ) {
    return BAD;
  }
  return {
    time,
    symbol,
    lastPrice,
    open,
    high,
    low,
    ...(bestBid === undefined ? {} : { bestBid }),
    ...(bestAsk === undefined ? {} : { bestAsk }),
    volume,
    quoteVolume,
    ...(priceChange === undefined ? {} : { priceChange }),
    ...(priceChangePercent === undefined ? {} : { priceChangePercent }),
    ...(openInterest === undefined ? {} : { openInterest }),
  };
}
