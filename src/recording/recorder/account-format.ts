import { z } from 'zod';
import { Decimal, dec, decText } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { Position } from '../../model/account.js';
import type { AccountEvent } from '../../model/account-events.js';
import type { AlgoOrderSnapshot } from '../../model/orders.js';

/**
 * The account section of a recording: a sibling JSON Lines file (rec.account.jsonl next to
 * rec.jsonl, gzipped alike) holding the exchange's account events as the daemon saw them. Line 1:
 *   {"format":"stratd-account-stream","version":1,"market":"rec.jsonl","symbols":[…],"startTime":…,"source":"recorder"}
 * then one event per line, in the order the daemon received them (their times need not increase:
 * REST replies and stream events interleave):
 *   {"e":"order","t":…,"src":"stream","o":{…OrderSnapshot}}   {"e":"algo",…,"o":{…AlgoOrderSnapshot}}
 *   {"e":"fill",…,"f":{…Fill}}   {"e":"position",…,"p":{…Position}}   {"e":"balance",…,"b":{…Balance}}
 *   {"e":"funding",…,"u":{…FundingPayment}}
 * Payloads use the model's field names (quantities in contracts); decimals are exact plain text.
 */
export const ACCOUNT_STREAM_FORMAT = 'stratd-account-stream';
export const ACCOUNT_STREAM_VERSION = 1;

export interface AccountStreamHeader {
  readonly format: typeof ACCOUNT_STREAM_FORMAT;
  readonly version: typeof ACCOUNT_STREAM_VERSION;
  /** File name (no directory) of the market part this section belongs to. */
  readonly market: string;
  readonly symbols: readonly string[];
  readonly startTime: number;
  readonly source: 'recorder';
}

export function encodeAccountHeader(header: AccountStreamHeader): string {
  const { format, version, market, symbols, startTime, source } = header;
  return JSON.stringify({ format, version, market, symbols, startTime, source });
}

export const accountHeaderSchema = z.object({
  format: z.literal(ACCOUNT_STREAM_FORMAT),
  version: z.literal(ACCOUNT_STREAM_VERSION),
  market: z.string(),
  symbols: z.array(z.string().min(1)),
  startTime: z.number().int().nonnegative(),
  source: z.literal('recorder'),
});

/** One event as its line (no line end). */
export function encodeAccountLine(event: AccountEvent): string {
  const head = { t: event.time, src: event.source };
  switch (event.type) {
    case 'account.order':
      return JSON.stringify({ e: 'order', ...head, o: plain(event.order) });
    case 'account.algo':
      return JSON.stringify({ e: 'algo', ...head, o: plain(event.order) });
    case 'account.fill':
      return JSON.stringify({ e: 'fill', ...head, f: plain(event.fill) });
    case 'account.position':
      return JSON.stringify({ e: 'position', ...head, p: plain(event.position) });
    case 'account.balance':
      return JSON.stringify({ e: 'balance', ...head, b: plain(event.balance) });
    case 'account.funding':
      return JSON.stringify({ e: 'funding', ...head, u: plain(event.funding) });
    default:
      return assertNever(event, 'account event');
  }
}

/** Decimals as plain text, recursively (Decimal's own toJSON may write exponents: "1e-7"). */
function plain(value: unknown): unknown {
  if (Decimal.isDecimal(value)) return decText(value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = plain(v);
  return out;
}

const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'expected decimal text')
  .transform((text) => dec(text));
const epochMs = z.number().int().nonnegative();
const side = z.enum(['BUY', 'SELL']);
const positionSide = z.enum(['LONG', 'SHORT']);
const source = z.enum(['stream', 'rest']);

const orderSchema = z.object({
  symbol: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  side,
  positionSide,
  type: z.enum(['LIMIT', 'MARKET']),
  timeInForce: z.enum(['GTC', 'IOC', 'FOK', 'POST_ONLY']),
  price: decimal,
  quantity: decimal,
  filledQty: decimal,
  avgPrice: decimal,
  status: z.enum(['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED']),
  updateTime: epochMs,
});

const algoSchema = z.object({
  symbol: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  kind: z.enum(['PLAN', 'TAKE_PROFIT', 'STOP_LOSS']),
  side,
  positionSide,
  orderType: z.enum(['LIMIT', 'MARKET']),
  triggerPrice: decimal,
  triggerBy: z.enum(['CONTRACT_PRICE', 'MARK_PRICE']),
  price: decimal,
  quantity: decimal,
  trailing: z.object({ activePrice: decimal.optional(), callbackType: z.enum(['RATE', 'PRICE']), callbackValue: decimal, activated: z.boolean().optional() }).optional(),
  status: z.enum(['ORDER_NEW', 'ORDER_FILLED', 'ORDER_CANCELED', 'ORDER_REJECTED', 'ORDER_FAILED', 'ORDER_NOT_EFFECTIVE']),
  executedOrderId: z.string().optional(),
  parentOrderId: z.string().optional(),
  updateTime: epochMs,
});

const fillSchema = z.object({
  symbol: z.string(),
  tradeId: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  side,
  positionSide,
  price: decimal,
  qty: decimal,
  fee: decimal,
  feeAsset: z.string(),
  isMaker: z.boolean(),
  realizedPnl: decimal,
  time: epochMs,
});

const positionSchema = z.object({
  symbol: z.string(),
  positionSide,
  qty: decimal,
  avgPrice: decimal,
  leverage: decimal,
  marginType: z.enum(['CROSS', 'ISOLATED']).optional(),
  margin: decimal,
  unrealizedPnl: decimal,
  realizedPnl: decimal,
  liquidationPrice: decimal.optional(),
  markPrice: decimal.optional(),
  updateTime: epochMs,
});

const balanceSchema = z.object({
  asset: z.string(),
  walletBalance: decimal,
  availableBalance: decimal,
  lockedMargin: decimal,
  unrealizedPnl: decimal,
  updateTime: epochMs,
});

const fundingSchema = z.object({
  flowId: z.string(),
  symbol: z.string(),
  asset: z.string(),
  amount: z.string().regex(/^-?\d+(\.\d+)?$/, 'expected decimal text').transform((text) => dec(text)),
  time: epochMs,
});

const head = { t: epochMs, src: source };

/** The reference definition of an account line, yielding the model event. */
export const accountLineSchema = z.discriminatedUnion('e', [
  z.object({ e: z.literal('order'), ...head, o: orderSchema }).transform((l): AccountEvent => ({ type: 'account.order', source: l.src, time: l.t, order: l.o })),
  z.object({ e: z.literal('algo'), ...head, o: algoSchema }).transform((l): AccountEvent => ({ type: 'account.algo', source: l.src, time: l.t, order: algoOf(l.o) })),
  z.object({ e: z.literal('fill'), ...head, f: fillSchema }).transform((l): AccountEvent => ({ type: 'account.fill', source: l.src, time: l.t, fill: l.f })),
  z.object({ e: z.literal('position'), ...head, p: positionSchema }).transform((l): AccountEvent => ({ type: 'account.position', source: l.src, time: l.t, position: positionOf(l.p) })),
  z.object({ e: z.literal('balance'), ...head, b: balanceSchema }).transform((l): AccountEvent => ({ type: 'account.balance', source: l.src, time: l.t, balance: l.b })),
  z.object({ e: z.literal('funding'), ...head, u: fundingSchema }).transform((l): AccountEvent => ({ type: 'account.funding', source: l.src, time: l.t, funding: l.u })),
]);

/** The event of a parsed line, or why it is not one. */
export function decodeAccountLine(raw: unknown): { readonly ok: true; readonly event: AccountEvent } | { readonly ok: false; readonly reason: string } {
  const parsed = accountLineSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? '' : `"${issue.path.map(String).join('.')}": `;
  return { ok: false, reason: `not a valid account event: ${path}${issue?.message ?? 'invalid'}` };
}

// Optional fields: absent in the model rather than present as undefined (exactOptionalPropertyTypes).

function algoOf(o: z.output<typeof algoSchema>): AlgoOrderSnapshot {
  const { trailing, executedOrderId, parentOrderId, ...rest } = o;
  return {
    ...rest,
    ...(trailing === undefined
      ? {}
      : {
          trailing: {
            callbackType: trailing.callbackType,
            callbackValue: trailing.callbackValue,
            ...(trailing.activePrice === undefined ? {} : { activePrice: trailing.activePrice }),
            ...(trailing.activated === undefined ? {} : { activated: trailing.activated }),
          },
        }),
    ...(executedOrderId === undefined ? {} : { executedOrderId }),
    ...(parentOrderId === undefined ? {} : { parentOrderId }),
  };
}

function positionOf(p: z.output<typeof positionSchema>): Position {
  const { marginType, liquidationPrice, markPrice, ...rest } = p;
  return {
    ...rest,
    ...(marginType === undefined ? {} : { marginType }),
    ...(liquidationPrice === undefined ? {} : { liquidationPrice }),
    ...(markPrice === undefined ? {} : { markPrice }),
  };
}
