import { BTC_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import type { OriginalOrder, ResolvedUpdate, UpdateRequest } from '../../../src/sim/routes/index.js';
import { ParamReader, readAlgoUpdate, readUpdateV1, readUpdateV2, resolveUpdate } from '../../../src/sim/routes/index.js';
import type { SimResult } from '../../../src/sim/engine/types.js';
import { orderView, plain, planView, source, tpslView } from './fixtures.js';

const market = { instrument: BTC_SWAP_USDT, lastPrice: '100000' };

type Reader = (r: ParamReader) => SimResult<UpdateRequest>;

function resolve(read: Reader, params: Record<string, string>, original: OriginalOrder, generation: 'v1' | 'v2' = 'v1'): SimResult<ResolvedUpdate> {
  const request = read(new ParamReader(source(params)));
  return request.ok ? resolveUpdate(request.value, original, market, generation) : request;
}

/** The outcome as a plain object: `{code}` for a refusal, the command (decimals as text) otherwise. */
function outcome(result: SimResult<ResolvedUpdate>): unknown {
  if (!result.ok) return { code: result.error.code };
  return plain(result.value.kind === 'order' ? result.value.command : { family: result.value.family, ...result.value.command });
}

const limit = (o: Parameters<typeof orderView>[0] = {}): OriginalOrder => ({ kind: 'order', view: orderView(o) });
const plan = (o: Parameters<typeof planView>[0] = {}): OriginalOrder => ({ kind: 'algo', view: planView(o) });
const tpsl = (o: Parameters<typeof tpslView>[0] = {}, t: Parameters<typeof tpslView>[1] = {}): OriginalOrder => ({ kind: 'algo', view: tpslView(o, t) });
const trailing = tpsl({ type: 'STOP_PROFIT_LOSS_MARKET', stopPrice: '0' }, { stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01' });

const LIMIT_KEEP = { quantity: '10', price: '100000', priceType: 'INPUT', generation: 'v1' };

describe('POST /api/v1/futures/order/update rules (document 000)', () => {
  it.each<[string, Record<string, string>, OriginalOrder, unknown]>([
    // ---- rule 1: at least one modifiable parameter of the type
    ['1: LIMIT with nothing modifiable', { orderId: '1001', type: 'LIMIT', newClientOrderId: 'n' }, limit(), { code: -1102 }],
    ['1: stopPrice is not modifiable on LIMIT', { orderId: '1001', type: 'LIMIT', stopPrice: '5' }, limit(), { code: -1102 }],
    ['1: STOP with only newClientOrderId', { orderId: '2001', type: 'STOP', newClientOrderId: 'n' }, plan(), { code: -1102 }],
    ['1: stopType is modifiable only on TP/SL', { orderId: '2001', type: 'STOP', stopType: 'FIXED_STOP' }, plan(), { code: -1102 }],
    ['1: no id at all', { type: 'LIMIT', price: '1' }, limit(), { code: -1102 }],
    ['1: type missing', { orderId: '1001', price: '1' }, limit(), { code: -1102 }],
    ['1: type unknown', { orderId: '1001', type: 'MARKET', price: '1' }, limit(), { code: -1116 }],
    // ---- rule 2: omitted values take the original; stopPrice 0 too
    ['2: only price given', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit(), { ...LIMIT_KEEP, price: '101000' }],
    [
      '2: STOP stopPrice 0 keeps, triggerBy kept',
      { orderId: '2001', type: 'STOP', stopPrice: '0', quantity: '3' },
      plan(),
      { family: 'STOP', quantity: '3', price: '101000', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' },
    ],
    [
      '2: STOP new triggerBy',
      { orderId: '2001', type: 'STOP', triggerBy: 'MARK_PRICE' },
      plan(),
      { family: 'STOP', quantity: '2', price: '101000', stopPrice: '100500', triggerBy: 'MARK_PRICE' },
    ],
    // ---- rule 3: identical to the original
    ['3: same price', { orderId: '1001', type: 'LIMIT', price: '100000' }, limit(), { code: -1130 }],
    ['3: same quantity', { orderId: '1001', type: 'LIMIT', quantity: '10' }, limit(), { code: -1130 }],
    ['3: zeros keep everything', { orderId: '1001', type: 'LIMIT', quantity: '0', price: '0', valueQuantity: '0' }, limit(), { code: -1130 }],
    ['3: same priceType', { orderId: '1001', type: 'LIMIT', priceType: 'INPUT' }, limit(), { code: -1130 }],
    ['3: STOP same stopPrice and triggerBy', { orderId: '2001', type: 'STOP', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' }, plan(), { code: -1130 }],
    ['3: TP/SL stopPrice 0 only', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0' }, tpsl(), { code: -1130 }],
    // ---- rule 4: side and symbol come from the original
    ['4: other symbol', { orderId: '1001', type: 'LIMIT', price: '101000', symbol: 'ETH-SWAP-USDT' }, limit(), { code: -1130 }],
    ['4: same symbol is ignored', { orderId: '1001', type: 'LIMIT', price: '101000', symbol: 'BTC-SWAP-USDT' }, limit(), { ...LIMIT_KEEP, price: '101000' }],
    ['4: other side', { orderId: '1001', type: 'LIMIT', price: '101000', side: 'SELL_OPEN' }, limit(), { code: -1130 }],
    ['4: same side is ignored', { orderId: '1001', type: 'LIMIT', price: '101000', side: 'BUY_OPEN' }, limit(), { ...LIMIT_KEEP, price: '101000' }],
    ['4: unknown side', { orderId: '1001', type: 'LIMIT', price: '101000', side: 'BUY' }, limit(), { code: -1117 }],
    // ---- rule 5: working states only; type must match the original
    ['5: FILLED', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit({ status: 'FILLED' }), { code: -1139 }],
    ['5: CANCELED', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit({ status: 'CANCELED' }), { code: -1142 }],
    ['5: REJECTED', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit({ status: 'REJECTED' }), { code: -1143 }],
    ['5: PENDING_NEW is working', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit({ status: 'PENDING_NEW' }), { ...LIMIT_KEEP, price: '101000' }],
    ['5: plan ORDER_FILLED', { orderId: '2001', type: 'STOP', stopPrice: '100600' }, plan({ status: 'ORDER_FILLED' }), { code: -1139 }],
    ['5: plan ORDER_CANCELED', { orderId: '2001', type: 'STOP', stopPrice: '100600' }, plan({ status: 'ORDER_CANCELED' }), { code: -1142 }],
    ['5: TP/SL ORDER_NOT_EFFECTIVE', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000' }, tpsl({ status: 'ORDER_NOT_EFFECTIVE' }), { code: -1143 }],
    ['type STOP on a TP/SL row', { orderId: '3001', type: 'STOP', stopPrice: '91000' }, tpsl(), { code: -1116 }],
    ['type STOP_PROFIT_LOSS on a plan row', { orderId: '2001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000' }, plan(), { code: -1116 }],
    // ---- rule 6: INPUT needs a price; MARKET takes none
    ['6: LIMIT to MARKET', { orderId: '1001', type: 'LIMIT', priceType: 'MARKET' }, limit(), { ...LIMIT_KEEP, priceType: 'MARKET' }],
    ['6: MARKET with a price', { orderId: '1001', type: 'LIMIT', priceType: 'MARKET', price: '101000' }, limit(), { code: -1128 }],
    ['6: market original cannot take a price', { orderId: '1001', type: 'LIMIT', price: '101000' }, limit({ priceType: 'MARKET' }), { code: -1128 }],
    ['6: market original to INPUT needs a price', { orderId: '1001', type: 'LIMIT', priceType: 'INPUT' }, limit({ priceType: 'MARKET' }), { code: -1102 }],
    [
      '6: market original to INPUT with a price',
      { orderId: '1001', type: 'LIMIT', priceType: 'INPUT', price: '99000' },
      limit({ priceType: 'MARKET' }),
      { ...LIMIT_KEEP, price: '99000' },
    ],
    [
      '6: STOP to MARKET has price 0',
      { orderId: '2001', type: 'STOP', priceType: 'MARKET' },
      plan(),
      { family: 'STOP', quantity: '2', price: '0', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' },
    ],
    ['6: STOP_MARKET to INPUT without a price', { orderId: '2001', type: 'STOP', priceType: 'INPUT' }, plan({ type: 'STOP_MARKET', price: '0' }), { code: -1102 }],
    ['6: old priceType OPPONENT is MARKET', { orderId: '1001', type: 'LIMIT', priceType: 'OPPONENT' }, limit(), { ...LIMIT_KEEP, priceType: 'MARKET' }],
    // ---- rule 7: TP/SL
    ['7: TP/SL without stopPrice', { orderId: '3001', type: 'STOP_PROFIT_LOSS', quantity: '2' }, tpsl(), { code: -1102 }],
    [
      '7: market TP/SL given a price becomes limit',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', price: '91500' },
      tpsl(),
      { family: 'STOP_PROFIT_LOSS', keepClientOrderId: true, quantity: '1', price: '91500', stopPrice: '92000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    [
      '7: newClientOrderId is ignored on TP/SL',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', newClientOrderId: 'x' },
      tpsl(),
      { family: 'STOP_PROFIT_LOSS', keepClientOrderId: true, quantity: '1', price: '0', stopPrice: '91000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    [
      '7: fixed to trailing',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', stopType: 'TRAILING_STOP', fallbackType: 'RATE', fallbackQuantity: '0.02', activePrice: '95000' },
      tpsl(),
      {
        family: 'STOP_PROFIT_LOSS',
        keepClientOrderId: true,
        quantity: '1',
        price: '0',
        stopPrice: '92000',
        triggerBy: 'CONTRACT_PRICE',
        stopType: 'TRAILING_STOP',
        trailing: { activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.02' },
      },
    ],
    ['7: trailing without fallbackType', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', stopType: 'TRAILING_STOP', fallbackQuantity: '0.02' }, tpsl(), { code: -1102 }],
    ['7: trailing without fallbackQuantity', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', stopType: 'TRAILING_STOP', fallbackType: 'PRICE' }, tpsl(), { code: -1102 }],
    [
      '7: trailing keeps its parameters',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', fallbackQuantity: '0.03' },
      trailing,
      {
        family: 'STOP_PROFIT_LOSS',
        keepClientOrderId: true,
        quantity: '1',
        price: '0',
        stopPrice: '0',
        triggerBy: 'CONTRACT_PRICE',
        stopType: 'TRAILING_STOP',
        trailing: { activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.03' },
      },
    ],
    ['7: trailing parameters on a fixed stop', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', activePrice: '95000' }, tpsl(), { code: -1128 }],
    ['7: activePrice must be above 0', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', stopType: 'TRAILING_STOP', activePrice: '0' }, tpsl(), { code: -1130 }],
    ['7: bad stopType', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', stopType: 'TRAILING' }, tpsl(), { code: -1165 }],
    ['7: bad fallbackType', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', fallbackType: 'PERCENT' }, tpsl(), { code: -1166 }],
    // ---- rule 8: quantity
    ['8: quantity wins over valueQuantity', { orderId: '1001', type: 'LIMIT', quantity: '5', valueQuantity: '1000' }, limit(), { ...LIMIT_KEEP, quantity: '5' }],
    ['8: valueQuantity in contracts at the price', { orderId: '1001', type: 'LIMIT', quantity: '0', valueQuantity: '2000' }, limit(), { ...LIMIT_KEEP, quantity: '20' }],
    ['8: valueQuantity rounds down to the step', { orderId: '1001', type: 'LIMIT', valueQuantity: '2005.55' }, limit(), { ...LIMIT_KEEP, quantity: '20' }],
    ['8: valueQuantity below one step', { orderId: '1001', type: 'LIMIT', valueQuantity: '1' }, limit(), { code: -1136 }],
    ['8: partly filled keeps the remainder', { orderId: '1001', type: 'LIMIT', price: '99000' }, limit({ executedQty: '4', status: 'PARTIALLY_FILLED' }), { ...LIMIT_KEEP, quantity: '6', price: '99000' }],
    ['8: partly filled, remainder unchanged', { orderId: '1001', type: 'LIMIT', quantity: '6' }, limit({ executedQty: '4', status: 'PARTIALLY_FILLED' }), { code: -1130 }],
    [
      '8: STOP valueQuantity at the limit price',
      { orderId: '2001', type: 'STOP', valueQuantity: '505' },
      plan(),
      { family: 'STOP', quantity: '5', price: '101000', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' },
    ],
    [
      '8: fixed TP/SL quantity 0 is the whole position',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', quantity: '0', valueQuantity: '5000' },
      tpsl(),
      { family: 'STOP_PROFIT_LOSS', keepClientOrderId: true, quantity: '0', price: '0', stopPrice: '92000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    ['8: whole-position TP/SL stays whole', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', quantity: '0' }, tpsl({}, { wholePosition: true }), { code: -1130 }],
    [
      '8: trailing quantity 0 keeps the original',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', quantity: '0', triggerBy: 'MARK_PRICE' },
      trailing,
      {
        family: 'STOP_PROFIT_LOSS',
        keepClientOrderId: true,
        quantity: '1',
        price: '0',
        stopPrice: '0',
        triggerBy: 'MARK_PRICE',
        stopType: 'TRAILING_STOP',
        trailing: { activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01' },
      },
    ],
    // ---- rule 9: price
    ['9: INPUT with price 0 keeps the price', { orderId: '1001', type: 'LIMIT', priceType: 'INPUT', price: '0', quantity: '4' }, limit(), { ...LIMIT_KEEP, quantity: '4' }],
    [
      '9: fixed TP/SL limit original, price 0 keeps it',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', price: '0' },
      tpsl({ type: 'STOP_PROFIT_LOSS', price: '91500' }),
      { family: 'STOP_PROFIT_LOSS', keepClientOrderId: true, quantity: '1', price: '91500', stopPrice: '91000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    ['9: market TP/SL to INPUT needs an explicit price', { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '91000', priceType: 'INPUT' }, tpsl(), { code: -1102 }],
    [
      '9: TP/SL limit to MARKET',
      { orderId: '3001', type: 'STOP_PROFIT_LOSS', stopPrice: '0', priceType: 'MARKET' },
      tpsl({ type: 'STOP_PROFIT_LOSS', price: '91500' }),
      { family: 'STOP_PROFIT_LOSS', keepClientOrderId: true, quantity: '1', price: '0', stopPrice: '92000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    // ---- ids
    ['orderId wins over origClientOrderId', { orderId: '1001', origClientOrderId: 'other', type: 'LIMIT', price: '101000' }, limit(), { ...LIMIT_KEEP, price: '101000' }],
    ['malformed orderId', { orderId: 'abc', type: 'LIMIT', price: '101000' }, limit(), { code: -1130 }],
    ['malformed price', { orderId: '1001', type: 'LIMIT', price: '1e' }, limit(), { code: -1130 }],
    ['negative quantity', { orderId: '1001', type: 'LIMIT', quantity: '-1' }, limit(), { code: -1130 }],
    ['newClientOrderId passes on LIMIT', { orderId: '1001', type: 'LIMIT', price: '101000', newClientOrderId: 'n2' }, limit(), { ...LIMIT_KEEP, price: '101000', newClientOrderId: 'n2' }],
  ])('%s', (_name, params, original, expected) => {
    expect(outcome(resolve(readUpdateV1, params, original))).toEqual(expected);
  });
});

describe('POST /api/v2/futures/order/update rules', () => {
  const V2_KEEP = { ...LIMIT_KEEP, generation: 'v2' };
  it.each<[string, Record<string, string>, OriginalOrder, unknown]>([
    ['price', { orderId: '1001', price: '99000' }, limit(), { ...V2_KEEP, price: '99000' }],
    ['quantity by client id', { origClientOrderId: 'c-1001', quantity: '3' }, limit(), { ...V2_KEEP, quantity: '3' }],
    ['valueQuantity', { orderId: '1001', valueQuantity: '3000' }, limit(), { ...V2_KEEP, quantity: '30' }],
    ['both ids', { orderId: '1001', origClientOrderId: 'c-1001', price: '99000' }, limit(), { code: -1128 }],
    ['no id', { price: '99000' }, limit(), { code: -1102 }],
    ['nothing to modify', { orderId: '1001', newClientOrderId: 'n' }, limit(), { code: -1102 }],
    ['zeros keep everything', { orderId: '1001', quantity: '0', price: '0' }, limit(), { code: -1130 }],
    ['filled order', { orderId: '1001', price: '99000' }, limit({ status: 'FILLED' }), { code: -1139 }],
  ])('%s', (_name, params, original, expected) => {
    expect(outcome(resolve(readUpdateV2, params, original, 'v2'))).toEqual(expected);
  });
});

describe('POST /api/v2/futures/algo-order/update rules', () => {
  it.each<[string, Record<string, string>, OriginalOrder, unknown]>([
    ['type required', { orderId: '2001', stopPrice: '100600' }, plan(), { code: -1102 }],
    ['type LIMIT refused', { type: 'LIMIT', orderId: '2001', stopPrice: '100600' }, plan(), { code: -1116 }],
    ['plan stopPrice', { type: 'STOP', orderId: '2001', stopPrice: '100600' }, plan(), { family: 'STOP', quantity: '2', price: '101000', stopPrice: '100600', triggerBy: 'CONTRACT_PRICE' }],
    [
      'plan newClientOrderId passes',
      { type: 'STOP', orderId: '2001', quantity: '4', newClientOrderId: 'n' },
      plan(),
      { family: 'STOP', quantity: '4', price: '101000', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE', newClientOrderId: 'n' },
    ],
    [
      'STOP_MARKET given a price becomes a limit plan',
      { type: 'STOP', orderId: '2001', price: '100900' },
      plan({ type: 'STOP_MARKET', price: '0' }),
      { family: 'STOP', quantity: '2', price: '100900', stopPrice: '100500', triggerBy: 'CONTRACT_PRICE' },
    ],
    ['family mismatch', { type: 'STOP_PROFIT_LOSS', orderId: '2001', stopPrice: '100600' }, plan(), { code: -1116 }],
    [
      'TP/SL quantity 0 keeps (not the whole position)',
      { type: 'STOP_PROFIT_LOSS', orderId: '3001', quantity: '0', stopPrice: '91000' },
      tpsl(),
      { family: 'STOP_PROFIT_LOSS', quantity: '1', price: '0', stopPrice: '91000', triggerBy: 'CONTRACT_PRICE', stopType: 'FIXED_STOP' },
    ],
    ['TP/SL all zero', { type: 'STOP_PROFIT_LOSS', orderId: '3001', quantity: '0', stopPrice: '0', price: '0' }, tpsl(), { code: -1130 }],
    ['nothing to modify', { type: 'STOP', orderId: '2001' }, plan(), { code: -1102 }],
    [
      'triggerBy',
      { type: 'STOP_PROFIT_LOSS', origClientOrderId: 's-3001', triggerBy: 'MARK_PRICE' },
      tpsl(),
      { family: 'STOP_PROFIT_LOSS', quantity: '1', price: '0', stopPrice: '92000', triggerBy: 'MARK_PRICE', stopType: 'FIXED_STOP' },
    ],
  ])('%s', (_name, params, original, expected) => {
    expect(outcome(resolve(readAlgoUpdate, params, original, 'v2'))).toEqual(expected);
  });
});
