import { z } from 'zod';
import { dec, decimalParam, KLINE_INTERVALS } from 'stratd/strategy';

export const trendParams = z
  .object({
    /** Kline interval the averages and the ATR are computed on. */
    interval: z.enum(KLINE_INTERVALS).default('1m'),
    /** EMA periods (klines): a golden cross (fast above slow) goes long, a death cross short. */
    fastPeriod: z.number().int().positive().default(9),
    slowPeriod: z.number().int().positive().default(21),
    atrPeriod: z.number().int().positive().default(14),
    /** Stop-loss and take-profit distances from the entry, in ATRs. */
    slMultiple: decimalParam({ positive: true }).default(dec(2)),
    tpMultiple: decimalParam({ positive: true }).default(dec(3)),
    /** Quote amount (margin asset) lost when the stop-loss fires: sizes each entry. */
    riskPerTrade: decimalParam({ positive: true }).default(dec(10)),
    /** Largest position (contracts) on either side; an entry is cut to it. */
    maxPosition: decimalParam({ positive: true }).default(dec(100)),
    /** False: a death cross only closes a long. */
    allowShort: z.boolean().default(true),
    /** Price the exchange watches for the TP/SL triggers. */
    triggerBy: z.enum(['CONTRACT_PRICE', 'MARK_PRICE']).default('MARK_PRICE'),
    /** On stop, close the positions at market (their TP/SL go with them) instead of leaving them to TP/SL. */
    closeOnStop: z.boolean().default(false),
  })
  .strict()
  .refine((p) => p.fastPeriod < p.slowPeriod, { message: 'fastPeriod must be below slowPeriod', path: ['fastPeriod'] });

export type TrendParams = z.output<typeof trendParams>;
