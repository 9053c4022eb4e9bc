import type { Decimal } from '../../../core/decimal.js';
import type { EndpointDef } from '../../../protocol/endpoints.js';
import { endpointLabel } from '../../../protocol/endpoints.js';
import type { Check } from '../../validate.js';
import { atLeastOneId, firstViolation } from '../../validate.js';
import { invalidRequest } from '../../venue-error.js';
import type { VenueError } from '../../venue-error.js';
import type { OrderRefV1, UpdateOrderV1, UpdateStopV1, UpdateTpSlV1 } from './v1-types.js';

type UpdateField = Exclude<keyof UpdateTpSlV1 | keyof UpdateStopV1, keyof OrderRefV1 | 'type' | 'newClientOrderId' | 'side' | 'symbol'>;

/** Rule 1: the modifiable parameters per type. */
const MODIFIABLE: Readonly<Record<UpdateOrderV1['type'], readonly UpdateField[]>> = {
  LIMIT: ['quantity', 'valueQuantity', 'priceType', 'price'],
  STOP: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy'],
  STOP_PROFIT_LOSS: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy', 'stopType', 'activePrice', 'fallbackType', 'fallbackQuantity'],
};

/** The local part of the order/update validation rules (spec "Orders (v1)", rules 1-9). */
export function checkUpdate(e: EndpointDef, change: UpdateOrderV1): Check {
  const label = endpointLabel(e);
  const sent = new Map<string, unknown>(Object.entries(change).filter(([, v]) => v !== undefined));
  const given = MODIFIABLE[change.type].filter((k) => sent.has(k));
  const rule = (n: number, message: string, field?: string): VenueError => invalidRequest(label, `update-rule-${n}`, message, field);
  const negative = (v: Decimal | undefined): boolean => v !== undefined && !(v.isFinite() && v.gte(0));
  const stop = change.type === 'LIMIT' ? undefined : change;
  return firstViolation(
    () => atLeastOneId(e, change),
    // Rule 4: side and symbol are taken from the original and cannot be sent.
    () => (['side', 'symbol'].find((k) => sent.has(k)) === undefined ? undefined : rule(4, 'side and symbol cannot be changed; do not send them', sent.has('side') ? 'side' : 'symbol')),
    // Rule 7: TP/SL needs stopPrice (checked before rule 1 so the message names it).
    () => (change.type === 'STOP_PROFIT_LOSS' && change.stopPrice === undefined ? rule(7, 'a TP/SL modify needs stopPrice', 'stopPrice') : undefined),
    // Rule 1: at least one modifiable parameter of this type.
    () => (given.length === 0 ? rule(1, `give at least one of ${MODIFIABLE[change.type].join(', ')} for type ${change.type}`) : undefined),
    // Rule 8: quantities are not negative (0 keeps the original).
    () => (negative(change.quantity) ? rule(8, 'quantity must not be negative', 'quantity') : undefined),
    () => (negative(change.valueQuantity) ? rule(8, 'valueQuantity must not be negative', 'valueQuantity') : undefined),
    // Rule 9: price omitted or 0 keeps the original, > 0 is used; negative is meaningless.
    () => (negative(change.price) ? rule(9, 'price must not be negative', 'price') : undefined),
    // Rule 2: stopPrice 0 keeps the original.
    () => (negative(stop?.stopPrice) ? rule(2, 'stopPrice must not be negative', 'stopPrice') : undefined),
    // Rules 6/9 (LIMIT, STOP), 7 (TP/SL: price > 0 means a limit fill): MARKET cannot come with a price.
    () =>
      change.priceType === 'MARKET' && change.price !== undefined && change.price.gt(0)
        ? rule(change.type === 'STOP_PROFIT_LOSS' ? 7 : 6, 'priceType MARKET cannot be modified into a price', 'price')
        : undefined,
    () => (change.type === 'STOP_PROFIT_LOSS' ? checkTrailing(change, rule) : undefined),
    // Rule 3: a request whose every value means "keep the original" changes nothing.
    () => (given.every((k) => keepsOriginal(change, k)) ? rule(3, 'every given value keeps the original (0 means unchanged); nothing would change') : undefined),
  );
}

/** Rule 7: trailing parameters only with TRAILING_STOP, which needs fallbackType and fallbackQuantity > 0; activePrice > 0. */
function checkTrailing(change: UpdateTpSlV1, rule: (n: number, message: string, field?: string) => VenueError): Check {
  const trailing = change.stopType === 'TRAILING_STOP';
  const stray = (['activePrice', 'fallbackType', 'fallbackQuantity'] as const).find((k) => change[k] !== undefined);
  if (!trailing && stray !== undefined) return rule(7, `${stray} applies only with stopType TRAILING_STOP`, stray);
  if (change.activePrice !== undefined && !change.activePrice.gt(0)) return rule(7, 'activePrice must be greater than 0', 'activePrice');
  if (trailing && change.fallbackType === undefined) return rule(7, 'a trailing stop needs fallbackType', 'fallbackType');
  if (trailing && !(change.fallbackQuantity !== undefined && change.fallbackQuantity.gt(0))) {
    return rule(7, 'a trailing stop needs fallbackQuantity greater than 0', 'fallbackQuantity');
  }
  return undefined;
}

/** Zero amounts that mean "use the original" (rules 2, 8, 9); for TP/SL only stopPrice 0 is certain. */
function keepsOriginal(change: UpdateOrderV1, field: UpdateField): boolean {
  const zero = (v: Decimal | undefined): boolean => v !== undefined && v.isZero();
  if (change.type === 'STOP_PROFIT_LOSS') return field === 'stopPrice' && zero(change.stopPrice);
  switch (field) {
    case 'quantity':
      return zero(change.quantity);
    case 'valueQuantity':
      return zero(change.valueQuantity);
    case 'price':
      return zero(change.price);
    case 'stopPrice':
      return change.type === 'STOP' && zero(change.stopPrice);
    default:
      return false;
  }
}
