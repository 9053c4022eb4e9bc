import { writeFileSync } from 'node:fs';
import type { MarketEvent, PriceLevel } from '../../../src/sim/market-stream/events.js';
import { eventToLineObject } from '../../../src/sim/market-stream/event-lines.js';
import { encodeHeader } from '../../../src/sim/market-stream/format.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import { BTC, header, T0 } from '../backtest-support.js';

/** Where the flaws of `writeFlawedRecording` are (times relative to T0, and the line written for each). */
export interface Flaws {
  /** depth and mark are silent from gapFrom to gapTo. */
  readonly gapFrom: number;
  readonly gapTo: number;
  /** Line of the first event after the silence. */
  readonly gapLine: number;
  /** Line of the trade written a second time. */
  readonly duplicateLine: number;
  /** Line of the trade whose id is lower than the one before it. */
  readonly outOfOrderLine: number;
  /** Line of the event whose time goes backwards (`timeBackwards` only: a replay refuses it). */
  readonly backwardsLine: number;
  /** The book stays the same (while trades print) from frozenFrom to frozenTo. */
  readonly frozenFrom: number;
  readonly frozenTo: number;
}

const bids = (n: number): PriceLevel[] => [[String(99_990 + (n % 7)), '5']];
const asks = (n: number): PriceLevel[] => [[String(100_000 + (n % 7)), '5']];

/**
 * A BTC recording (depth and mark every second, a trade every second) of 200 s with one of each flaw:
 * a 30-second silence of depth and mark (a gap: 30 times their cadence), one trade written twice, one
 * trade whose id goes back (what a late event the recorder re-timed looks like), and a book unchanged for
 * 70 s while trades print; with `timeBackwards`, also one event earlier than the one before it. Written
 * line by line (the stream writer would refuse time going backwards).
 */
export function writeFlawedRecording(path: string, options: { readonly timeBackwards?: boolean } = {}): Flaws {
  // ETH is declared (the default config trades it) but silent: the flaws are BTC's.
  const lines = [encodeHeader(header([BTC_SWAP_USDT, ETH_SWAP_USDT]))];
  const push = (event: MarketEvent): number => lines.push(JSON.stringify(eventToLineObject(event)));
  const flaws = { gapFrom: T0 + 59_000, gapTo: T0 + 90_000, frozenFrom: T0 + 100_000, frozenTo: T0 + 170_000 };
  let gapLine = 0;
  let duplicateLine = 0;
  let outOfOrderLine = 0;
  let backwardsLine = 0;
  let tradeId = 1000;
  for (let s = 0; s < 200; s++) {
    const ts = T0 + s * 1000;
    const silent = ts > flaws.gapFrom && ts < flaws.gapTo;
    const frozen = ts >= flaws.frozenFrom && ts <= flaws.frozenTo;
    if (!silent) {
      const line = push({ type: 'depth', ts, symbol: BTC, bids: frozen ? bids(0) : bids(s), asks: frozen ? asks(0) : asks(s) });
      push({ type: 'mark', ts, symbol: BTC, price: String(99_995 + (s % 7)) });
      if (ts === flaws.gapTo) gapLine = line;
    }
    const trade: MarketEvent = { type: 'trade', ts: ts + 500, symbol: BTC, id: String(++tradeId), price: '100000', qty: '0.1', buyerIsMaker: s % 2 === 0 };
    push(trade);
    if (s === 10) duplicateLine = push(trade);
    if (s === 20) outOfOrderLine = push({ ...trade, id: '999' });
    if (s === 30 && options.timeBackwards === true) backwardsLine = push({ type: 'mark', ts: ts + 100, symbol: BTC, price: '99990' });
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { ...flaws, gapLine, duplicateLine, outOfOrderLine, backwardsLine };
}
