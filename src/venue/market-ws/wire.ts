import { z } from 'zod';
import { bookLevelSchema, bookTickerSchema, markPriceSchema, ticker24hSchema } from '../parsers/market.js';
import { boolLike, decimal, epochMs, intLike, text } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';
import { BAD, isRecord, plainEpochMs } from '../wire/plain.js';

/**
 * Frames of the public market WebSocket (API-NOTES §8), read by the parsing rule: what stratd uses is
 * required, the rest ignored; numbers or strings; a bad row of a list is skipped and counted, never the
 * whole frame. Book levels are the exception: a book with a level stratd cannot read is not a book, so
 * such a snapshot or delta fails and the symbol is resynchronised.
 */

/** The envelope; `data` is read per topic. Kline frames say topic "kline" and carry the interval in `params.klineType`. */
export const envelopeSchema = z.object({
  topic: z.string(),
  symbol: z.string().optional(),
  params: z.object({ klineType: z.string().optional() }).optional(),
  data: z.unknown(),
  f: boolLike.optional(),
  sendTime: epochMs.optional(),
});
export type Envelope = z.output<typeof envelopeSchema>;

/**
 * A data frame's envelope in one plain pass (on the way to an order), by `envelopeSchema`'s rules into
 * the same value; undefined where that pass does not take it whole: the schema reads it then.
 */
export function readEnvelope(value: unknown): Envelope | undefined {
  if (!isRecord(value) || !('data' in value)) return undefined;
  const { topic, symbol, params, f, sendTime } = value;
  if (typeof topic !== 'string' || (symbol !== undefined && typeof symbol !== 'string')) return undefined;
  let klineType: string | undefined;
  if (params !== undefined) {
    if (!isRecord(params)) return undefined;
    const type = params['klineType'];
    if (type !== undefined && typeof type !== 'string') return undefined;
    klineType = type;
  }
  if (f !== undefined && typeof f !== 'boolean' && f !== 'true' && f !== 'false') return undefined;
  const time = sendTime === undefined ? undefined : plainEpochMs(sendTime);
  if (time === BAD) return undefined;
  const envelope: { -readonly [K in keyof Envelope]: Envelope[K] } = { topic, data: value['data'] };
  if (symbol !== undefined) envelope.symbol = symbol;
  if (params !== undefined) envelope.params = klineType === undefined ? {} : { klineType };
  if (f !== undefined) envelope.f = f === true || f === 'true';
  if (time !== undefined) envelope.sendTime = time;
  return envelope;
}

/** `{"code":"-100010","desc":"Invalid Symbols!"}`: the exchange refused a request; the socket stays open. */
export const errorFrameSchema = z.object({ code: text, desc: z.string().optional() });

/** `{"pong":…}` (the server clock live, not the echoed number). */
export const pongFrameSchema = z.object({ pong: z.unknown() });

/** One book frame: a snapshot (`f:true`, `o` 0) or a delta (changed levels at their new absolute size, `"0"` deletes). */
export const depthDataSchema = z
  .object({ t: epochMs, b: z.array(bookLevelSchema), a: z.array(bookLevelSchema), o: intLike.optional(), v: text.optional() })
  .transform((v) => ({ time: v.t, bids: v.b, asks: v.a, sequence: v.o ?? 0 }));
export type DepthData = z.output<typeof depthDataSchema>;
export const depthFrameDataSchema = z.array(depthDataSchema).min(1);

/** A socket trade: `m` true when the buyer took (so the buyer was not the maker). */
export const wsTradeSchema = z
  .object({ t: epochMs, p: decimal, q: decimal, m: boolLike, v: text.optional() })
  .transform((v) => ({ time: v.t, price: v.p, qty: v.q, isBuyerMaker: !v.m }));
export const wsTradesSchema = tolerantList(wsTradeSchema);

/** The forming candle of `kline_<interval>`: open time, OHLC and volume (contracts). */
export const wsKlineSchema = z
  .object({ t: epochMs, o: decimal, h: decimal, l: decimal, c: decimal, v: decimal })
  .transform((v) => ({ openTime: v.t, open: v.o, high: v.h, low: v.l, close: v.c, volume: v.v }));
export const wsKlinesSchema = tolerantList(wsKlineSchema);

export const wsTickersSchema = tolerantList(ticker24hSchema);

export const wsBookTickerSchema = bookTickerSchema;

/** Live: an object without top-level symbol; docs: a list of `{symbol, markPrice, time}`. Both are read (API-NOTES §8 RULE: live). */
export const wsMarkPriceSchema = z.union([
  markPriceSchema,
  z
    .array(z.object({ symbol: z.string(), markPrice: decimal, time: epochMs }))
    .min(1)
    .transform((rows, ctx) => {
      const row = rows.at(-1);
      if (row === undefined) {
        ctx.addIssue({ code: 'custom', message: 'no mark price row' });
        return z.NEVER;
      }
      return { symbolId: row.symbol, price: row.markPrice, time: row.time };
    }),
]);

/** `index` topic rows, by index token. */
export const wsIndexSchema = tolerantList(z.object({ symbol: z.string().optional(), index: decimal, t: epochMs.optional() }));
