import { z } from 'zod';
import { faultSettingsSchema } from './fault-settings.js';

const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'a non-negative decimal as text, e.g. "10000"');
const idText = z.string().regex(/^\d{1,19}$/, 'a numeric id as text');

/** Opening balances of one user, per account family and coin. */
const balancesSchema = z
  .object({
    MAIN: z.record(z.string(), decimalText).default({}),
    FUTURES: z.partialRecord(z.enum(['USDT', 'USDC']), decimalText).default({}),
    COPY_TRADING: z.record(z.string(), decimalText).default({}),
  })
  .strict();

const userSchema = z
  .object({
    userId: idText,
    email: z.email(),
    remark: z.string().default(''),
    /** A sub-user names its parent; a parent has none. */
    parentUserId: idText.optional(),
    balances: balancesSchema.prefault({}),
  })
  .strict();

/**
 * An API key of the simulator. These are simulator credentials, printed by `stratd sim --json`;
 * they are written in the sim config on purpose (unlike exchange credentials).
 */
const keySchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a short lowercase name such as trader or read-only'),
    apiKey: z.string().min(16).max(128),
    secret: z.string().min(16).max(128),
    userId: idText,
    readOnly: z.boolean().default(false),
    accountType: z.enum(['FUTURES', 'COPY_TRADING']).default('FUTURES'),
  })
  .strict();

const leaderSchema = z
  .object({
    leaderUserId: idText,
    nickname: z.string().min(1),
    symbols: z.array(z.string()).min(1),
    marginType: z.enum(['CROSS', 'ISOLATED']).default('CROSS'),
    leverage: z.number().int().min(1).max(125).default(10),
    /** Mean time between a leader's trading decisions. */
    meanDecisionIntervalMs: z.number().int().min(1000).default(600_000),
    /** Leader's own margin balance, for the leaders list. */
    marginBalance: decimalText.default('10000'),
  })
  .strict();

export const simConfigSchema = z
  .object({
    /** Same seed and same start time: the same market, byte for byte. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).default(1),
    host: z.string().default('127.0.0.1'),
    /** 0 picks a free port. */
    port: z.number().int().min(0).max(65_535).default(8901),
    market: z
      .object({
        /** Symbols to list (the built-in instruments); all by default. */
        symbols: z.array(z.string()).optional(),
        /** Replay a recorded market stream instead of generating one. */
        replay: z.string().min(1).optional(),
        depthIntervalMs: z.number().int().min(10).optional(),
        depthLevels: z.number().int().min(20).max(500).optional(),
        /** Candles kept per interval (default 10 080, a week of minutes); below 1440 the 24 h tickers cover only what is kept. */
        klineRetention: z.number().int().min(60).optional(),
        /**
         * How far before its start the generated market begins, in ms (default 60 000): the history its
         * klines, mark and index klines and funding history are served over (`stratd sim --history 6h`).
         * Generating it takes time at start-up (roughly a second per few hours of one symbol).
         */
        historyMs: z.number().int().min(60_000).max(30 * 86_400_000).optional(),
      })
      .strict()
      .prefault({}),
    users: z.array(userSchema).min(1),
    keys: z.array(keySchema).min(1),
    catalog: z.object({ token: z.string().min(16) }).strict(),
    admin: z.object({ token: z.string().min(16) }).strict(),
    faults: faultSettingsSchema.prefault({}),
    /**
     * The exchange's request budgets (API-NOTES §2: 3000 weight a minute, 60 orders in 2 s, a 2-minute IP
     * ban after more than 10 rejections), each replaced where given: a venue for a client driven faster
     * than the wall clock (a daemon in virtual time) or for a higher tier.
     */
    rateLimits: z
      .object({
        weightLimit: z.number().int().min(1),
        weightWindowMs: z.number().int().min(1),
        ordersLimit: z.number().int().min(1),
        ordersWindowMs: z.number().int().min(1),
        banAfterRejections: z.number().int().min(1),
        banMs: z.number().int().min(0),
      })
      .partial()
      .strict()
      .optional(),
    /**
     * How long finished orders, plan rows, user trades and balance flows stay queryable (API-NOTES §4.5:
     * about two weeks), and at most how many of each (trades: per account); the oldest go first.
     */
    history: z
      .object({
        maxAgeMs: z.number().int().min(60_000).default(14 * 86_400_000),
        maxRecords: z.number().int().min(100).default(20_000),
      })
      .strict()
      .prefault({}),
    copyTrading: z
      .object({ leaders: z.array(leaderSchema).default([]) })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((config, ctx) => {
    const users = new Set(config.users.map((u) => u.userId));
    config.users.forEach((u, i) => {
      if (u.parentUserId !== undefined && !users.has(u.parentUserId)) {
        ctx.addIssue({ code: 'custom', path: ['users', i, 'parentUserId'], message: `no user ${u.parentUserId} in users` });
      }
    });
    config.keys.forEach((k, i) => {
      if (!users.has(k.userId)) ctx.addIssue({ code: 'custom', path: ['keys', i, 'userId'], message: `no user ${k.userId} in users` });
    });
    const names = new Set<string>();
    config.keys.forEach((k, i) => {
      if (names.has(k.name)) ctx.addIssue({ code: 'custom', path: ['keys', i, 'name'], message: `duplicate key name ${k.name}` });
      names.add(k.name);
    });
  });

export type SimConfig = z.output<typeof simConfigSchema>;
export type SimUserConfig = SimConfig['users'][number];
export type SimKeyConfig = SimConfig['keys'][number];
export type SimLeaderConfig = SimConfig['copyTrading']['leaders'][number];
