import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { decimalParam } from '../../engine/strategy/params.js';
import type { ExternalSignal } from '../../model/signal-events.js';

/**
 * The JSON a sender posts to /signals (README "External signals"). Written so that a TradingView alert
 * message can be it: placeholders like {{strategy.order.action}} ("buy"/"sell"),
 * {{strategy.order.contracts}}, {{strategy.market_position}} ("long"/"short"/"flat") and {{timenow}}
 * (ISO time) fill its fields as they are. Words are case-insensitive.
 */
const word = <T extends string>(values: readonly [T, ...T[]]) =>
  z.preprocess((raw) => (typeof raw === 'string' ? raw.trim().toLowerCase().replace(/_/g, '-') : raw), z.enum(values));

const timestamp = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .trim()
    .min(1)
    .transform((text, ctx): number => {
      const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
      if (!Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: `expected epoch milliseconds or an ISO time, got ${JSON.stringify(text)}` });
        return z.NEVER;
      }
      return ms;
    }),
]);

export const signalBodySchema = z
  .strictObject({
    /** Idempotency key: a signal with a key already seen is answered with the first answer, never traded again. */
    id: z.string().trim().min(1).max(128),
    /** The `signal` strategy instance (its `id:` in the YAML). */
    strategy: z.string().trim().min(1).max(32),
    symbol: z.string().trim().min(1).max(64),
    action: word(['buy', 'sell', 'close', 'close-long', 'close-short']),
    quantity: decimalParam({ positive: true }).optional(),
    orderType: word(['market', 'limit']).default('market'),
    price: decimalParam({ positive: true }).optional(),
    takeProfit: decimalParam({ positive: true }).optional(),
    stopLoss: decimalParam({ positive: true }).optional(),
    marketPosition: word(['long', 'short', 'flat']).optional(),
    /** When the sender sent it: required with a token (a signed request's timestamp is its header). */
    timestamp: timestamp.optional(),
    /** Only risk-check, never send. */
    dryRun: z.boolean().default(false),
    /** The secret, for senders that cannot sign (signals.allowToken). */
    token: z.string().optional(),
    comment: z.string().max(500).optional(),
  })
  .refine((b) => b.orderType !== 'limit' || b.price !== undefined, { message: 'a limit order needs a price', path: ['price'] });

export type SignalBody = z.output<typeof signalBodySchema>;

/** The body as JSON text → a validated body, or one readable line naming the field. */
export function parseSignalBody(text: string): Result<SignalBody, string> {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return err('the body is not JSON');
  }
  const parsed = signalBodySchema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return err(`${where}${issue?.message ?? 'invalid signal'}`);
}

/** The token field of a body, read before validation (authentication comes first). */
export function bodyToken(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === 'object' && json !== null && 'token' in json && typeof json.token === 'string') return json.token;
  } catch {
    return undefined;
  }
  return undefined;
}

/** The domain signal of a body whose timestamp passed the replay window. */
export function toSignal(body: SignalBody, sentAt: number): ExternalSignal {
  return {
    key: body.id,
    symbol: body.symbol,
    action: body.action,
    orderType: body.orderType === 'limit' ? 'LIMIT' : 'MARKET',
    sentAt,
    ...(body.quantity === undefined ? {} : { quantity: body.quantity }),
    ...(body.price === undefined ? {} : { price: body.price }),
    ...(body.takeProfit === undefined ? {} : { takeProfit: body.takeProfit }),
    ...(body.stopLoss === undefined ? {} : { stopLoss: body.stopLoss }),
    ...(body.marketPosition === undefined ? {} : { marketPosition: body.marketPosition }),
    ...(body.comment === undefined ? {} : { comment: body.comment }),
  };
}
