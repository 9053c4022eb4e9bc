import type { SimReject } from '../engine/types.js';

/**
 * The refusals the trading routes raise themselves, before the engine sees a request: parameter
 * syntax and combinations. Codes and message texts follow the exchange's error list (API-NOTES §3);
 * the -1130 text keeps the exchange's misspelling "paramter".
 */
function reject(code: number, msg: string): SimReject {
  return { code, msg };
}

export const rejects = {
  /** -1102: a mandatory parameter is absent or empty. */
  missing: (name: string): SimReject => reject(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  /** -1102: neither of two alternatives was sent (ids, quantities). */
  missingOneOf: (a: string, b: string): SimReject => reject(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  /** -1102: a modify call that names none of the parameters its type may change (document 000 rule 1). */
  nothingToModify: (allowed: readonly string[]): SimReject => reject(-1102, `A mandatory parameter was not sent: give at least one of ${allowed.join(', ')}.`),
  /** -1130: a value that does not parse or is out of range. */
  invalid: (name: string): SimReject => reject(-1130, `Data sent for paramter '${name}' is not valid.`),
  /** -1130: a modify call whose every value equals the original order (document 000 rule 3). */
  unchanged: (): SimReject => reject(-1130, 'Data sent for paramter \'order\' is not valid: the modification equals the original order.'),
  badSymbol: (): SimReject => reject(-1121, 'Invalid symbol.'),
  /** -1213: a USDC-M symbol on a USDT-M call or the reverse (category decides the account). */
  symbolNotInCategory: (): SimReject => reject(-1213, 'Account symbol does not match'),
  badSide: (): SimReject => reject(-1117, 'Invalid side.'),
  badOrderType: (): SimReject => reject(-1116, 'Invalid orderType.'),
  badTimeInForce: (): SimReject => reject(-1115, 'Invalid timeInForce.'),
  badStopType: (): SimReject => reject(-1165, 'Invalid stopType.'),
  badFallbackType: (): SimReject => reject(-1166, 'Invalid callbackType.'),
  /** -1128: parameters that are each valid but not together (both exclusive ids, MARKET with a price). */
  badCombination: (): SimReject => reject(-1128, 'Combination of optional parameters invalid.'),
  noSuchOrder: (): SimReject => reject(-2013, 'Order does not exist.'),
  orderFilled: (): SimReject => reject(-1139, 'Order has been filled.'),
  orderCanceled: (): SimReject => reject(-1142, 'Order has been canceled'),
  /** -1143: the order is no longer working (rejected, failed, not effective). */
  orderNotWorking: (): SimReject => reject(-1143, 'Cannot be found on order book'),
  quantityTooSmall: (): SimReject => reject(-1136, 'Order quantity lower than the minimum.'),
} as const;
