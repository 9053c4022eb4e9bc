import { z } from 'zod';
import { dec } from '../../../core/decimal.js';
import type { AlgoOrderUpdated } from '../../../model/account-events.js';
import type { AlgoKind, TrailingStop } from '../../../model/orders.js';
import { sideOfV1 } from '../../wire/to-model.js';
import { sideV1 } from '../../../protocol/wire-enums.js';
import { decimal, epochMs, id64, intLike, optDecimal, text } from '../../wire/schema.js';
import type { ListenKeyWillExpire } from './frame-types.js';

/** The bare-object events: `planExecutionReport` and `listenKeyWillExpire` (document 001 "Events", API-NOTES §7). */

const algoStatus = z.enum(['ORDER_NEW', 'ORDER_FILLED', 'ORDER_CANCELED', 'ORDER_REJECTED', 'ORDER_FAILED', 'ORDER_NOT_EFFECTIVE']);

export const planReportSchema = z.object({
  updateTime: epochMs,
  orderId: id64,
  clientOrderId: text,
  symbolId: z.string(),
  price: decimal,
  origQty: decimal,
  planOrderType: z.string(),
  side: sideV1,
  status: algoStatus,
  triggerPrice: decimal,
  executedOrderId: id64.optional(),
  /** The regular order whose attached TP/SL created this row; "0" for other rows. */
  openOrdinaryOrderId: id64.optional(),
  priceType: z.string(),
  quotePriceType: intLike.optional(),
  triggerType: intLike.optional(),
  activePrice: optDecimal,
  fallType: intLike.optional(),
  fallQuantity: optDecimal,
  activeStatus: intLike.optional(),
});

/** `time` is the plan's creation; `updateTime` orders its states. */
export function planItem(p: z.output<typeof planReportSchema>): AlgoOrderUpdated {
  const { side, positionSide } = sideOfV1(p.side);
  const trailing = p.triggerType === 1 ? trailingOf(p) : undefined;
  const order = {
    symbol: p.symbolId,
    orderId: p.orderId,
    clientOrderId: p.clientOrderId,
    kind: algoKind(p.planOrderType),
    side,
    positionSide,
    orderType: p.priceType === 'INPUT' ? ('LIMIT' as const) : ('MARKET' as const),
    triggerPrice: p.triggerPrice,
    // quotePriceType: 0 latest, 1 index, 2 mark; the model triggers on contract or mark price only.
    triggerBy: p.quotePriceType === 2 ? ('MARK_PRICE' as const) : ('CONTRACT_PRICE' as const),
    price: p.price,
    quantity: p.origQty,
    ...(trailing === undefined ? {} : { trailing }),
    status: p.status,
    ...(p.executedOrderId === undefined || p.executedOrderId === '0' ? {} : { executedOrderId: p.executedOrderId }),
    ...(p.openOrdinaryOrderId === undefined || /^0*$/.test(p.openOrdinaryOrderId) ? {} : { parentOrderId: p.openOrdinaryOrderId }),
    updateTime: p.updateTime,
  };
  return { type: 'account.algo', source: 'stream', time: p.updateTime, order };
}

/** STOP_LONG_PROFIT … STOP_SHORT_LOSS are TP/SL rows; STOP_COMMON (and anything else) a plan order. */
function algoKind(planOrderType: string): AlgoKind {
  if (planOrderType.endsWith('_PROFIT')) return 'TAKE_PROFIT';
  if (planOrderType.endsWith('_LOSS')) return 'STOP_LOSS';
  return 'PLAN';
}

/** This event's own coding (API-NOTES §7): fallType 0 ratio, 1 spread. `fallQuantity` is documented as always 0. */
function trailingOf(p: z.output<typeof planReportSchema>): TrailingStop {
  const active = p.activePrice === undefined || p.activePrice.isZero() ? {} : { activePrice: p.activePrice };
  return {
    ...active,
    callbackType: p.fallType === 1 ? 'PRICE' : 'RATE',
    callbackValue: p.fallQuantity ?? dec(0),
    ...(p.activeStatus === undefined ? {} : { activated: p.activeStatus === 1 }),
  };
}

export const willExpireSchema = z.object({ eventTime: epochMs, listenKey: z.string().min(1) });

export function willExpireNotice(n: z.output<typeof willExpireSchema>): ListenKeyWillExpire {
  return { type: 'listenKey.willExpire', time: n.eventTime, listenKey: n.listenKey };
}
