import { z } from 'zod';
import { dec, decimalParam } from 'stratd/strategy';

export const gridParams = z
  .object({
    /** The price range of the grid; the grid stops when the reference price leaves it. */
    lower: decimalParam({ positive: true }),
    upper: decimalParam({ positive: true }),
    /** Price levels from lower to upper, both included: `levels - 1` cells of one buy and one sell. */
    levels: z.number().int().min(2).max(200).default(10),
    /** Equal price steps (arithmetic) or equal ratios (geometric) between levels. */
    spacing: z.enum(['arithmetic', 'geometric']).default('arithmetic'),
    /** long: buy low, sell higher; short: sell high, buy back lower; neutral: long below the start price, short above. */
    mode: z.enum(['long', 'short', 'neutral']).default('neutral'),
    /** Contracts per level. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** Largest position (contracts, per side) the grid may hold plus what its resting opening orders would add. */
    maxPosition: decimalParam({ positive: true }).default(dec(10)),
    /** The price compared with the range and levels: mid of the book, or the last trade. */
    reference: z.enum(['mid', 'last']).default('mid'),
    /** On leaving the range, also close what the grid holds (reduce-only MARKET). */
    closeOnExit: z.boolean().default(false),
    /** A stopped grid starts again once the price is back inside the range. */
    resumeOnReturn: z.boolean().default(false),
    /** Cancel the grid's orders when the strategy stops (false: they rest and are re-adopted at the next start). */
    cancelOnStop: z.boolean().default(true),
  })
  .strict()
  .refine((p) => p.upper.gt(p.lower), { message: 'upper must be above lower', path: ['upper'] });

export type GridParams = z.output<typeof gridParams>;
