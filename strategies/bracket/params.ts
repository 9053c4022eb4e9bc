import { z } from 'zod';
import { dec, decimalParam } from 'stratd/strategy';

export const bracketParams = z
  .object({
    /** Stop-loss distance from the position's average entry price, in percent; 0: none. */
    stopLossPct: decimalParam({ min: 0, max: 99 }).default(dec(1)),
    /** Take-profit distance from the average entry price, in percent; 0: none. */
    takeProfitPct: decimalParam({ min: 0 }).default(dec(2)),
    /** Trailing stop: distance from the best price since entry, in percent; 0: off. */
    trailingStopPct: decimalParam({ min: 0, max: 99 }).default(dec(0)),
    /** The trailing stop starts once the price is this many percent in profit from the entry. */
    trailingActivationPct: decimalParam({ min: 0 }).default(dec(0)),
    /** The trailing stop is moved only when it improves by at least this many percent of the price. */
    trailingStepPct: decimalParam({ positive: true }).default(dec('0.05')),
    /** The price the stops trigger on (and the guard compares with). */
    triggerBy: z.enum(['MARK_PRICE', 'CONTRACT_PRICE']).default('MARK_PRICE'),
    /** A stop already passed by the price (it could not be placed) closes the position at market. */
    closeOnBreach: z.boolean().default(true),
    /** Cancel the guard's stops when the strategy stops (false: they stay and are re-adopted at the next start). */
    cancelOnStop: z.boolean().default(true),
  })
  .strict()
  .refine((p) => p.stopLossPct.gt(0) || p.takeProfitPct.gt(0) || p.trailingStopPct.gt(0), {
    message: 'set at least one of stopLossPct, takeProfitPct and trailingStopPct',
    path: ['stopLossPct'],
  });

export type BracketParams = z.output<typeof bracketParams>;
