import type { AttachedStop } from '../engine/types.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';
import { TRIGGER_BY } from './wire-vocabulary.js';

const LEGS = {
  takeProfit: { triggerBy: 'tpTriggerBy', orderType: 'tpOrderType', limitPrice: 'tpLimitPrice' },
  stopLoss: { triggerBy: 'slTriggerBy', orderType: 'slOrderType', limitPrice: 'slLimitPrice' },
} as const;

/**
 * A take-profit or stop-loss attached to a new order (document 000): absent unless its trigger price is
 * sent. Trigger by CONTRACT_PRICE and order type MARKET by default; a LIMIT leg needs its limit price,
 * which a MARKET leg ignores.
 */
export function readAttachedStop(r: ParamReader, leg: keyof typeof LEGS): AttachedStop | undefined {
  const names = LEGS[leg];
  const triggerPrice = r.decimal(leg, 'positive');
  if (triggerPrice === undefined) return undefined;
  const triggerBy = r.choice(names.triggerBy, TRIGGER_BY) ?? 'CONTRACT_PRICE';
  const orderType = r.choice(names.orderType, ['MARKET', 'LIMIT'] as const) ?? 'MARKET';
  if (orderType === 'MARKET') return { triggerPrice, triggerBy, orderType };
  const limitPrice = r.decimal(names.limitPrice, 'positive');
  if (limitPrice === undefined) {
    r.fail(rejects.missing(names.limitPrice));
    return { triggerPrice, triggerBy, orderType };
  }
  return { triggerPrice, triggerBy, orderType, limitPrice };
}

/** Both legs, as the optional fields of a place command. */
export function readAttachedStops(r: ParamReader): { takeProfit?: AttachedStop; stopLoss?: AttachedStop } {
  const takeProfit = readAttachedStop(r, 'takeProfit');
  const stopLoss = readAttachedStop(r, 'stopLoss');
  return { ...(takeProfit === undefined ? {} : { takeProfit }), ...(stopLoss === undefined ? {} : { stopLoss }) };
}
