import { assertNever, invariant } from '../../core/errors.js';
import { err, ok } from '../../core/result.js';
import type { ExchangeCommand, PlaceAlgoCommand, PlaceOrderCommand } from '../../model/commands.js';
import type { Instrument } from '../../model/instrument.js';
import type { PlaceIntent, PlanIntent, TpSlIntent } from '../../model/intents.js';
import type { Candidate } from './admission.js';
import { admit } from './admission.js';
import type { Checked } from './denial.js';
import { deny } from './denial.js';
import { checkGate, tradableInstrument } from './gates.js';
import type { Direction, OrderDraft } from './intent-resolution.js';
import { closingSide, resolveDirection, resolvePlace, resolvePlan, resolveTpSl } from './intent-resolution.js';
import type { RiskContext } from './risk-context.js';

export type NewOrderIntent = PlaceIntent | PlanIntent | TpSlIntent;

function direction(intent: NewOrderIntent): Checked<Direction> {
  if (intent.type === 'tpsl') return ok({ side: closingSide(intent.positionSide), positionSide: intent.positionSide, opening: false });
  const reducing = intent.reduceOnly === true || (intent.type === 'place' && intent.closePosition === true);
  return resolveDirection(intent.side, intent.positionSide, reducing);
}

function draftOf(ctx: RiskContext, intent: NewOrderIntent, instrument: Instrument, dir: Direction): Checked<OrderDraft> {
  switch (intent.type) {
    case 'place':
      return resolvePlace(ctx, intent, instrument, dir);
    case 'plan':
      return resolvePlan(ctx, intent, instrument, dir);
    case 'tpsl':
      return resolveTpSl(ctx, intent, instrument, dir);
    default:
      return assertNever(intent, 'new-order intent');
  }
}

/** An order without attached TP/SL carries no further prices: one shared empty list. */
const NO_OTHER_PRICES: Candidate['otherPrices'] = Object.freeze([]);

/** The attached TP/SL's prices, each named as the PRICE_FILTER denial says it. */
function attachedPrices(draft: OrderDraft): Candidate['otherPrices'] {
  if (draft.takeProfit === undefined && draft.stopLoss === undefined) return NO_OTHER_PRICES;
  const otherPrices: Array<readonly [string, OrderDraft['quantity']]> = [];
  for (const [what, stop] of [['take-profit', draft.takeProfit], ['stop-loss', draft.stopLoss]] as const) {
    if (stop === undefined) continue;
    otherPrices.push([`${what} trigger price`, stop.triggerPrice]);
    if (stop.limitPrice !== undefined) otherPrices.push([`${what} limit price`, stop.limitPrice]);
  }
  return otherPrices;
}

function candidateOf(draft: OrderDraft): Candidate {
  const otherPrices = attachedPrices(draft);
  return {
    instrument: draft.instrument,
    side: draft.direction.side,
    positionSide: draft.direction.positionSide,
    opening: draft.direction.opening,
    algo: draft.algo,
    orderType: draft.orderType,
    price: draft.price,
    triggerPrice: draft.trigger?.price,
    otherPrices,
    quantity: draft.quantity,
    exposure: draft.quantity,
    grows: true,
    isNew: true,
    banded: true,
    replaces: undefined,
  };
}

function commandOf(draft: OrderDraft, clientOrderId: string): PlaceOrderCommand | PlaceAlgoCommand {
  if (!draft.algo && draft.takeProfit === undefined && draft.stopLoss === undefined) {
    // A plain order (every one a tick places): one literal of a fixed shape instead of three spreads, its
    // keys in the order the spreads below give them (so the journal's text of it is the same).
    const { orderType, quantity, timeInForce, price } = draft;
    const { symbol } = draft.instrument;
    const { side, positionSide } = draft.direction;
    return price === undefined
      ? { type: 'place-order', clientOrderId, symbol, side, positionSide, orderType, quantity, timeInForce }
      : { type: 'place-order', clientOrderId, symbol, side, positionSide, orderType, quantity, timeInForce, price };
  }
  const optional = {
    ...(draft.price === undefined ? {} : { price: draft.price }),
    ...(draft.takeProfit === undefined ? {} : { takeProfit: draft.takeProfit }),
    ...(draft.stopLoss === undefined ? {} : { stopLoss: draft.stopLoss }),
  };
  const common = {
    clientOrderId,
    symbol: draft.instrument.symbol,
    side: draft.direction.side,
    positionSide: draft.direction.positionSide,
    orderType: draft.orderType,
    quantity: draft.quantity,
    timeInForce: draft.timeInForce,
    ...optional,
  };
  if (!draft.algo) return { type: 'place-order', ...common };
  invariant(draft.trigger !== undefined, 'RISK_DRAFT', 'a plan order without a trigger');
  return { type: 'place-algo', ...common, triggerPrice: draft.trigger.price, triggerBy: draft.trigger.by };
}

/** place, plan and tpsl: one new order, resolved, quantized, filtered and limited. */
export function checkNewOrder(ctx: RiskContext, intent: NewOrderIntent): Checked<readonly ExchangeCommand[]> {
  const instrument = tradableInstrument(ctx, intent.symbol);
  if (!instrument.ok) return instrument;
  const dir = direction(intent);
  if (!dir.ok) return dir;
  const closed = checkGate(ctx, instrument.value, dir.value.opening);
  if (closed !== undefined) return err(closed);
  const draft = draftOf(ctx, intent, instrument.value, dir.value);
  if (!draft.ok) return draft;
  const keyed = intent.key === undefined ? undefined : ctx.clientOrderId(intent.key);
  if (keyed !== undefined && ctx.isLive(keyed)) return deny('DUPLICATE_KEY', `key ${intent.key ?? ''} names a live order (${keyed})`);
  const refused = admit(ctx, candidateOf(draft.value));
  if (refused !== undefined) return err(refused);
  const clientOrderId = keyed ?? ctx.clientOrderId(undefined);
  ctx.approved();
  return ok([commandOf(draft.value, clientOrderId)]);
}
