import { z } from 'zod';
import { dec, decimalParam } from 'stratd/strategy';

export const signalParams = z
  .object({
    /** Contracts of an opening order whose signal names no quantity. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** A buy while short (a sell while long) first closes the opposite side at market. */
    closeOpposite: z.boolean().default(true),
  })
  .strict();

export type SignalParams = z.output<typeof signalParams>;
