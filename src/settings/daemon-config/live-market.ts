import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { DEPTH_LIMITS } from '../../protocol/market-params.js';
import { decimal } from '../../venue/wire/schema.js';
import type { ConfigError } from '../config-error.js';
import { exchangeSettingsSchema } from '../connection-settings.js';
import type { LiveMarketSettings } from './types.js';
import { locatedError, validateSection } from './locate.js';
import { valueAt, withoutKeys } from './secrets.js';
import { durationMs } from '../duration.js';
import type { YamlSource } from '../yaml-source.js';

/**
 * `sim.market: live` (paper on the live market): the embedded simulator's market is the real exchange's
 * public market data, polled from `exchange.baseUrl` without credentials. `sim.live` tunes the feed.
 */
export const simMarketSchema = z.enum(['simulated', 'live']).default('simulated');

const feeRate = decimal.refine((d) => d.gte(0) && d.lt(1), 'a fee rate from 0 to below 1 (0.0002 = 0.02%)');

export const liveMarketSchema = z
  .strictObject({
    /** Depth, trades, mark and index price of each symbol: one poll each this often. */
    every: durationMs({ min: 100, max: 60_000 }).default(1000),
    /** The funding rate (it changes slowly; the boundary itself needs no poll). */
    fundingEvery: durationMs({ min: 1000, max: 3_600_000 }).default(60_000),
    depthLimit: z
      .number()
      .int()
      .refine((n) => DEPTH_LIMITS.includes(n) && n > 0, `one of ${DEPTH_LIMITS.filter((n) => n > 0).join(', ')}`)
      .default(20),
    /** The paper account never fills against a book older than this: the book is withdrawn until a fresh one arrives. */
    maxBookAge: durationMs({ min: 200, max: 600_000 }).default(5000),
    /** The symbols to feed (default: every symbol of `market:` and of the strategies). */
    symbols: z.array(z.string().min(1)).min(1).optional(),
    /** The paper account's fee rates (the exchange publishes none on a public endpoint); default maker 0.0002, taker 0.0006. */
    fees: z.strictObject({ maker: feeRate, taker: feeRate }).optional(),
  })
  .superRefine((live, ctx) => {
    if (live.maxBookAge <= live.every) ctx.addIssue({ code: 'custom', path: ['maxBookAge'], message: 'must be longer than every (each depth poll refreshes the book)' });
  });

/** The keys of `exchange:` that only live trading reads: in paper mode on the live market they are ignored (with a warning). */
const KEY_FIELDS = ['apiKey', 'apiSecret', 'apiKeyFile', 'apiSecretFile', 'follower'] as const;

/**
 * The live market of a paper config: `exchange.baseUrl` (required; its key fields are listed in
 * `ignoredKeys`, never read) and `sim.live`. `live` is the validated `sim.live` section.
 */
export function liveMarketSettings(source: YamlSource, value: unknown, live: z.output<typeof liveMarketSchema>): Result<LiveMarketSettings, ConfigError> {
  const raw = valueAt(value, ['exchange']);
  if (raw === undefined || raw === null) {
    return err(locatedError(source, 'sim.market: live needs exchange.baseUrl: the exchange whose public market data drives the simulator (no API key is used)', ['sim', 'market']));
  }
  // As written (before ${NAME} interpolation, which leaves an unset variable of an unused section out).
  const ignoredKeys = KEY_FIELDS.filter((k) => valueAt(source.value, ['exchange', k]) !== undefined).map((k) => `exchange.${k}`);
  const settings = validateSection(source, exchangeSettingsSchema, withoutKeys(raw, KEY_FIELDS), ['exchange']);
  if (!settings.ok) return settings;
  const { baseUrl, timeoutMs, rateLimitShare } = settings.value;
  return ok({
    baseUrl,
    timeoutMs,
    rateLimitShare,
    everyMs: live.every,
    fundingEveryMs: live.fundingEvery,
    depthLimit: live.depthLimit,
    maxBookAgeMs: live.maxBookAge,
    ...(live.symbols === undefined ? {} : { symbols: live.symbols }),
    ...(live.fees === undefined ? {} : { fees: { maker: live.fees.maker.toFixed(), taker: live.fees.taker.toFixed() } }),
    ignoredKeys,
  });
}
