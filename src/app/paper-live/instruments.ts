import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import { headerInstrument } from '../../recording/recorder/instruments.js';
import { tiersOf } from '../../recording/recorder/venue-hints.js';
import type { MarketApi } from '../../venue/api/market.js';
import { toInstrument } from '../../venue/port/instrument-mapping.js';

/**
 * The simulator's instruments for paper on the live market, from the real exchange's public
 * exchangeInfo: tick, contract multiplier, quantity step and bounds, and the regular risk tiers. Fee
 * rates are not published there: the configured ones, else the simulator's usual ones. Throws an
 * Error naming the problem (the exchange unreachable, a symbol it does not list or that cannot be
 * traded safely): paper trading cannot start without them. `initialPrice` (what the simulator's market
 * data shows before the first event) is the contract's current mark price, a published price.
 */
export async function liveInstruments(
  market: Pick<MarketApi, 'exchangeInfo' | 'markPrice'>,
  symbols: readonly string[],
  fees: { readonly maker: string; readonly taker: string } | undefined,
  baseUrl: string,
): Promise<{ readonly instruments: readonly SimInstrument[]; readonly indexTokens: ReadonlyMap<string, string> }> {
  const info = await market.exchangeInfo();
  if (!info.ok) throw new Error(`the live market's exchangeInfo failed (${baseUrl}): ${info.error.message}`);
  const out: SimInstrument[] = [];
  const indexTokens = new Map<string, string>();
  for (const symbol of symbols) {
    const contract = info.value.contracts.find((c) => c.symbol === symbol);
    if (contract === undefined) throw new Error(`${symbol} is not a contract of ${baseUrl} (exchangeInfo)`);
    indexTokens.set(symbol, contract.indexToken);
    const instrument = toInstrument(contract);
    if (!instrument.ok) throw new Error(`${symbol} of ${baseUrl}: ${instrument.error}`);
    const riskLimits = tiersOf(contract.riskLimits);
    const hints = { ...(riskLimits.length === 0 ? {} : { riskLimits }), ...(fees === undefined ? {} : { makerFeeRate: fees.maker, takerFeeRate: fees.taker }) };
    const mark = await market.markPrice(symbol);
    if (!mark.ok || mark.value === undefined) throw new Error(`the live market's mark price of ${symbol} failed (${baseUrl}): ${mark.ok ? 'no row' : mark.error.message}`);
    out.push(headerInstrument(instrument.value, hints, mark.value.price).instrument);
  }
  return { instruments: out, indexTokens };
}
