import type { Decimal } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { PositionSide, Side, TimeInForce } from '../../model/instrument.js';
import type { OrderStatus } from '../../model/orders.js';
import type { OrderStatus as WireStatus, SideV1, TimeInForce as WireTimeInForce } from '../../protocol/wire-enums.js';

/** Wire vocabulary → the kernel's: one mapping for REST rows and user-stream frames alike. */

/** v1 sides combine direction and open/close (API-NOTES §6.3). */
export function sideOfV1(side: SideV1): { readonly side: Side; readonly positionSide: PositionSide } {
  switch (side) {
    case 'BUY_OPEN':
      return { side: 'BUY', positionSide: 'LONG' };
    case 'SELL_OPEN':
      return { side: 'SELL', positionSide: 'SHORT' };
    case 'BUY_CLOSE':
      return { side: 'BUY', positionSide: 'SHORT' };
    case 'SELL_CLOSE':
      return { side: 'SELL', positionSide: 'LONG' };
    default:
      return assertNever(side, 'v1 side');
  }
}

/** LIMIT_MAKER is the v1 clients' name for POST_ONLY. */
export function timeInForceOf(tif: WireTimeInForce): TimeInForce {
  return tif === 'LIMIT_MAKER' ? 'POST_ONLY' : tif;
}

/** PENDING_CANCEL is still working; PARTIALLY_CANCELED (JKORF) is a cancel after fills. Plan states do not belong here. */
export function regularStatus(status: WireStatus, filled: Decimal): OrderStatus | undefined {
  switch (status) {
    case 'PENDING_NEW':
    case 'NEW':
    case 'PARTIALLY_FILLED':
    case 'FILLED':
    case 'CANCELED':
    case 'REJECTED':
      return status;
    case 'PENDING_CANCEL':
      // Still on the book until the cancel lands.
      return filled.gt(0) ? 'PARTIALLY_FILLED' : 'NEW';
    case 'PARTIALLY_CANCELED':
      return 'CANCELED';
    case 'ORDER_NEW':
    case 'ORDER_FILLED':
    case 'ORDER_CANCELED':
    case 'ORDER_REJECTED':
    case 'ORDER_FAILED':
    case 'ORDER_NOT_EFFECTIVE':
      return undefined;
    default:
      return assertNever(status, 'order status');
  }
}
