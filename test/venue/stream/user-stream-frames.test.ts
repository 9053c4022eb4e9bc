import { dec } from '../../../src/core/decimal.js';
import type { Result } from '../../../src/core/result.js';
import { accountEventFrame, willExpireFrame } from '../../../src/sim/user-stream/index.js';
import type { StreamAccountItem, UserStreamFrame, UserStreamFrameError } from '../../../src/venue/parsers/user-stream-frames.js';
import { parseUserStreamFrame, positionSideOf, toOrderFilled } from '../../../src/venue/parsers/user-stream-frames.js';
import { LIVE_EXAMPLES, T0, balanceEvent, orderEvent, planEvent, positionEvent, tradeEvent } from '../../sim/user-stream/fixtures.js';

function frame(result: Result<UserStreamFrame, UserStreamFrameError>): UserStreamFrame {
  if (!result.ok) throw new Error(`expected a frame, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function onlyItem(text: string, multiplier?: string): StreamAccountItem {
  const parsed = frame(parseUserStreamFrame(text, multiplier === undefined ? {} : { contractMultiplier: () => dec(multiplier) }));
  if (parsed.kind !== 'account' || parsed.items.length !== 1) throw new Error(`expected one account item, got ${JSON.stringify(parsed)}`);
  const [item] = parsed.items;
  if (item === undefined) throw new Error('no item');
  return item;
}

function failure(result: Result<UserStreamFrame, UserStreamFrameError>): UserStreamFrameError {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('user-stream frames: the API-NOTES §7 examples', () => {
  it('outboundContractAccountInfo → a balance per asset (wallet = free + locked)', () => {
    expect(onlyItem(LIVE_EXAMPLES.outboundContractAccountInfo)).toEqual({
      type: 'account.balance',
      source: 'stream',
      time: 1758226989742,
      balance: { asset: 'USDT', walletBalance: dec('10.07317715'), availableBalance: dec('9.07317715'), lockedMargin: dec(1), unrealizedPnl: dec(0), updateTime: 1758226989742 },
    });
  });

  it('outboundContractPositionInfo → a position in contracts', () => {
    expect(onlyItem(LIVE_EXAMPLES.outboundContractPositionInfo)).toEqual({
      type: 'account.position',
      source: 'stream',
      time: 1758316454554,
      position: {
        symbol: 'DOGE-SWAP-USDT',
        positionSide: 'LONG',
        qty: dec(0),
        avgPrice: dec(0),
        leverage: dec(3),
        marginType: 'CROSS',
        margin: dec(0),
        unrealizedPnl: dec(0),
        realizedPnl: dec(0),
        liquidationPrice: dec('0.1228'),
        markPrice: dec('0.26541'),
        updateTime: 1758316454554,
      },
    });
  });

  it('contractExecutionReport: C:true + BUY closes a short; LIMIT with price type MARKET is a market order', () => {
    expect(onlyItem(LIVE_EXAMPLES.contractExecutionReport)).toEqual({
      type: 'account.order',
      source: 'stream',
      time: 1499405658658,
      order: {
        symbol: 'BTC-SWAP-USDT',
        orderId: '4293153',
        clientOrderId: '1000087761',
        side: 'BUY',
        positionSide: 'SHORT',
        type: 'MARKET',
        timeInForce: 'GTC',
        price: dec('0.1026441'),
        quantity: dec(1),
        filledQty: dec(0),
        avgPrice: dec(0),
        status: 'NEW',
        updateTime: 1499405658658,
      },
    });
  });

  it('contractExecutionReport: C:false + BUY opens a long; E as a number; a 64-bit numeric id stays exact', () => {
    const text = LIVE_EXAMPLES.contractExecutionReport.replace('"C":true', '"C":false').replace('"E":"1499405658658"', '"E":1499405658658').replace('"i":"4293153"', '"i":2120518481434695937');
    const item = onlyItem(text);
    expect(item).toMatchObject({ time: 1499405658658, order: { side: 'BUY', positionSide: 'LONG', orderId: '2120518481434695937' } });
  });

  it('the side table of API-NOTES §6.3', () => {
    expect([positionSideOf('BUY', false), positionSideOf('SELL', false), positionSideOf('BUY', true), positionSideOf('SELL', true)]).toEqual(['LONG', 'SHORT', 'SHORT', 'LONG']);
  });

  it('ticketInfo → a fill ticket with the client order id, no fee, waiting for its position side', () => {
    const item = onlyItem(LIVE_EXAMPLES.ticketInfo);
    expect(item).toEqual({
      type: 'stream.ticket',
      time: 1668693440976,
      fill: {
        symbol: 'BTC-SWAP-USDT',
        tradeId: '1291488620385157122',
        orderId: '1291488620167835136',
        clientOrderId: '1668693440093',
        side: 'SELL',
        price: dec(441),
        qty: dec('0.205'),
        fee: dec(0),
        feeAsset: '',
        isMaker: false,
        realizedPnl: dec(0),
        time: 1668693440899,
      },
    });
    if (item.type !== 'stream.ticket') throw new Error('not a ticket');
    expect(toOrderFilled(item, 'LONG')).toEqual({ type: 'account.fill', source: 'stream', time: 1668693440976, fill: { ...item.fill, positionSide: 'LONG' } });
  });

  it('planExecutionReport → an algo order (STOP_SHORT_PROFIT: a take-profit closing a short)', () => {
    expect(onlyItem(LIVE_EXAMPLES.planExecutionReport)).toEqual({
      type: 'account.algo',
      source: 'stream',
      time: 1767521529483,
      order: {
        symbol: 'BTC-SWAP-USDT',
        orderId: '2120518483020142848',
        clientOrderId: '1767521500131',
        kind: 'TAKE_PROFIT',
        side: 'BUY',
        positionSide: 'SHORT',
        orderType: 'MARKET',
        triggerPrice: dec(91446),
        triggerBy: 'CONTRACT_PRICE',
        price: dec(0),
        quantity: dec(10),
        status: 'ORDER_NEW',
        // openOrdinaryOrderId: the order whose attached take-profit created this row.
        parentOrderId: '2120518481434695937',
        updateTime: 1767521529483,
      },
    });
  });

  it('listenKeyWillExpire → a notice', () => {
    expect(frame(parseUserStreamFrame(LIVE_EXAMPLES.listenKeyWillExpire))).toEqual({
      kind: 'willExpire',
      notice: { type: 'listenKey.willExpire', time: 1767536100360, listenKey: 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu' },
    });
  });

  it('pong and error frames', () => {
    expect(frame(parseUserStreamFrame('{"pong":1767536100360}'))).toEqual({ kind: 'pong', value: '1767536100360' });
    expect(frame(parseUserStreamFrame('{"code":"-10001","desc":"Invalid JSON!"}'))).toEqual({ kind: 'error', code: '-10001', message: 'Invalid JSON!' });
  });
});

describe('user-stream frames: what cannot be read is an error value', () => {
  it('not JSON, unknown shapes and events, bad fields', () => {
    expect(failure(parseUserStreamFrame('{oops'))).toMatchObject({ kind: 'not-json' });
    expect(failure(parseUserStreamFrame('42'))).toMatchObject({ kind: 'unknown-event' });
    expect(failure(parseUserStreamFrame('{"hello":1}'))).toMatchObject({ kind: 'unknown-event' });
    expect(failure(parseUserStreamFrame('[{"x":1}]'))).toMatchObject({ kind: 'unknown-event' });
    expect(failure(parseUserStreamFrame('[{"e":"executionReport","E":"1"}]'))).toMatchObject({ kind: 'unknown-event', event: 'executionReport' });
    expect(failure(parseUserStreamFrame('{"eventType":"somethingNew"}'))).toMatchObject({ kind: 'unknown-event', event: 'somethingNew' });
    const badQty = LIVE_EXAMPLES.contractExecutionReport.replace('"q":"1.00000000"', '"q":"lots"');
    expect(failure(parseUserStreamFrame(badQty))).toMatchObject({ kind: 'invalid', event: 'contractExecutionReport', field: 'q' });
    const planStatus = LIVE_EXAMPLES.contractExecutionReport.replace('"X":"NEW"', '"X":"ORDER_NEW"');
    expect(failure(parseUserStreamFrame(planStatus))).toMatchObject({ kind: 'invalid', event: 'contractExecutionReport' });
    expect(failure(parseUserStreamFrame('{"eventType":"listenKeyWillExpire","eventTime":1}'))).toMatchObject({ kind: 'invalid', field: 'listenKey' });
  });
});

describe('user-stream frames: exactly what the simulator emits', () => {
  it('balance, position, order (with its fill), trade and plan frames round-trip', () => {
    expect(onlyItem(accountEventFrame(balanceEvent()).text)).toMatchObject({ type: 'account.balance', time: T0 + 1, balance: { asset: 'USDT', availableBalance: dec('9.07317715'), lockedMargin: dec(1) } });
    expect(onlyItem(accountEventFrame(positionEvent()).text)).toMatchObject({
      type: 'account.position',
      position: { symbol: 'BTC-SWAP-USDT', positionSide: 'LONG', qty: dec('12.5'), avgPrice: dec('111021.4'), leverage: dec(20), liquidationPrice: dec('105500.1'), markPrice: dec('111030.2') },
    });
    // Z is a coin notional: 5 contracts × 0.001 BTC at 111000.5 → avg price 111000.5 with the multiplier.
    const filled = orderEvent({ status: 'PARTIALLY_FILLED', executedQty: '5', cumQuote: '555.0025', isClose: true, side: 'SELL', positionSide: 'LONG' }, { qty: '5', price: '111000.5', commission: '0.333', isMaker: true });
    const withFill = frame(parseUserStreamFrame(accountEventFrame(filled).text, { contractMultiplier: () => dec('0.001') }));
    if (withFill.kind !== 'account') throw new Error('expected account items');
    // A report of a fill also says what the fill cost: its ticket (which carries no fee) takes it.
    expect(withFill.items[0]).toMatchObject({ type: 'stream.execution', orderId: '2120518481434695937', qty: dec(5), fee: dec('0.333'), feeAsset: 'USDT' });
    expect(withFill.items[1]).toMatchObject({
      type: 'account.order',
      time: T0 + 3,
      order: { orderId: '2120518481434695937', clientOrderId: 'stratd-42', side: 'SELL', positionSide: 'LONG', type: 'LIMIT', status: 'PARTIALLY_FILLED', filledQty: dec(5), avgPrice: dec('111000.5') },
    });
    expect(onlyItem(accountEventFrame(orderEvent({ timeInForce: 'POST_ONLY' })).text)).toMatchObject({ order: { timeInForce: 'POST_ONLY', side: 'BUY', positionSide: 'LONG' } });
    expect(onlyItem(accountEventFrame(tradeEvent()).text)).toMatchObject({
      type: 'stream.ticket',
      fill: { tradeId: '1291488620385157122', orderId: '2120518481434695937', clientOrderId: 'stratd-42', side: 'SELL', qty: dec(5), isMaker: true, time: T0 + 4 },
    });
    expect(onlyItem(accountEventFrame(planEvent()).text)).toMatchObject({
      type: 'account.algo',
      time: T0 + 6,
      order: { kind: 'PLAN', side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec(112000), quantity: dec(10), status: 'ORDER_NEW' },
    });
    expect(onlyItem(accountEventFrame(planEvent({ triggerBy: 'MARK_PRICE', type: 'STOP', price: '111000', status: 'ORDER_FILLED', executedOrderId: '77' })).text)).toMatchObject({
      order: { triggerBy: 'MARK_PRICE', orderType: 'LIMIT', status: 'ORDER_FILLED', executedOrderId: '77' },
    });
    // A trailing stop's activation (activeStatus) reaches the model.
    const tpsl = { stopOrderType: 'STOP_LOSS', stopType: 'TRAILING_STOP', planOrderType: 'STOP_LONG_LOSS', wholePosition: true, activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01' } as const;
    for (const activeStatus of [0, 1] as const) {
      expect(onlyItem(accountEventFrame(planEvent({ side: 'SELL', tpsl: { ...tpsl, activeStatus } })).text)).toMatchObject({
        order: { kind: 'STOP_LOSS', trailing: { activePrice: dec(95000), callbackType: 'RATE', activated: activeStatus === 1 } },
      });
    }
  });

  it('the expiry notice round-trips', () => {
    expect(frame(parseUserStreamFrame(willExpireFrame('abc', T0).text))).toEqual({ kind: 'willExpire', notice: { type: 'listenKey.willExpire', time: T0, listenKey: 'abc' } });
  });
});
