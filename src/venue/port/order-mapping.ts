import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { AlgoKind, AlgoOrderSnapshot, AlgoStatus, OrderSnapshot, TrailingStop } from '../../model/orders.js';
import type { TpSlOrderV1 } from '../parsers/order-v1.js';
import type { OrderV2 } from '../parsers/order-v2.js';
import type { OrderStatus as WireStatus } from '../../protocol/wire-enums.js';
import { regularStatus, sideOfV1, timeInForceOf } from '../wire/to-model.js';

/** Wire rows → model snapshots. A row that does not fit gives the reason as text (the caller decides the failure kind). */
export type Mapped<T> = Result<T, string>;

/** A v2 regular order row. */
export function toOrderSnapshot(row: OrderV2): Mapped<OrderSnapshot> {
  if (row.type !== 'LIMIT' && row.type !== 'MARKET') return err(`order ${row.orderId} is a ${row.type} row, not a regular order`);
  const status = regularStatus(row.status, row.executedQty);
  if (status === undefined) return err(`order ${row.orderId} has status ${row.status}, not a regular order status`);
  return ok({
    symbol: row.symbol,
    orderId: row.orderId,
    clientOrderId: row.clientOrderId,
    side: row.side,
    positionSide: row.positionSide,
    type: row.type,
    timeInForce: row.timeInForce === undefined ? (row.type === 'MARKET' ? 'IOC' : 'GTC') : timeInForceOf(row.timeInForce),
    price: row.price,
    quantity: row.origQty,
    filledQty: row.executedQty,
    avgPrice: row.avgPrice,
    status,
    updateTime: row.updateTime,
  });
}

/** A v2 plan (STOP, STOP_MARKET) or TP/SL (STOP_PROFIT_LOSS[_MARKET]) row. */
export function toAlgoSnapshot(row: OrderV2): Mapped<AlgoOrderSnapshot> {
  let kind: AlgoKind;
  let orderType: 'LIMIT' | 'MARKET';
  switch (row.type) {
    case 'STOP':
    case 'STOP_MARKET':
      kind = 'PLAN';
      orderType = row.type === 'STOP' ? 'LIMIT' : 'MARKET';
      break;
    case 'STOP_PROFIT_LOSS':
    case 'STOP_PROFIT_LOSS_MARKET':
      if (row.stopOrderType === undefined) return err(`TP/SL row ${row.orderId} has no stopOrderType`);
      kind = row.stopOrderType;
      orderType = row.type === 'STOP_PROFIT_LOSS' ? 'LIMIT' : 'MARKET';
      break;
    case 'LIMIT':
    case 'MARKET':
      return err(`order ${row.orderId} is a regular ${row.type} order, not a plan or TP/SL row`);
    default:
      return assertNever(row.type, 'v2 order type');
  }
  const status = algoStatus(row.status);
  if (status === undefined) return err(`row ${row.orderId} has status ${row.status}, not a plan status`);
  let trailing: TrailingStop | undefined;
  if (row.stopType === 'TRAILING_STOP') {
    if (row.fallbackType === undefined || row.fallbackQuantity === undefined) return err(`trailing row ${row.orderId} lacks fallbackType or fallbackQuantity`);
    trailing = trailingOf(row.activePrice, row.fallbackType, row.fallbackQuantity, row.activeStatus);
  }
  return ok({
    symbol: row.symbol,
    orderId: row.orderId,
    clientOrderId: row.clientOrderId,
    kind,
    side: row.side,
    positionSide: row.positionSide,
    orderType,
    triggerPrice: row.stopPrice ?? dec(0),
    triggerBy: row.triggerBy ?? 'CONTRACT_PRICE',
    price: row.price,
    quantity: row.origQty,
    ...(trailing === undefined ? {} : { trailing }),
    status,
    ...(row.executedOrderId === undefined || /^0*$/.test(row.executedOrderId) ? {} : { executedOrderId: row.executedOrderId }),
    updateTime: row.updateTime,
  });
}

/** A v1 TP/SL row, as the v1 order/update answers a trailing-stop change. */
export function toAlgoSnapshotFromV1(row: TpSlOrderV1): Mapped<AlgoOrderSnapshot> {
  const kind: AlgoKind | undefined = row.orderType.endsWith('_PROFIT') ? 'TAKE_PROFIT' : row.orderType.endsWith('_LOSS') ? 'STOP_LOSS' : undefined;
  if (kind === undefined) return err(`TP/SL row ${row.orderId} has orderType ${row.orderType}`);
  const status = algoStatus(row.status);
  if (status === undefined) return err(`row ${row.orderId} has status ${row.status}, not a plan status`);
  const { side, positionSide } = sideOfV1(row.side);
  const fallback = row.fallType === 1 ? 'RATE' : row.fallType === 2 ? 'PRICE' : undefined;
  const trailing = fallback === undefined ? undefined : trailingOf(row.activePrice, fallback, row.fallQuantity, row.activeStatus);
  return ok({
    symbol: row.symbol,
    orderId: row.orderId,
    clientOrderId: row.clientOrderId,
    kind,
    side,
    positionSide,
    orderType: row.priceType === 'MARKET' || row.price.isZero() ? 'MARKET' : 'LIMIT',
    triggerPrice: row.stopPrice,
    triggerBy: row.triggerBy,
    price: row.price,
    quantity: row.origQty,
    ...(trailing === undefined ? {} : { trailing }),
    status,
    ...(/^0*$/.test(row.executedOrderId) ? {} : { executedOrderId: row.executedOrderId }),
    updateTime: row.updateTime ?? row.time,
  });
}

function trailingOf(activePrice: Decimal | undefined, callbackType: 'RATE' | 'PRICE', callbackValue: Decimal, activeStatus: number | undefined): TrailingStop {
  return {
    ...(activePrice === undefined || activePrice.isZero() ? {} : { activePrice }),
    callbackType,
    callbackValue,
    ...(activeStatus === undefined ? {} : { activated: activeStatus === 1 }),
  };
}

function algoStatus(status: WireStatus): AlgoStatus | undefined {
  switch (status) {
    case 'ORDER_NEW':
    case 'ORDER_FILLED':
    case 'ORDER_CANCELED':
    case 'ORDER_REJECTED':
    case 'ORDER_FAILED':
    case 'ORDER_NOT_EFFECTIVE':
      return status;
    case 'PENDING_NEW':
    case 'NEW':
    case 'PENDING_CANCEL':
      return 'ORDER_NEW';
    case 'PARTIALLY_FILLED':
    case 'FILLED':
      return 'ORDER_FILLED';
    case 'CANCELED':
    case 'PARTIALLY_CANCELED':
      return 'ORDER_CANCELED';
    case 'REJECTED':
      return 'ORDER_REJECTED';
    default:
      return assertNever(status, 'order status');
  }
}
