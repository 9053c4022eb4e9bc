import { dec } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { AccountEvent, BalanceChanged, OrderStatus, OrderUpdated, PositionChanged, TradeExecuted } from '../engine/types.js';
import { planExecutionReport } from './plan-frame.js';

/** One frame as sent on the socket, with the event name it carries (the metrics label). */
export interface StreamFrame {
  readonly kind: string;
  readonly text: string;
}

/**
 * Account events in the live wire shapes of API-NOTES §7: account, position, order and trade as a
 * one-element JSON array of an object keyed by `e`; plan updates as a bare object keyed by `eventType`.
 * Times and ids are strings (§6.5); decimals are the views' text.
 */
export function accountEventFrame(event: AccountEvent): StreamFrame {
  switch (event.type) {
    case 'balance':
      return arrayFrame('outboundContractAccountInfo', accountInfo(event));
    case 'position':
      return arrayFrame('outboundContractPositionInfo', positionInfo(event));
    case 'order':
      return arrayFrame('contractExecutionReport', executionReport(event));
    case 'trade':
      return arrayFrame('ticketInfo', ticketInfo(event));
    case 'plan':
      return { kind: 'planExecutionReport', text: JSON.stringify(planExecutionReport(event)) };
    default:
      return assertNever(event, 'account event');
  }
}

/** `{"eventTime":<number>,"eventType":"listenKeyWillExpire","listenKey":"…"}` (API-NOTES §7: eventTime is a number). */
export function willExpireFrame(listenKey: string, time: number): StreamFrame {
  return { kind: 'listenKeyWillExpire', text: JSON.stringify({ eventTime: time, eventType: 'listenKeyWillExpire', listenKey }) };
}

function arrayFrame(kind: string, body: Record<string, unknown>): StreamFrame {
  return { kind, text: JSON.stringify([{ e: kind, ...body }]) };
}

function accountInfo(event: BalanceChanged): Record<string, unknown> {
  return { E: String(event.time), T: true, W: true, D: true, B: [{ a: event.coin, f: event.free, l: event.locked }] };
}

function positionInfo(event: PositionChanged): Record<string, unknown> {
  const p = event.position;
  return {
    E: String(event.time),
    A: p.accountId,
    s: p.symbol,
    S: p.side,
    p: p.avgPrice,
    P: p.position,
    a: p.available,
    f: p.liquidationPrice,
    m: p.margin,
    r: p.realizedPnl,
    up: p.unrealizedPnl,
    pr: p.profitRate,
    pv: p.positionValue,
    v: p.leverage,
    mt: p.marginType,
    mm: p.maintMargin,
    mp: p.markPrice,
    rr: p.riskRate,
  };
}

function executionReport(event: OrderUpdated): Record<string, unknown> {
  const o = event.order;
  const fill = event.fill;
  const status = streamStatus(o.status);
  return {
    E: String(event.time),
    s: o.symbol,
    c: o.clientOrderId,
    C: o.isClose,
    S: o.side,
    o: o.type,
    f: o.timeInForce,
    q: o.origQty,
    p: o.price,
    pt: o.priceType,
    X: status,
    i: o.orderId,
    l: fill?.qty ?? '0',
    z: o.executedQty,
    L: fill?.price ?? '0',
    // Commission of this fill; the asset stays "" until the order has filled something (§6.5).
    n: fill?.commission ?? '0',
    N: dec(o.executedQty).isZero() ? '' : o.commissionAsset,
    u: true,
    w: status === 'NEW' || status === 'PARTIALLY_FILLED',
    m: fill?.isMaker ?? false,
    mt: o.marginType,
    O: String(o.time),
    Z: o.cumQuote,
    v: o.leverage,
    U: String(o.updateTime),
    rp: o.realizedPnl,
  };
}

function ticketInfo(event: TradeExecuted): Record<string, unknown> {
  const t = event.trade;
  return {
    E: String(event.time),
    s: t.symbol,
    q: t.qty,
    t: String(t.time),
    p: t.price,
    T: t.ticketId,
    o: t.orderId,
    c: t.clientOrderId,
    a: t.accountId,
    m: t.isMaker,
    S: t.side,
  };
}

/** The stream knows no PENDING_NEW (document 001 lists NEW … REJECTED): an accepted order is NEW there. */
function streamStatus(status: OrderStatus): Exclude<OrderStatus, 'PENDING_NEW'> {
  return status === 'PENDING_NEW' ? 'NEW' : status;
}
