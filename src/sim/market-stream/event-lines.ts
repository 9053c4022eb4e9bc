import { z } from 'zod';
import type { BarSource, MarketEvent, PriceLevel } from './events.js';
import { BAR_SOURCES, FUNDING_PERIODS } from './events.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { isArray } = Array;
const { isSafeInteger } = Number;

/**
 * One event per line, short stable keys, `e` naming the event:
 *   {"e":"depth","t":1757443224811,"s":"BTC-SWAP-USDT","b":[["111021.4","15224"]],"a":[["111021.5","45741"]]}
 *   {"e":"trade","t":1757443158362,"s":"BTC-SWAP-USDT","i":"1","p":"111054.8","q":"36","ibm":false}
 *   {"e":"mark","t":…,"s":…,"p":"111021.4"}   {"e":"index","t":…,"s":…,"p":"111019.9"}
 *   {"e":"funding","t":…,"s":…,"r":"0.0001","n":1757462400000,"pd":"8H"}
 *   {"e":"bar","t":openTime,"s":…,"k":"contract","d":60000,"o":"…","h":"…","l":"…","c":"…","v":"…"}
 * Keys follow the public wire where it has them (depth b/a, trade p/q/ibm, API-NOTES §5.2–5.3).
 */
export type EventLineObject =
  | { readonly e: 'depth'; readonly t: number; readonly s: string; readonly b: readonly PriceLevel[]; readonly a: readonly PriceLevel[] }
  | { readonly e: 'trade'; readonly t: number; readonly s: string; readonly i: string; readonly p: string; readonly q: string; readonly ibm: boolean }
  | { readonly e: 'mark' | 'index'; readonly t: number; readonly s: string; readonly p: string }
  | { readonly e: 'funding'; readonly t: number; readonly s: string; readonly r: string; readonly n: number; readonly pd: string }
  | {
      readonly e: 'bar';
      readonly t: number;
      readonly s: string;
      readonly k: BarSource;
      readonly d: number;
      readonly o: string;
      readonly h: string;
      readonly l: string;
      readonly c: string;
      readonly v: string;
    };

export function eventToLineObject(event: MarketEvent): EventLineObject {
  switch (event.type) {
    case 'depth':
      return { e: 'depth', t: event.ts, s: event.symbol, b: event.bids, a: event.asks };
    case 'trade':
      return { e: 'trade', t: event.ts, s: event.symbol, i: event.id, p: event.price, q: event.qty, ibm: event.buyerIsMaker };
    case 'mark':
    case 'index':
      return { e: event.type, t: event.ts, s: event.symbol, p: event.price };
    case 'funding':
      return { e: 'funding', t: event.ts, s: event.symbol, r: event.rate, n: event.nextFundingTime, pd: event.period };
    case 'bar':
      return { e: 'bar', t: event.ts, s: event.symbol, k: event.source, d: event.durationMs, o: event.open, h: event.high, l: event.low, c: event.close, v: event.volume };
  }
}

/**
 * The reader's per-line check after its one JSON.parse: plain type tests and a character scan of each
 * decimal, no allocation beyond the event itself (depth levels are used as parsed). Undefined when the
 * line is not a valid event; `explainBadEventLine` then says why. Agrees with `eventLineSchema`.
 */
export function decodeEventLine(raw: unknown): MarketEvent | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const line = raw as Record<string, unknown>;
  const ts = line['t'];
  const symbol = line['s'];
  if (!isEpochMs(ts) || typeof symbol !== 'string') return undefined;
  switch (line['e']) {
    case 'depth': {
      const bids = line['b'];
      const asks = line['a'];
      return isLevels(bids) && isLevels(asks) ? { type: 'depth', ts, symbol, bids, asks } : undefined;
    }
    case 'trade': {
      const id = line['i'];
      const price = line['p'];
      const qty = line['q'];
      const buyerIsMaker = line['ibm'];
      return typeof id === 'string' && isUnsignedDecimal(price) && isUnsignedDecimal(qty) && typeof buyerIsMaker === 'boolean'
        ? { type: 'trade', ts, symbol, id, price, qty, buyerIsMaker }
        : undefined;
    }
    case 'mark':
    case 'index': {
      const price = line['p'];
      return isUnsignedDecimal(price) ? { type: line['e'], ts, symbol, price } : undefined;
    }
    case 'funding': {
      const rate = line['r'];
      const nextFundingTime = line['n'];
      const period = line['pd'];
      return isSignedDecimal(rate) && isEpochMs(nextFundingTime) && (period === '8H' || period === '4H' || period === '1H')
        ? { type: 'funding', ts, symbol, rate, nextFundingTime, period }
        : undefined;
    }
    case 'bar':
      return decodeBar(line, ts, symbol);
    default:
      return undefined;
  }
}

const unsignedDecimal = z.string().refine(isUnsignedDecimal, 'expected unsigned decimal text');
const signedDecimal = z.string().refine(isSignedDecimal, 'expected decimal text');
const epochMs = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const levels = z.array(z.tuple([unsignedDecimal, unsignedDecimal]));
const common = { t: epochMs, s: z.string() };

/** The reference definition of an event line, as a zod schema yielding the domain event. */
export const eventLineSchema = z.discriminatedUnion('e', [
  z.object({ e: z.literal('depth'), ...common, b: levels, a: levels }).transform((l): MarketEvent => ({ type: 'depth', ts: l.t, symbol: l.s, bids: l.b, asks: l.a })),
  z
    .object({ e: z.literal('trade'), ...common, i: z.string(), p: unsignedDecimal, q: unsignedDecimal, ibm: z.boolean() })
    .transform((l): MarketEvent => ({ type: 'trade', ts: l.t, symbol: l.s, id: l.i, price: l.p, qty: l.q, buyerIsMaker: l.ibm })),
  z.object({ e: z.literal('mark'), ...common, p: unsignedDecimal }).transform((l): MarketEvent => ({ type: 'mark', ts: l.t, symbol: l.s, price: l.p })),
  z.object({ e: z.literal('index'), ...common, p: unsignedDecimal }).transform((l): MarketEvent => ({ type: 'index', ts: l.t, symbol: l.s, price: l.p })),
  z
    .object({ e: z.literal('funding'), ...common, r: signedDecimal, n: epochMs, pd: z.enum(FUNDING_PERIODS) })
    .transform((l): MarketEvent => ({ type: 'funding', ts: l.t, symbol: l.s, rate: l.r, nextFundingTime: l.n, period: l.pd })),
  z
    .object({
      e: z.literal('bar'),
      ...common,
      k: z.enum(BAR_SOURCES),
      d: epochMs.positive(),
      o: unsignedDecimal,
      h: unsignedDecimal,
      l: unsignedDecimal,
      c: unsignedDecimal,
      v: unsignedDecimal,
    })
    .transform((l): MarketEvent => ({ type: 'bar', ts: l.t, symbol: l.s, source: l.k, durationMs: l.d, open: l.o, high: l.h, low: l.l, close: l.c, volume: l.v })),
]);

function decodeBar(line: Record<string, unknown>, ts: number, symbol: string): MarketEvent | undefined {
  const source = line['k'];
  const durationMs = line['d'];
  const open = line['o'];
  const high = line['h'];
  const low = line['l'];
  const close = line['c'];
  const volume = line['v'];
  if (source !== 'contract' && source !== 'mark' && source !== 'index') return undefined;
  if (!isEpochMs(durationMs) || durationMs === 0) return undefined;
  if (!isUnsignedDecimal(open) || !isUnsignedDecimal(high) || !isUnsignedDecimal(low) || !isUnsignedDecimal(close) || !isUnsignedDecimal(volume)) return undefined;
  return { type: 'bar', ts, symbol, source, durationMs, open, high, low, close, volume };
}

/** Why a line is not an event, naming the first offending key (for error messages; not on the hot path). */
export function explainBadEventLine(raw: unknown): string {
  const parsed = eventLineSchema.safeParse(raw);
  if (parsed.success) return 'not a valid event';
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? '' : `"${issue.path.map(String).join('.')}": `;
  return `not a valid event: ${path}${issue?.message ?? 'invalid'}`;
}

function isEpochMs(value: unknown): value is number {
  return typeof value === 'number' && isSafeInteger(value) && value >= 0;
}

function isLevels(value: unknown): value is PriceLevel[] {
  if (!isArray(value)) return false;
  for (const level of value as unknown[]) {
    if (!isArray(level) || level.length !== 2 || !isUnsignedDecimal(level[0]) || !isUnsignedDecimal(level[1])) return false;
  }
  return true;
}

export function isSignedDecimal(value: unknown): value is string {
  return typeof value === 'string' && scanDecimal(value, value.charCodeAt(0) === 45 ? 1 : 0);
}

export function isUnsignedDecimal(value: unknown): value is string {
  return typeof value === 'string' && scanDecimal(value, 0);
}

/** digits[.digits] from `start` to the end. */
function scanDecimal(text: string, start: number): boolean {
  const length = text.length;
  let i = start;
  let digits = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return false;
    digits++;
  }
  if (digits === 0) return false;
  if (i === length) return true;
  if (++i === length) return false;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
