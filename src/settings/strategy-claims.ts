import { z } from 'zod';

/**
 * `strategies[].claims`: positions the external ledger holds (found at start, traded by hand) that
 * this strategy takes over after each start-up reconciliation. A symbol alone claims both sides.
 *
 *   claims:
 *     - BTC-SWAP-USDT
 *     - { symbol: ETH-SWAP-USDT, sides: [LONG] }
 */
const claimSchema = z
  .union([
    z.string().min(1),
    z.strictObject({ symbol: z.string().min(1), sides: z.array(z.enum(['LONG', 'SHORT'])).min(1).default(['LONG', 'SHORT']) }),
  ])
  .transform((c) => (typeof c === 'string' ? { symbol: c, sides: ['LONG', 'SHORT'] as Array<'LONG' | 'SHORT'> } : c));

export const strategyClaimsSchema = z.array(claimSchema).default([]);

export type StrategyClaimSettings = z.output<typeof claimSchema>;

/** The ledger no strategy may be named after: what the account holds beyond the strategies. */
export const RESERVED_STRATEGY_IDS: readonly string[] = ['external'];
