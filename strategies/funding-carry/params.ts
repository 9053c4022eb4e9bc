import { z } from 'zod';
import { dec, decimalParam } from 'stratd/strategy';

export const carryParams = z
  .object({
    /** Funding rate (per funding interval, 0.0003 = 0.03%) at or above which it builds a short; at or below minus it, a long (allowLong). */
    entryRate: decimalParam({ positive: true }).default(dec('0.0003')),
    /** A short is closed once funding is at or below this; a long once it is at or above minus this. */
    exitRate: decimalParam().default(dec('0.0001')),
    /**
     * Basis filter, in basis points of the index: a short also needs (mark − index) / index ≥ this, a long
     * ≤ minus this. Absent: funding alone decides.
     */
    minPremiumBps: z.number().optional(),
    /** Contracts per entry order. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** Largest position (contracts) it builds, one entry order at a time. */
    maxPosition: decimalParam({ positive: true }).default(dec(10)),
    /** Wait after an entry filled, or was refused, before the next one (a re-quote does not wait). */
    addIntervalMs: z.number().int().nonnegative().default(60_000),
    /** A resting entry further than this from the touch is cancelled and placed again. */
    requoteBps: z.number().positive().default(5),
    /** Also carry longs when funding is negative. */
    allowLong: z.boolean().default(false),
    /** On stop, close its positions at market instead of keeping them. */
    closeOnStop: z.boolean().default(false),
  })
  .strict()
  .refine((p) => p.exitRate.lt(p.entryRate), { message: 'exitRate must be below entryRate', path: ['exitRate'] });

export type CarryParams = z.output<typeof carryParams>;
