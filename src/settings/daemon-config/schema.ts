import { z } from 'zod';
import { DEPTH_LIMITS, klineInterval } from '../../protocol/market-params.js';
import { decimal } from '../../venue/wire/schema.js';
import { cronExpression } from './cron.js';
import { parseByteSize } from '../byte-size.js';
import { durationMs, durationOrOffMs } from '../duration.js';
import { notifySchema } from './notify.js';
import { protectionsSchema } from './protections.js';
import { signalsSchema } from './signals.js';
import { RESERVED_STRATEGY_IDS, strategyClaimsSchema } from '../strategy-claims.js';
import { liveMarketSchema, simMarketSchema } from './live-market.js';

/**
 * The daemon's YAML after `${NAME}` interpolation: every section except the venue-specific ones
 * (exchange, sim, catalog), which are validated per mode (daemon-config/venue.ts). Every object is
 * strict: an unknown key is a mistake with a location.
 */

export const modeSchema = z.enum(['paper', 'live']).default('paper');

const positiveDecimal = decimal.refine((d) => d.gt(0), 'must be greater than 0');
const percent = decimal.refine((d) => d.gt(0) && d.lte(100), 'a percentage greater than 0 and at most 100 (5 = 5%)');
const positiveInt = z.number().int().positive();

const riskShape = {
  maxPosition: positiveDecimal.optional(),
  maxNotional: positiveDecimal.optional(),
  maxLeverage: positiveDecimal.optional(),
  maxOpenOrders: positiveInt.optional(),
  maxOrdersPerMinute: positiveInt.optional(),
  priceBandPct: percent.optional(),
};
export const strategyRiskSchema = z.strictObject(riskShape);
export const globalRiskSchema = z.strictObject({ ...riskShape, dailyLossLimit: positiveDecimal.optional(), protections: protectionsSchema.optional() }).superRefine((risk, ctx) => {
  if (risk.dailyLossLimit !== undefined && risk.protections?.some((p) => p.kind === 'dailyLoss') === true) {
    ctx.addIssue({ code: 'custom', path: ['dailyLossLimit'], message: 'the daily loss limit is set twice: here and as a dailyLoss protection; keep one' });
  }
});

/** Market polls: at least every 100 ms, at most every day. */
const every = durationMs({ min: 100, max: 86_400_000 });
/**
 * How a channel is carried: `ws` (the public market socket, polling at `every` only while the socket is
 * down or the topic has been silent for `silentAfter`) or `poll`. Funding and open interest have no topic.
 */
const via = z.enum(['ws', 'poll']);
const silentAfter = durationMs({ min: 500, max: 600_000 });
const carried = (v: { readonly via?: 'ws' | 'poll' | undefined; readonly silentAfter?: number | undefined }): { via?: 'ws' | 'poll'; silentMs?: number } => ({
  ...(v.via === undefined ? {} : { via: v.via }),
  ...(v.silentAfter === undefined ? {} : { silentMs: v.silentAfter }),
});
const poll = z.strictObject({ every, via: via.optional(), silentAfter: silentAfter.optional() }).transform((p) => ({ everyMs: p.every, ...carried(p) }));
const pollOnly = z
  .strictObject({ every, via: z.literal('poll', { error: 'the exchange has no socket topic for this channel: poll only' }).optional() })
  .transform((p) => ({ everyMs: p.every }));

const marketSchema = z.strictObject({
  symbol: z.string().min(1),
  depth: z
    .strictObject({
      every,
      limit: z
        .number()
        .int()
        .refine((n) => DEPTH_LIMITS.includes(n), `one of ${DEPTH_LIMITS.join(', ')}`)
        .default(20),
      via: via.optional(),
      silentAfter: silentAfter.optional(),
    })
    .transform((d) => ({ everyMs: d.every, limit: d.limit, ...carried(d) }))
    .optional(),
  trades: poll.optional(),
  klines: z
    .strictObject({ every, intervals: z.array(klineInterval).min(1), via: via.optional(), silentAfter: silentAfter.optional() })
    .transform((k) => ({ everyMs: k.every, intervals: k.intervals, ...carried(k) }))
    .optional(),
  bookTicker: poll.optional(),
  ticker24h: poll.optional(),
  markPrice: poll.optional(),
  index: poll.optional(),
  fundingRate: pollOnly.optional(),
  openInterest: pollOnly.optional(),
});

const userStreamSchema = z
  .strictObject({
    pingEvery: durationMs({ min: 1000, max: 300_000 }).default(20_000),
    pongTimeout: durationMs({ min: 100, max: 300_000 }).default(10_000),
    backoff: z
      .strictObject({ initial: durationMs({ min: 10, max: 600_000 }).default(500), max: durationMs({ min: 10, max: 3_600_000 }).default(30_000) })
      .refine((b) => b.max >= b.initial, { message: 'max must not be below initial', path: ['max'] })
      .prefault({}),
  })
  .transform((u) => ({ pingEveryMs: u.pingEvery, pongTimeoutMs: u.pongTimeout, backoff: { initialMs: u.backoff.initial, maxMs: u.backoff.max } }));

const jobsSchema = z.strictObject({
  listenKeyKeepalive: cronExpression.default('*/30 * * * *'),
  exchangeInfoRefresh: cronExpression.default('0 * * * *'),
  reconcile: cronExpression.default('*/5 * * * *'),
  dailyReset: cronExpression.default('0 0 * * *'),
  catalogSync: cronExpression.optional(),
});

const strategySchema = z.strictObject({
  id: z
    .string()
    .max(32, 'at most 32 characters (it is part of client order ids)')
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes, such as mm-btc')
    .refine((id) => !RESERVED_STRATEGY_IDS.includes(id), 'reserved: the external ledger holds what no strategy owns'),
  module: z.string().regex(/^([A-Za-z0-9][\w-]*|\.{1,2}\/.+|\/.+)$/, 'the name of a folder in strategies/, or a path (./my-strategy.js) relative to this file'),
  symbols: z.array(z.string().min(1)).min(1),
  params: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((p) => p ?? {}),
  risk: strategyRiskSchema.prefault({}),
  enabled: z.boolean().default(true),
  claims: strategyClaimsSchema,
}).superRefine((s, ctx) => {
  for (const [i, claim] of s.claims.entries()) {
    if (!s.symbols.includes(claim.symbol)) ctx.addIssue({ code: 'custom', path: ['claims', i], message: `${claim.symbol} is not among the strategy's symbols` });
  }
});

const shutdownSchema = z
  .strictObject({ cancelOpenOrders: z.boolean().default(false), timeout: durationMs({ min: 100, max: 600_000 }).default(10_000) })
  .transform((s) => ({ cancelOpenOrders: s.cancelOpenOrders, timeoutMs: s.timeout }));

const byteSize = z
  .union([z.string(), z.number().int().positive()])
  .transform((raw, ctx): number => {
    const bytes = typeof raw === 'number' ? raw : parseByteSize(raw);
    if (bytes === undefined || bytes <= 0) {
      ctx.addIssue({ code: 'custom', message: 'a size such as 100MB, 512KB or 1GB' });
      return z.NEVER;
    }
    return bytes;
  });

/** `record:` of `stratd run`: every market event the sources see (and the account's events) to a file. */
const recordSchema = z
  .strictObject({
    out: z.string().min(1),
    gzip: z.boolean().default(false),
    existing: z.enum(['refuse', 'overwrite', 'next']).default('next'),
    rotate: z.strictObject({ size: byteSize.optional(), every: durationMs({ min: 60_000, max: 7 * 86_400_000 }).optional() }).optional(),
    account: z.boolean().default(true),
    flushEvery: durationMs({ min: 100, max: 60_000 }).default(1000),
    reorderWindow: durationMs({ min: 0, max: 60_000 }).default(3000),
    fees: z.strictObject({ maker: decimal, taker: decimal }).optional(),
  })
  .transform((r) => ({
    out: r.out,
    gzip: r.gzip,
    existing: r.existing,
    ...(r.rotate === undefined ? {} : { rotate: { ...(r.rotate.size === undefined ? {} : { sizeBytes: r.rotate.size }), ...(r.rotate.every === undefined ? {} : { everyMs: r.rotate.every }) } }),
    account: r.account,
    flushEveryMs: r.flushEvery,
    reorderMs: r.reorderWindow,
    ...(r.fees === undefined ? {} : { fees: { maker: r.fees.maker.toFixed(), taker: r.fees.taker.toFixed() } }),
  }));

const port = z.number().int().min(0).max(65_535);

/** `health:`, the health, metrics and control server (also read alone by `stratd status` and the other control commands). */
export const healthSchema = z
  .strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: port.default(9464),
    /** Host names (besides loopback and the bound address) requests may name in their Host header. */
    allowedHosts: z.array(z.string().min(1)).default([]),
    maxConnections: z.number().int().min(1).max(10_000).default(64),
    maxConnectionsPerAddress: z.number().int().min(1).max(10_000).default(16),
    /** PEM files (relative to the config file): the server speaks HTTPS. */
    tls: z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
  })
  .prefault({});

export const daemonFileSchema = z.strictObject({
  mode: modeSchema,
  stateDir: z.string().min(1).optional(),
  /** Validated per mode: live only. */
  exchange: z.unknown().optional(),
  /** Validated per mode: paper only. */
  sim: z.unknown().optional(),
  catalog: z.unknown().optional(),
  market: z.array(marketSchema).default([]),
  userStream: userStreamSchema.prefault({}),
  jobs: jobsSchema.prefault({}),
  risk: globalRiskSchema.prefault({}),
  strategies: z.array(strategySchema).default([]),
  orphans: z.enum(['adopt', 'cancel']).default('adopt'),
  shutdown: shutdownSchema.prefault({}),
  /**
   * Either way a journal commit reaches the operating system before the order it records is sent (it
   * survives stratd crashing or being killed). `disk` (default) also fsyncs it: one fsync for a turn's
   * commits on a worker thread beside the send (store/group-commit.ts). `os` leaves the fsync to
   * SQLite's checkpoints (a machine losing power can lose the last commits).
   */
  journal: z.strictObject({ durability: z.enum(['disk', 'os']).default('disk') }).prefault({}),
  health: healthSchema,
  follower: z.strictObject({ key: z.string().min(1).optional() }).optional(),
  record: recordSchema.optional(),
  /** Notifications to webhooks, Slack, Discord, Telegram (daemon-config/notify.ts). */
  notify: notifySchema.optional(),
  /** The external-signal endpoint (daemon-config/signals.ts). */
  signals: signalsSchema.optional(),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** The trade log's summary line per strategy: every this long, `0`/`off` for none. */
      summaryEvery: durationOrOffMs({ min: 1000, max: 86_400_000 }).default(60_000),
    })
    .prefault({}),
});
export type DaemonFile = z.output<typeof daemonFileSchema>;

/** `sim:` (paper mode). */
export const simSectionSchema = z
  .strictObject({
    /** The simulator's YAML, relative to the daemon's YAML. */
    config: z.string().min(1).optional(),
    key: z.string().min(1).default('trader'),
    port: port.default(0),
    tickMs: z.number().int().min(10).max(60_000).optional(),
    /** `live`: the real exchange's public market (exchange.baseUrl) instead of the simulator's own (daemon-config/live-market.ts). */
    market: simMarketSchema,
    live: liveMarketSchema.optional(),
  })
  .prefault({});

/** `exchange.follower:` (live mode): the copy-trading account's credentials, by reference or file. */
export const followerCredentialsSchema = z.strictObject({
  apiKey: z.string().optional(),
  apiSecret: z.string().optional(),
  apiKeyFile: z.string().min(1).optional(),
  apiSecretFile: z.string().min(1).optional(),
});
