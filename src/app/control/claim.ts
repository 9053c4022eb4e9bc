import { z } from 'zod';
import type { Decimal } from '../../core/decimal.js';
import { parseDecimal } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import type { PositionSide } from '../../model/instrument.js';
import type { Caller, ControlReply } from './server.js';

/**
 * POST /control/strategies/{id}/claim {symbol, side, qty?}: what the external ledger holds on a symbol
 * side (all of it, or `qty` contracts) becomes the strategy's. 200 with the claim, 400 for a bad body,
 * 404 for an unknown strategy or symbol, 409 when the external ledger holds nothing there.
 */
export interface ClaimTarget {
  claim(strategyId: string, request: ClaimRequest, by: Caller): Result<ClaimView, { readonly code: string; readonly message: string }>;
}

export interface ClaimRequest {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty?: Decimal;
}

export interface ClaimView {
  readonly strategy: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: string;
  readonly price: string;
}

export const CLAIM_PATH = /^\/strategies\/([^/]+)\/claim$/;

const claimBody = z.strictObject({
  symbol: z.string().trim().min(1).max(64),
  side: z.enum(['LONG', 'SHORT']),
  qty: z
    .string()
    .refine((text) => parseDecimal(text)?.gt(0) === true, 'a positive decimal in contracts, as a string')
    .optional(),
});

export function claimRoute(target: ClaimTarget, strategyId: string, body: unknown, caller: Caller): ControlReply {
  const parsed = claimBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return { status: 400, body: { error: `${where}${issue?.message ?? 'invalid body'}` } };
  }
  const qty = parsed.data.qty === undefined ? undefined : parseDecimal(parsed.data.qty);
  const request: ClaimRequest = { symbol: parsed.data.symbol, side: parsed.data.side, ...(qty === undefined ? {} : { qty }) };
  const claimed = target.claim(strategyId, request, caller);
  if (claimed.ok) return { status: 200, body: { claim: claimed.value } };
  const status = claimed.error.code === 'NOTHING_TO_CLAIM' ? 409 : 404;
  return { status, body: { error: claimed.error.message, code: claimed.error.code } };
}
