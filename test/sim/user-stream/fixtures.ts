import type {
  AccountEvent,
  AlgoOrderView,
  BalanceChanged,
  OrderUpdated,
  PlanUpdated,
  PositionChanged,
  PositionView,
  TradeExecuted,
  OrderView,
  UserTradeView,
} from '../../../src/sim/engine/types.js';

/** Hand-made engine views and events (decimal text, string ids) for the user-stream tests. */

export const USER = '879141111';
export const ACCOUNT_ID = '1783404067076253954';
export const T0 = 1_767_225_600_000;

/** Live examples of API-NOTES §7, verbatim: the shapes (keys and JSON types) every frame must match. */
export const LIVE_EXAMPLES = {
  outboundContractAccountInfo: '[{"e":"outboundContractAccountInfo","E":"1758226989742","T":true,"W":true,"D":true,"B":[{"a":"USDT","f":"9.07317715","l":"1"}]}]',
  outboundContractPositionInfo:
    '[{"e":"outboundContractPositionInfo","E":"1758316454554","A":"1783404067076253954","s":"DOGE-SWAP-USDT","S":"LONG","p":"0","P":"0","a":"0","f":"0.1228","m":"0","r":"0","up":"0","pr":"0","pv":"0","v":"3.0","mt":"CROSS","mm":"0","mp":"0.265410000000000000"}]',
  contractExecutionReport:
    '[{"e":"contractExecutionReport","E":"1499405658658","s":"BTC-SWAP-USDT","c":"1000087761","C":true,"S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"0.10264410","pt":"MARKET","X":"NEW","i":"4293153","l":"0.00000000","z":"0.00000000","L":"0.00000000","n":"0","N":"","u":true,"w":true,"m":false,"mt":"CROSS","O":"1499405658657","Z":"0.00000000","v":"20","U":"1499405658658","rp":"-4.3058"}]',
  ticketInfo:
    '[{"e":"ticketInfo","E":"1668693440976","s":"BTC-SWAP-USDT","q":"0.205","t":"1668693440899","p":"441.0","T":"1291488620385157122","o":"1291488620167835136","c":"1668693440093","a":"1286424214388204801","m":false,"S":"SELL"}]',
  planExecutionReport:
    '{"eventType":"planExecutionReport","time":"1767521501840","orderId":"2120518483020142848","accountId":"1752238453238626818","brokerUserId":"4910055547259955197","clientOrderId":"1767521500131","symbolId":"BTC-SWAP-USDT","symbolName":"BTCUSDT","baseTokenId":"BTC-SWAP-USDT","baseTokenName":"BTC-SWAP-USDT","quoteTokenId":"USDT","quoteTokenName":"USDT","price":"0","origQty":"10","type":"STOP","planOrderType":"STOP_SHORT_PROFIT","side":"BUY_CLOSE","status":"ORDER_NEW","triggerPrice":"91446","quotePrice":"91493.1","executedOrderId":"0","executedPrice":"0","executedQty":"0","updateTime":"1767521529483","priceType":"MARKET_PRICE","quotePriceType":0,"leverage":"10","spOrderId":"2120518483020142848","slOrderId":"0","openOrdinaryOrderId":"2120518481434695937","openOrderId":"0","triggerType":0,"activePrice":"0","fallType":0,"fallQuantity":"0","activeStatus":0,"triggerDelay":0,"marginType":"CROSS","isGuaranteedPrice":0}',
  listenKeyWillExpire: '{"eventTime":1767536100360,"eventType":"listenKeyWillExpire","listenKey":"zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu"}',
} as const;

export function balanceEvent(over: Partial<BalanceChanged> = {}): BalanceChanged {
  return { type: 'balance', time: T0 + 1, userId: USER, category: 'USDT', coin: 'USDT', free: '9.07317715', locked: '1', ...over };
}

export function positionView(over: Partial<PositionView> = {}): PositionView {
  return {
    accountId: ACCOUNT_ID,
    userId: USER,
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'LONG',
    marginType: 'CROSS',
    leverage: '20',
    position: '12.5',
    available: '10',
    avgPrice: '111021.4',
    markPrice: '111030.2',
    lastPrice: '111031',
    positionValue: '1387.8775',
    margin: '69.3938',
    maintMargin: '13.8788',
    liquidationPrice: '105500.1',
    unrealizedPnl: '0.11',
    realizedPnl: '-0.83',
    profitRate: '0.0016',
    riskRate: '1.35',
    maxNotionalValue: '4662000',
    ...over,
  };
}

export function positionEvent(over: Partial<PositionView> = {}): PositionChanged {
  return { type: 'position', time: T0 + 2, userId: USER, category: 'USDT', position: positionView(over) };
}

export function orderView(over: Partial<OrderView> = {}): OrderView {
  return {
    orderId: '2120518481434695937',
    clientOrderId: 'stratd-42',
    accountId: ACCOUNT_ID,
    userId: USER,
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY',
    positionSide: 'LONG',
    isClose: false,
    type: 'LIMIT',
    price: '111000.5',
    priceType: 'INPUT',
    origQty: '12.5',
    executedQty: '0',
    avgPrice: '0',
    cumQuote: '0',
    marginLocked: '69.4',
    leverage: '20',
    marginType: 'CROSS',
    timeInForce: 'GTC',
    status: 'NEW',
    contractMultiplier: '0.001',
    commission: '0',
    commissionAsset: 'USDT',
    realizedPnl: '0',
    time: T0 + 3,
    updateTime: T0 + 3,
    ...over,
  };
}

export function orderEvent(over: Partial<OrderView> = {}, fill?: OrderUpdated['fill']): OrderUpdated {
  const order = orderView(over);
  return fill === undefined
    ? { type: 'order', time: order.updateTime, userId: USER, category: 'USDT', order }
    : { type: 'order', time: order.updateTime, userId: USER, category: 'USDT', order, fill };
}

export function tradeView(over: Partial<UserTradeView> = {}): UserTradeView {
  return {
    id: '1291488620385157122',
    ticketId: '1291488620385157122',
    orderId: '2120518481434695937',
    clientOrderId: 'stratd-42',
    accountId: ACCOUNT_ID,
    userId: USER,
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'SELL',
    positionSide: 'LONG',
    isClose: true,
    type: 'LIMIT',
    price: '111000.5',
    qty: '5',
    commission: '0.333',
    commissionAsset: 'USDT',
    makerRebate: '0',
    realizedPnl: '1.2',
    isMaker: true,
    matchOrderId: '0',
    matchAccountId: '0',
    time: T0 + 4,
    ...over,
  };
}

export function tradeEvent(over: Partial<UserTradeView> = {}): TradeExecuted {
  const trade = tradeView(over);
  return { type: 'trade', time: trade.time, userId: USER, category: 'USDT', trade };
}

export function algoView(over: Partial<AlgoOrderView> = {}): AlgoOrderView {
  return {
    orderId: '2120518483020142848',
    clientOrderId: 'stratd-plan-1',
    accountId: ACCOUNT_ID,
    userId: USER,
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY',
    positionSide: 'LONG',
    isClose: false,
    type: 'STOP_MARKET',
    price: '0',
    origQty: '10',
    stopPrice: '112000',
    triggerBy: 'CONTRACT_PRICE',
    timeInForce: 'GTC',
    status: 'ORDER_NEW',
    leverage: '10',
    marginLocked: '0',
    marginType: 'CROSS',
    contractMultiplier: '0.001',
    executedOrderId: '0',
    executedPrice: '0',
    executedQty: '0',
    parentOrderId: '0',
    time: T0 + 5,
    updateTime: T0 + 6,
    ...over,
  };
}

export function planEvent(over: Partial<AlgoOrderView> = {}, quotePrice?: string): PlanUpdated {
  const plan = algoView(over);
  return quotePrice === undefined
    ? { type: 'plan', time: plan.updateTime, userId: USER, category: 'USDT', plan }
    : { type: 'plan', time: plan.updateTime, userId: USER, category: 'USDT', plan, quotePrice };
}

/** A real account-event source: what the engine's `onAccountEvent` offers, driven by the test. */
export class EventHub {
  private readonly listeners = new Set<(event: AccountEvent) => void>();

  onAccountEvent(listener: (event: AccountEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AccountEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  listenerCount(): number {
    return this.listeners.size;
  }
}

/** `{key: typeof value}` of a JSON object: the shape two frames must share. */
export function shapeOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v]));
}

/** The single object of a one-element array frame. */
export function onlyElement(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || parsed.length !== 1) throw new Error(`expected a one-element array: ${text}`);
  const first: unknown = parsed[0];
  if (typeof first !== 'object' || first === null) throw new Error(`not an object: ${text}`);
  return { ...first };
}

export function objectFrame(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`expected an object: ${text}`);
  return { ...parsed };
}
