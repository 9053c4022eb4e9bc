import { z } from 'zod';
import { dec, decimalParam } from 'stratd/strategy';

export const marketMakerParams = z
  .object({
    /** Contracts per quote. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** Quotes per side. */
    levels: z.number().int().min(1).max(10).default(2),
    /** Distance of the first quote from the (skewed) reference, in basis points. */
    halfSpreadBps: z.number().positive().default(5),
    /** Extra distance of each further level, in basis points. */
    levelSpacingBps: z.number().positive().default(5),
    /** Quote around the mid of the book or around the mark price. */
    reference: z.enum(['mid', 'mark']).default('mid'),
    /** At an inventory of maxInventory both sides shift this many basis points against it (proportionally below). */
    skewBps: z.number().nonnegative().default(5),
    /** A quote further than this from its target (basis points) is moved. */
    requoteBps: z.number().positive().default(3),
    /** Net position (contracts) beyond which no quote may grow it. */
    maxInventory: decimalParam({ positive: true }).default(dec(10)),
    /** Without market data for this long every quote is cancelled until data comes back. */
    staleAfterMs: z.number().int().positive().default(10_000),
  })
  .strict();

export type MarketMakerParams = z.output<typeof marketMakerParams>;
