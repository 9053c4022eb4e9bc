import type { Decimal } from '../../core/decimal.js';
import type { CopyPosition } from './position.js';
import { pnlAt } from './position-math.js';
import type { CloseReason } from './wire-codes.js';

/**
 * Has the copy reached a stop at `price` (the mark price) at `time`? Its unrealized PnL over its
 * initial margin is the rate: at or above stopProfitRate closes at once; at or below −stopLossRate
 * closes once it has stayed there stopLossDelay seconds (0: at once), the wait starting again when
 * the rate recovers. A rate of 0 is no stop. Keeps the copy's loss-crossing time up to date.
 */
export function stopReached(copy: CopyPosition, price: Decimal, time: number): CloseReason | undefined {
  const rate = pnlAt(copy.isLong, copy.quantity, copy.openPrice, price).div(copy.margin);
  if (copy.stopProfitRate.gt(0) && rate.gte(copy.stopProfitRate)) return 'STOP_PROFIT';
  if (copy.stopLossRate.gt(0) && rate.lte(copy.stopLossRate.neg())) {
    copy.lossCrossedSince ??= time;
    return time - copy.lossCrossedSince >= copy.stopLossDelaySeconds * 1000 ? 'STOP_LOSS' : undefined;
  }
  copy.lossCrossedSince = undefined;
  return undefined;
}
