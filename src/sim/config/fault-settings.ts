import { z } from 'zod';

const rate = z.number().min(0).max(1);

/**
 * Faults the simulator injects, from the sim config, the command line or the admin endpoint. Rates are
 * probabilities per request (or per stream event); all default to off. Each injected fault is counted
 * in the simulator's /metrics.
 */
export const faultSettingsSchema = z
  .object({
    /** Round trip of every REST request (half on the way in, half on the way out) plus a uniform jitter; user-stream events take the outbound half (no jitter). */
    latencyMs: z.number().int().min(0).max(60_000).default(0),
    latencyJitterMs: z.number().int().min(0).max(60_000).default(0),
    /** Answer HTTP 500/502/503 without executing the request. */
    http5xxRate: rate.default(0),
    /** Hold the connection without executing or answering, until the client gives up. */
    timeoutRate: rate.default(0),
    /** Execute the request, then never answer (the order exists; the client must reconcile). */
    lostReplyRate: rate.default(0),
    /** Which requests lose replies: every route, or only order routes (TRADE: place, cancel, amend, algo). */
    lostReplyRoutes: z.enum(['all', 'orders']).default('all'),
    /** Close user-stream and public market sockets at random, per delivered event (frame). */
    wsDropRate: rate.default(0),
    /** Cut every user-stream and public market socket after a uniform random time in [min, max] ms from its opening (null: never). */
    wsDropEveryMs: z
      .object({ min: z.number().int().min(100), max: z.number().int().min(100) })
      .strict()
      .refine((range) => range.min <= range.max, { message: 'min must not exceed max' })
      .nullable()
      .default(null),
    /** Deliver a user-stream event twice. */
    streamDuplicateRate: rate.default(0),
    /** Swap a user-stream event with the next one. */
    streamReorderRate: rate.default(0),
    /** Public market socket: lose a frame (a diffDepth loss is a sequence gap to the client). */
    marketFrameLossRate: rate.default(0),
    /** Public market socket: hold a frame back and send it after the next one. */
    marketFrameReorderRate: rate.default(0),
    /** Public market socket: the book sequence `o` of a symbol skips a number before a delta. */
    marketSeqGapRate: rate.default(0),
    /** Listen-key validity; shorter than 60 min means early expiry. */
    listenKeyTtlMs: z.number().int().min(1000).max(86_400_000).default(3_600_000),
    /** The server clock runs this far ahead (positive) or behind (negative) of the host clock. */
    clockSkewMs: z.number().int().min(-3_600_000).max(3_600_000).default(0),
    /** Share of the normal rate budgets granted (1 = the real limits; 0.1 squeezes them tenfold). */
    rateLimitShare: z.number().gt(0).max(1).default(1),
    /**
     * Answer a corrupted body instead of the real one (JSON cut short, every value of the wrong type, a
     * 1 MiB payload of the wrong shape, or text that is not JSON), per REST reply and per delivered
     * user-stream event. The request was executed, as with lostReplyRate: the client must reconcile.
     */
    garbageRate: rate.default(0),
  })
  .strict();

export type FaultSettings = z.output<typeof faultSettingsSchema>;
export type FaultSettingsInput = z.input<typeof faultSettingsSchema>;

export const NO_FAULTS: FaultSettings = faultSettingsSchema.parse({});
