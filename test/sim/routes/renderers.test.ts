import type { z } from 'zod';
import type { BalanceFlowView, PositionView, UserTradeView } from '../../../src/sim/engine/types.js';
import {
  paddedMultiplier,
  renderAccountLeverage,
  renderAlgoV1,
  renderAlgoV2,
  renderFlowV1,
  renderFlowV2,
  renderFuturesBalance,
  renderFuturesFlowV1,
  renderLeverageSet,
  renderMarginTypeSet,
  renderOrderV1,
  renderOrderV2,
  renderPosition,
  renderSubAccount,
  renderTradeV1,
  renderTradeV2,
} from '../../../src/sim/routes/index.js';
import {
  accountLeverageListSchema,
  balanceFlowListSchema,
  balanceFlowV2ListSchema,
  futuresBalanceFlowListSchema,
  futuresBalanceListSchema,
  leverageResultSchema,
  marginTypeResultSchema,
  positionListSchema,
  subAccountListSchema,
} from '../../../src/venue/parsers/account.js';
import { conditionalOrderV1Schema, regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { orderV2Schema, userTradesV2Schema } from '../../../src/venue/parsers/order-v2.js';
import { parseWire } from '../../../src/venue/wire/schema.js';
import { orderView, planView, tpslView } from './fixtures.js';

/** What a client receives: the rendered value through JSON text, parsed by the project client's schema. */
function asClient<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = parseWire(schema, JSON.parse(JSON.stringify(value)), 'test');
  if (!parsed.ok) throw new Error(`${parsed.error.message} at ${parsed.error.field ?? '?'}: ${JSON.stringify(value)}`);
  return parsed.value;
}

describe('v1 order rows', () => {
  it('renders a limit create like the live capture (API-NOTES §5.7)', () => {
    const row = renderOrderV1(orderView({ symbol: 'ETH-SWAP-USDT', side: 'SELL', positionSide: 'SHORT', status: 'PENDING_NEW', contractMultiplier: '0.01' }), { withMultiplier: true });
    expect(Object.keys(row)).toEqual([
      'time', 'updateTime', 'orderId', 'clientOrderId', 'symbol', 'price', 'leverage', 'origQty', 'executedQty', 'executeQty', 'avgPrice', 'marginLocked',
      'type', 'side', 'timeInForce', 'status', 'priceType', 'contractMultiplier', 'triggerType', 'fallType', 'activeStatus',
    ]);
    expect(row).toMatchObject({ time: '1767952799216', side: 'SELL_OPEN', type: 'LIMIT', status: 'PENDING_NEW', contractMultiplier: '0.01000000', triggerType: '0', fallType: '0', activeStatus: '0' });
    expect(asClient(regularOrderV1Schema, row)).toMatchObject({ kind: 'regular', side: 'SELL_OPEN', orderId: '1001' });
  });

  it('renders a market order as type LIMIT with priceType MARKET at its protective price', () => {
    const row = renderOrderV1(orderView({ type: 'MARKET', priceType: 'MARKET', price: '105000', timeInForce: 'IOC' }), { withMultiplier: false });
    expect(row).toMatchObject({ type: 'LIMIT', priceType: 'MARKET', price: '105000', timeInForce: 'IOC' });
    expect(row).not.toHaveProperty('contractMultiplier');
    expect(asClient(regularOrderV1Schema, row).priceType).toBe('MARKET');
  });

  it.each([
    ['BUY', 'LONG', 'BUY_OPEN'],
    ['SELL', 'SHORT', 'SELL_OPEN'],
    ['BUY', 'SHORT', 'BUY_CLOSE'],
    ['SELL', 'LONG', 'SELL_CLOSE'],
  ] as const)('side %s + %s is %s (API-NOTES §6.3)', (side, positionSide, v1) => {
    expect(renderOrderV1(orderView({ side, positionSide }), { withMultiplier: false }).side).toBe(v1);
  });

  it('pads the multiplier to at least 8 decimals', () => {
    expect(paddedMultiplier('0.001')).toBe('0.00100000');
    expect(paddedMultiplier('10')).toBe('10.00000000');
    expect(paddedMultiplier('0.000000001')).toBe('0.000000001');
  });

  it('renders a plan row as a v1 STOP row that both v1 shapes read', () => {
    const row = renderAlgoV1(planView({ type: 'STOP_MARKET', price: '0' }), { withMultiplier: true });
    expect(row).toMatchObject({ type: 'STOP', priceType: 'MARKET', orderType: 'STOP_COMMON', triggerType: '0', executedOrderId: '0', accountId: '9001', stopPrice: '100500' });
    expect(row).not.toHaveProperty('fallType');
    expect(asClient(conditionalOrderV1Schema, row)).toMatchObject({ kind: 'stop', triggerType: 0, orderType: 'STOP_COMMON' });
    // A v1 create of type STOP is read with the regular-order schema.
    expect(asClient(regularOrderV1Schema, row)).toMatchObject({ kind: 'regular', type: 'STOP', status: 'ORDER_NEW' });
  });

  it('renders a fixed TP/SL row with triggerType, fallType and activeStatus "0"', () => {
    const row = renderAlgoV1(tpslView(), { withMultiplier: false });
    expect(row).toMatchObject({ type: 'STOP_PROFIT_LOSS', side: 'SELL_CLOSE', priceType: 'MARKET', orderType: 'STOP_LONG_LOSS', triggerType: '0', activePrice: '0', fallType: '0', fallQuantity: '0', activeStatus: '0' });
    expect(asClient(conditionalOrderV1Schema, row)).toMatchObject({ kind: 'tpsl', fallType: 0, activeStatus: 0 });
  });

  it.each([
    ['RATE', '1'],
    ['PRICE', '2'],
  ] as const)('renders a trailing %s row with fallType %s (document 000: 1 RATE, 2 PRICE)', (fallbackType, fallType) => {
    const view = tpslView({ type: 'STOP_PROFIT_LOSS', price: '91000' }, { stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType, fallbackQuantity: '0.01', activeStatus: 1 });
    const row = renderAlgoV1(view, { withMultiplier: false });
    expect(row).toMatchObject({ triggerType: '1', activePrice: '95000', fallType, fallQuantity: '0.01', activeStatus: '1', priceType: 'INPUT' });
    expect(asClient(conditionalOrderV1Schema, row)).toMatchObject({ kind: 'tpsl', triggerType: 1, activeStatus: 1 });
  });
});

describe('v2 order rows', () => {
  it('renders a regular row like DOC-V2 (API-NOTES §5.9)', () => {
    const row = renderOrderV2(orderView());
    expect(row).toEqual({
      time: '1767952799216',
      updateTime: '1767952799300',
      orderId: '1001',
      clientOrderId: 'c-1001',
      symbol: 'BTC-SWAP-USDT',
      price: '100000',
      leverage: '20',
      origQty: '10',
      executedQty: '0',
      avgPrice: '0',
      marginLocked: '50',
      type: 'LIMIT',
      side: 'BUY',
      positionSide: 'LONG',
      timeInForce: 'GTC',
      status: 'NEW',
      contractMultiplier: '0.001',
    });
    expect(asClient(orderV2Schema, row).positionSide).toBe('LONG');
  });

  it('renders a plan row with stopPrice and triggerBy only', () => {
    const row = renderAlgoV2(planView());
    expect(row).toMatchObject({ type: 'STOP', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' });
    expect(row).not.toHaveProperty('stopOrderType');
    expect(asClient(orderV2Schema, row).status).toBe('ORDER_NEW');
  });

  it('renders a fixed TP/SL row without trailing fields', () => {
    const row = renderAlgoV2(tpslView());
    expect(row).toMatchObject({ type: 'STOP_PROFIT_LOSS_MARKET', stopOrderType: 'STOP_LOSS', stopType: 'FIXED_STOP' });
    expect(row).not.toHaveProperty('activeStatus');
    expect(asClient(orderV2Schema, row).stopType).toBe('FIXED_STOP');
  });

  it('renders a trailing row with a numeric activeStatus', () => {
    const row = renderAlgoV2(tpslView({ stopPrice: '0' }, { stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01' }));
    expect(row).toMatchObject({ stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01', activeStatus: 0 });
    expect(asClient(orderV2Schema, row).activeStatus).toBe(0);
  });
});

const trade: UserTradeView = {
  id: '5001',
  ticketId: '6001',
  orderId: '1001',
  clientOrderId: 'c-1001',
  accountId: '9001',
  userId: '7001',
  category: 'USDT',
  symbol: 'BTC-SWAP-USDT',
  side: 'SELL',
  positionSide: 'LONG',
  isClose: true,
  type: 'LIMIT',
  price: '100000',
  qty: '1',
  commission: '0.02',
  commissionAsset: 'USDT',
  makerRebate: '0',
  realizedPnl: '1.5',
  isMaker: true,
  matchOrderId: '0',
  matchAccountId: '0',
  time: 1767952800000,
};

describe('user trades', () => {
  it('v2 rows parse with the client (API-NOTES §5.10)', () => {
    const rows = [renderTradeV2(trade)];
    expect(rows[0]).toMatchObject({ time: '1767952800000', createdTime: '1767952800000', isMaker: true, matchOrderStrategy: 0, side: 'SELL', positionSide: 'LONG' });
    expect(asClient(userTradesV2Schema, rows)[0]).toMatchObject({ id: '5001', isMaker: true });
  });

  it('v1 rows carry the v1 side (API-NOTES §4.6)', () => {
    expect(renderTradeV1(trade)).toMatchObject({ side: 'SELL_CLOSE', time: '1767952800000', ticketId: '6001', isMaker: true });
  });
});

const flow: BalanceFlowView = {
  id: '539870570957903104',
  accountId: '122216245228131',
  accountType: 'FUTURES',
  userId: '7001',
  coin: 'USDT',
  kind: 'REALIZED_PNL',
  flowTypeValue: 28,
  flowType: 'REALIZED_PNL',
  flowName: 'Realized PnL',
  symbol: 'BTC-SWAP-USDT',
  change: '-12.5',
  total: '379.62',
  created: 1579093587214,
};

describe('balance flows (API-NOTES §5.11)', () => {
  it('v1: flowTypeValue a number, created a string', () => {
    const row = renderFlowV1(flow);
    expect(row).toMatchObject({ flowTypeValue: 28, created: '1579093587214', coinId: 'USDT', coinName: 'USDT' });
    expect(row).not.toHaveProperty('symbol');
    expect(asClient(balanceFlowListSchema, [row])[0]).toMatchObject({ flowTypeValue: 28, created: 1579093587214 });
  });

  it('v1 futures: adds symbol and symbolId', () => {
    const row = renderFuturesFlowV1(flow);
    expect(row).toMatchObject({ symbol: 'BTC-SWAP-USDT', symbolId: 'BTC-SWAP-USDT' });
    expect(asClient(futuresBalanceFlowListSchema, [row])[0]?.symbolId).toBe('BTC-SWAP-USDT');
  });

  it('v2: names, created a string (v2 wire rule), symbol only when set', () => {
    const row = renderFlowV2(flow);
    expect(row).toMatchObject({ accountType: 'FUTURES', flowType: 'REALIZED_PNL', created: '1579093587214' });
    expect(row).not.toHaveProperty('accountId');
    expect(renderFlowV2({ ...flow, symbol: '' })).not.toHaveProperty('symbol');
    expect(asClient(balanceFlowV2ListSchema, [row])[0]?.accountType).toBe('FUTURES');
  });
});

const position: PositionView = {
  accountId: '9001',
  userId: '7001',
  category: 'USDT',
  symbol: 'DOGE-SWAP-USDT',
  side: 'LONG',
  marginType: 'CROSS',
  leverage: '25',
  position: '63',
  available: '63',
  avgPrice: '0.21191',
  markPrice: '0.20921',
  lastPrice: '0.20932',
  positionValue: '13.3503',
  margin: '0.5262',
  maintMargin: '0.07',
  liquidationPrice: '0.05471',
  unrealizedPnl: '-0.1701',
  realizedPnl: '-0.008',
  profitRate: '-0.3185',
  riskRate: '3.1',
  maxNotionalValue: '10000000',
};

describe('account rows', () => {
  it('futures balance carries asset, coin and coupon (API-NOTES §4.1 RULE)', () => {
    const row = renderFuturesBalance({ accountId: '9001', coin: 'USDT', balance: '10.07', availableBalance: '9.07', positionMargin: '0', orderMargin: '1', crossUnrealizedPnl: '0' });
    expect(row).toMatchObject({ asset: 'USDT', coin: 'USDT', coupon: '0', crossUnRealizedPnl: '0' });
    expect(asClient(futuresBalanceListSchema, [row])[0]?.coin).toBe('USDT');
  });

  it('positions like the live row (API-NOTES §4.2)', () => {
    const row = renderPosition(position);
    expect(Object.keys(row)).toEqual([
      'symbol', 'side', 'avgPrice', 'position', 'available', 'leverage', 'lastPrice', 'positionValue', 'flp', 'margin', 'marginRate', 'unrealizedPnL', 'profitRate',
      'realizedPnL', 'minMargin', 'maxNotionalValue', 'markPrice',
    ]);
    expect(asClient(positionListSchema, [row])[0]).toMatchObject({ side: 'LONG' });
  });

  it('leverage and margin type answers use the string code "200" (API-NOTES §5.12)', () => {
    const settings = { symbol: 'ETH-SWAP-USDT', leverage: 3, marginType: 'CROSS' as const };
    expect(renderLeverageSet(settings)).toEqual({ code: '200', symbolId: 'ETH-SWAP-USDT', leverage: '3' });
    expect(renderMarginTypeSet(settings)).toEqual({ code: '200', symbolId: 'ETH-SWAP-USDT', marginType: 'CROSS' });
    expect(renderAccountLeverage(settings)).toEqual({ symbolId: 'ETH-SWAP-USDT', leverage: '3', marginType: 'CROSS' });
    expect(asClient(leverageResultSchema, renderLeverageSet(settings)).leverage.toFixed()).toBe('3');
    expect(asClient(marginTypeResultSchema, renderMarginTypeSet(settings)).symbolId).toBe('ETH-SWAP-USDT');
    expect(asClient(accountLeverageListSchema, [renderAccountLeverage(settings)])[0]?.marginType).toBe('CROSS');
  });

  it('sub-account records (API-NOTES §5.12)', () => {
    const row = renderSubAccount({
      userId: '879141111',
      email: 'a@example.com',
      remark: '',
      accounts: [
        { accountId: '1795119090857208832', userId: '879141111', accountType: 'MAIN' },
        { accountId: '1795119090857208834', userId: '879141111', accountType: 'FUTURES' },
      ],
    });
    expect(row).toEqual({
      userId: '879141111',
      email: 'a@example.com',
      remark: '',
      accountList: [
        { accountId: '1795119090857208832', userId: '879141111', accountType: 'MAIN' },
        { accountId: '1795119090857208834', userId: '879141111', accountType: 'FUTURES' },
      ],
    });
    expect(asClient(subAccountListSchema, [row])).toHaveLength(1);
  });
});
