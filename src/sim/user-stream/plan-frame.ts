import type { AlgoOrderView, PlanUpdated, PositionSide, Side } from '../engine/types.js';

/** v1 side names from direction and position side (API-NOTES §6.3). */
export function sideV1(side: Side, positionSide: PositionSide): 'BUY_OPEN' | 'SELL_OPEN' | 'BUY_CLOSE' | 'SELL_CLOSE' {
  if (side === 'BUY') return positionSide === 'LONG' ? 'BUY_OPEN' : 'BUY_CLOSE';
  return positionSide === 'SHORT' ? 'SELL_OPEN' : 'SELL_CLOSE';
}

/**
 * `planExecutionReport`, every field of the API-NOTES §7 example in its order and type. Integers stay
 * numbers as in that example; `fallType` uses this event's own coding (0 ratio, 1 spread — the §7
 * DISAGREE rule), not the REST rows' 0/1/2. `fallQuantity` is always "0" (document 001).
 */
export function planExecutionReport(event: PlanUpdated): Record<string, unknown> {
  const plan = event.plan;
  const tpsl = plan.tpsl;
  const trailing = tpsl?.stopType === 'TRAILING_STOP';
  const { name, quote } = symbolNames(plan.symbol, event.category);
  return {
    eventType: 'planExecutionReport',
    time: String(plan.time),
    orderId: plan.orderId,
    accountId: plan.accountId,
    brokerUserId: plan.userId,
    clientOrderId: plan.clientOrderId,
    symbolId: plan.symbol,
    symbolName: name,
    baseTokenId: plan.symbol,
    baseTokenName: plan.symbol,
    quoteTokenId: quote,
    quoteTokenName: quote,
    price: plan.price,
    origQty: plan.origQty,
    type: 'STOP',
    planOrderType: tpsl?.planOrderType ?? 'STOP_COMMON',
    side: sideV1(plan.side, plan.positionSide),
    status: plan.status,
    triggerPrice: plan.stopPrice,
    quotePrice: event.quotePrice ?? '0',
    executedOrderId: plan.executedOrderId,
    executedPrice: plan.executedPrice,
    executedQty: plan.executedQty,
    updateTime: String(plan.updateTime),
    priceType: limitAfterTrigger(plan) ? 'INPUT' : 'MARKET_PRICE',
    quotePriceType: plan.triggerBy === 'MARK_PRICE' ? 2 : 0,
    leverage: plan.leverage,
    spOrderId: tpsl?.stopOrderType === 'TAKE_PROFIT' ? plan.orderId : '0',
    slOrderId: tpsl?.stopOrderType === 'STOP_LOSS' ? plan.orderId : '0',
    openOrdinaryOrderId: plan.parentOrderId,
    // Non-zero only in split-position mode; the simulator runs combined positions.
    openOrderId: '0',
    triggerType: trailing ? 1 : 0,
    activePrice: tpsl?.activePrice ?? '0',
    fallType: trailing && tpsl?.fallbackType === 'PRICE' ? 1 : 0,
    fallQuantity: '0',
    activeStatus: tpsl?.activeStatus ?? 0,
    triggerDelay: 0,
    marginType: plan.marginType,
    isGuaranteedPrice: 0,
  };
}

function limitAfterTrigger(plan: AlgoOrderView): boolean {
  return plan.type === 'STOP' || plan.type === 'STOP_PROFIT_LOSS';
}

/** `BTC-SWAP-USDT` → name `BTCUSDT` (as in the example) and quote `USDT`. */
function symbolNames(symbol: string, category: string): { readonly name: string; readonly quote: string } {
  const at = symbol.indexOf('-SWAP-');
  if (at < 0) return { name: symbol.replaceAll('-', ''), quote: category };
  const quote = symbol.slice(at + '-SWAP-'.length);
  return { name: `${symbol.slice(0, at)}${quote}`, quote };
}
