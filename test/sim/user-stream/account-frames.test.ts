import { accountEventFrame, sideV1, willExpireFrame } from '../../../src/sim/user-stream/index.js';
import type { TpSlView } from '../../../src/sim/engine/types.js';
import {
  ACCOUNT_ID,
  LIVE_EXAMPLES,
  T0,
  USER,
  balanceEvent,
  objectFrame,
  onlyElement,
  orderEvent,
  planEvent,
  positionEvent,
  shapeOf,
  tradeEvent,
} from './fixtures.js';

const TP: TpSlView = {
  stopOrderType: 'TAKE_PROFIT',
  stopType: 'FIXED_STOP',
  planOrderType: 'STOP_SHORT_PROFIT',
  wholePosition: false,
  activePrice: '0',
  fallbackQuantity: '0',
  activeStatus: 0,
};

describe('user-stream frames: the live shapes of API-NOTES §7', () => {
  it('balance → outboundContractAccountInfo array with B rows a/f/l', () => {
    const frame = accountEventFrame(balanceEvent());
    expect(frame.kind).toBe('outboundContractAccountInfo');
    expect(frame.text.startsWith('[')).toBe(true);
    const body = onlyElement(frame.text);
    expect(shapeOf(body)).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.outboundContractAccountInfo)));
    expect(body).toEqual({ e: 'outboundContractAccountInfo', E: String(T0 + 1), T: true, W: true, D: true, B: [{ a: 'USDT', f: '9.07317715', l: '1' }] });
  });

  it('position → outboundContractPositionInfo with every live key plus rr', () => {
    const body = onlyElement(accountEventFrame(positionEvent()).text);
    expect(shapeOf(body)).toEqual({ ...shapeOf(onlyElement(LIVE_EXAMPLES.outboundContractPositionInfo)), rr: 'string' });
    expect(body).toMatchObject({
      e: 'outboundContractPositionInfo',
      E: String(T0 + 2),
      A: ACCOUNT_ID,
      s: 'BTC-SWAP-USDT',
      S: 'LONG',
      p: '111021.4',
      P: '12.5',
      a: '10',
      f: '105500.1',
      m: '69.3938',
      r: '-0.83',
      up: '0.11',
      pr: '0.0016',
      pv: '1387.8775',
      v: '20',
      mt: 'CROSS',
      mm: '13.8788',
      mp: '111030.2',
      rr: '1.35',
    });
  });

  it('new order → contractExecutionReport with string ids and times, N "" before any fill, no top-level code', () => {
    const text = accountEventFrame(orderEvent({ status: 'PENDING_NEW' })).text;
    const body = onlyElement(text);
    expect(shapeOf(body)).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.contractExecutionReport)));
    expect(body).toEqual({
      e: 'contractExecutionReport',
      E: String(T0 + 3),
      s: 'BTC-SWAP-USDT',
      c: 'stratd-42',
      C: false,
      S: 'BUY',
      o: 'LIMIT',
      f: 'GTC',
      q: '12.5',
      p: '111000.5',
      pt: 'INPUT',
      X: 'NEW',
      i: '2120518481434695937',
      l: '0',
      z: '0',
      L: '0',
      n: '0',
      N: '',
      u: true,
      w: true,
      m: false,
      mt: 'CROSS',
      O: String(T0 + 3),
      Z: '0',
      v: '20',
      U: String(T0 + 3),
      rp: '0',
    });
    expect(text).not.toContain('"code"');
  });

  it('a fill of a closing market order: C true, o MARKET, pt MARKET, last fill l/L/n/m, cumulative z/Z, commission asset', () => {
    const event = orderEvent(
      {
        side: 'SELL',
        positionSide: 'LONG',
        isClose: true,
        type: 'MARKET',
        priceType: 'MARKET',
        timeInForce: 'IOC',
        status: 'FILLED',
        executedQty: '12.5',
        cumQuote: '1387.5',
        commission: '0.8325',
        realizedPnl: '4.3',
        updateTime: T0 + 9,
      },
      { qty: '2.5', price: '111000', commission: '0.1665', isMaker: false },
    );
    const body = onlyElement(accountEventFrame(event).text);
    expect(body).toMatchObject({ C: true, S: 'SELL', o: 'MARKET', pt: 'MARKET', f: 'IOC', X: 'FILLED', l: '2.5', L: '111000', z: '12.5', Z: '1387.5' });
    expect(body).toMatchObject({ n: '0.1665', N: 'USDT', w: false, m: false, rp: '4.3', U: String(T0 + 9), E: String(T0 + 9) });
  });

  it('trade → ticketInfo', () => {
    const body = onlyElement(accountEventFrame(tradeEvent()).text);
    expect(shapeOf(body)).toEqual(shapeOf(onlyElement(LIVE_EXAMPLES.ticketInfo)));
    expect(body).toEqual({
      e: 'ticketInfo',
      E: String(T0 + 4),
      s: 'BTC-SWAP-USDT',
      q: '5',
      t: String(T0 + 4),
      p: '111000.5',
      T: '1291488620385157122',
      o: '2120518481434695937',
      c: 'stratd-42',
      a: ACCOUNT_ID,
      m: true,
      S: 'SELL',
    });
  });

  it('plain plan order → bare planExecutionReport object, STOP_COMMON, v1 side, MARKET_PRICE', () => {
    const frame = accountEventFrame(planEvent());
    expect(frame.kind).toBe('planExecutionReport');
    const body = objectFrame(frame.text);
    expect(shapeOf(body)).toEqual(shapeOf(objectFrame(LIVE_EXAMPLES.planExecutionReport)));
    expect(Object.keys(body)).toEqual(Object.keys(objectFrame(LIVE_EXAMPLES.planExecutionReport)));
    expect(body).toEqual({
      eventType: 'planExecutionReport',
      time: String(T0 + 5),
      orderId: '2120518483020142848',
      accountId: ACCOUNT_ID,
      brokerUserId: USER,
      clientOrderId: 'stratd-plan-1',
      symbolId: 'BTC-SWAP-USDT',
      symbolName: 'BTCUSDT',
      baseTokenId: 'BTC-SWAP-USDT',
      baseTokenName: 'BTC-SWAP-USDT',
      quoteTokenId: 'USDT',
      quoteTokenName: 'USDT',
      price: '0',
      origQty: '10',
      type: 'STOP',
      planOrderType: 'STOP_COMMON',
      side: 'BUY_OPEN',
      status: 'ORDER_NEW',
      triggerPrice: '112000',
      quotePrice: '0',
      executedOrderId: '0',
      executedPrice: '0',
      executedQty: '0',
      updateTime: String(T0 + 6),
      priceType: 'MARKET_PRICE',
      quotePriceType: 0,
      leverage: '10',
      spOrderId: '0',
      slOrderId: '0',
      openOrdinaryOrderId: '0',
      openOrderId: '0',
      triggerType: 0,
      activePrice: '0',
      fallType: 0,
      fallQuantity: '0',
      activeStatus: 0,
      triggerDelay: 0,
      marginType: 'CROSS',
      isGuaranteedPrice: 0,
    });
  });

  it('take-profit of a short, triggered: reproduces the live example’s values where the inputs match', () => {
    const event = planEvent(
      {
        orderId: '2120518483020142848',
        side: 'BUY',
        positionSide: 'SHORT',
        isClose: true,
        type: 'STOP_PROFIT_LOSS_MARKET',
        stopPrice: '91446',
        status: 'ORDER_FILLED',
        executedOrderId: '2120518483020149999',
        executedPrice: '91440.1',
        executedQty: '10',
        parentOrderId: '2120518481434695937',
        triggerBy: 'MARK_PRICE',
        tpsl: TP,
      },
      '91446.2',
    );
    const body = objectFrame(accountEventFrame(event).text);
    expect(body).toMatchObject({
      planOrderType: 'STOP_SHORT_PROFIT',
      side: 'BUY_CLOSE',
      status: 'ORDER_FILLED',
      triggerPrice: '91446',
      quotePrice: '91446.2',
      executedOrderId: '2120518483020149999',
      executedPrice: '91440.1',
      executedQty: '10',
      priceType: 'MARKET_PRICE',
      quotePriceType: 2,
      spOrderId: '2120518483020142848',
      slOrderId: '0',
      openOrdinaryOrderId: '2120518481434695937',
      triggerType: 0,
      fallType: 0,
    });
  });

  it('trailing stop-loss with a price distance and a limit after trigger: triggerType 1, fallType 1 (spread), INPUT, slOrderId', () => {
    const event = planEvent({
      side: 'SELL',
      positionSide: 'LONG',
      isClose: true,
      type: 'STOP_PROFIT_LOSS',
      price: '109000',
      tpsl: { ...TP, stopOrderType: 'STOP_LOSS', stopType: 'TRAILING_STOP', planOrderType: 'STOP_LONG_LOSS', activePrice: '112500', fallbackType: 'PRICE', fallbackQuantity: '150', activeStatus: 1 },
    });
    const body = objectFrame(accountEventFrame(event).text);
    expect(body).toMatchObject({ planOrderType: 'STOP_LONG_LOSS', side: 'SELL_CLOSE', priceType: 'INPUT', price: '109000', triggerType: 1, fallType: 1, fallQuantity: '0' });
    expect(body).toMatchObject({ activePrice: '112500', activeStatus: 1, spOrderId: '0', slOrderId: '2120518483020142848' });
  });

  it('trailing with a ratio: fallType 0 (this event codes 0 ratio, 1 spread)', () => {
    const event = planEvent({ tpsl: { ...TP, stopType: 'TRAILING_STOP', fallbackType: 'RATE', fallbackQuantity: '0.01' } });
    expect(objectFrame(accountEventFrame(event).text)).toMatchObject({ triggerType: 1, fallType: 0 });
  });

  it('USDC-M symbols name the USDC quote', () => {
    const event = { ...planEvent({ symbol: 'BTC-SWAP-USDC', category: 'USDC' }), category: 'USDC' as const };
    expect(objectFrame(accountEventFrame(event).text)).toMatchObject({ symbolName: 'BTCUSDC', quoteTokenId: 'USDC', quoteTokenName: 'USDC' });
  });

  it('v1 side names from side and position side (API-NOTES §6.3)', () => {
    expect([sideV1('BUY', 'LONG'), sideV1('SELL', 'SHORT'), sideV1('BUY', 'SHORT'), sideV1('SELL', 'LONG')]).toEqual(['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE']);
  });

  it('listenKeyWillExpire: bare object with a numeric eventTime, shaped like the live one', () => {
    const frame = willExpireFrame('zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu', 1767536100360);
    expect(frame.text).toBe(LIVE_EXAMPLES.listenKeyWillExpire);
  });
});
