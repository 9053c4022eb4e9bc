import { invariant } from '../../core/errors.js';
import type { AccountRef, SimReject, SimResult } from '../engine/types.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { RouteContext, RouteReply } from '../server/routing/types.js';
import { routeError, routeOk } from '../server/routing/types.js';
import { ParamReader } from './param-reader.js';
import { requestSource } from './param-source.js';
import { rejects } from './rejects.js';

/** The futures account a signed call acts on: the key's user, in the requested category. */
export function accountOf(ctx: RouteContext): AccountRef {
  invariant(ctx.caller !== undefined, 'SIM_ROUTE_UNSIGNED', 'a trading route ran without an authenticated caller');
  return { userId: ctx.caller.userId, category: ctx.category };
}

/** Parameters of a single-order route: the JSON object body first, then query and form. */
export function readerOf(ctx: RouteContext): ParamReader {
  return new ParamReader(requestSource(ctx));
}

export function refused(reject: SimReject): RouteReply {
  return routeError(reject.code, reject.msg);
}

/** The rendered value, or the refusal as `{code, msg}`. */
export function replyWith<T>(result: SimResult<T>, render: (value: T) => unknown): RouteReply {
  return result.ok ? routeOk(render(result.value)) : refused(result.error);
}

/** Only the instrument lookup of the venue: what parameter checks need. */
export type InstrumentLookup = Pick<SimVenue, 'instrument'>;

/** A listed contract of the call's category, or the refusal: unknown -1121, other category -1213. */
export function checkSymbol(venue: InstrumentLookup, category: AccountRef['category'], symbol: string): SimReject | undefined {
  const instrument = venue.instrument(symbol);
  if (instrument === undefined) return rejects.badSymbol();
  return instrument.category === category ? undefined : rejects.symbolNotInCategory();
}

/** Reads and checks `symbol`; required unless told otherwise ("" and absent mean "all" then). */
export function readSymbol(r: ParamReader, venue: InstrumentLookup, category: AccountRef['category'], required = true): string | undefined {
  const symbol = required ? r.requiredText('symbol') : r.text('symbol');
  if (symbol === undefined || r.failure !== undefined) return symbol;
  const problem = checkSymbol(venue, category, symbol);
  if (problem !== undefined) r.fail(problem);
  return symbol;
}

/** A required comma-separated symbol list (batch cancels); every entry must be listed. */
export function readSymbolList(r: ParamReader, venue: InstrumentLookup, category: AccountRef['category']): readonly string[] {
  const text = r.requiredText('symbol');
  if (r.failure !== undefined) return [];
  const symbols = text.split(',').map((s) => s.trim());
  if (symbols.some((s) => s === '')) {
    r.fail(rejects.invalid('symbol'));
    return [];
  }
  for (const symbol of symbols) {
    const problem = checkSymbol(venue, category, symbol);
    if (problem !== undefined) r.fail(problem);
  }
  return symbols;
}
