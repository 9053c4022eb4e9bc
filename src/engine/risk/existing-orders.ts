import type { Decimal } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import type { CancelAlgoCommand, CancelOrderCommand, ExchangeCommand, ModifyAlgoCommand, ModifyOrderCommand } from '../../model/commands.js';
import type { Instrument } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import type { CancelAllIntent, ModifyAlgoIntent, ModifyIntent } from '../../model/intents.js';
import type { AlgoOrderSnapshot, OrderSnapshot, TrailingStop } from '../../model/orders.js';
import { isOpenAlgoStatus, isOpenStatus } from '../../model/orders.js';
import { admit } from './admission.js';
import { availableToClose } from './available-position.js';
import type { Checked } from './denial.js';
import { deny } from './denial.js';
import { checkGate } from './gates.js';
import { limitPrice, numberProblem, quantity, quantizeTrigger, triggerPrice } from './quantize.js';
import type { RiskContext } from './risk-context.js';

type Owned = { readonly kind: 'order'; readonly order: OrderSnapshot } | { readonly kind: 'algo'; readonly order: AlgoOrderSnapshot };

/** An open order of this strategy: UNKNOWN_ORDER when there is no such open order, NOT_OWNER when it is someone else's. */
function ownedOrder(ctx: RiskContext, clientOrderId: string): Checked<Owned> {
  const order = ctx.cache.order(clientOrderId);
  const found: Owned | undefined = order !== undefined ? { kind: 'order', order } : known(ctx.cache.algoOrder(clientOrderId));
  const owned = ctx.owns(clientOrderId);
  if (found === undefined) {
    return deny('UNKNOWN_ORDER', owned ? `order ${clientOrderId} is not acknowledged by the exchange yet` : `unknown order ${clientOrderId}`);
  }
  const open = found.kind === 'order' ? isOpenStatus(found.order.status) : isOpenAlgoStatus(found.order.status);
  if (!open) return deny('UNKNOWN_ORDER', `order ${clientOrderId} is no longer open (${found.order.status})`);
  if (!owned) return deny('NOT_OWNER', `order ${clientOrderId} is not an order of ${ctx.label}`);
  return ok(found);
}

function known(algo: AlgoOrderSnapshot | undefined): Owned | undefined {
  return algo === undefined ? undefined : { kind: 'algo', order: algo };
}

function instrumentOf(ctx: RiskContext, symbol: string): Checked<Instrument> {
  const instrument = ctx.cache.instrument(symbol);
  return instrument === undefined ? deny('UNKNOWN_SYMBOL', `unknown symbol ${symbol}`) : ok(instrument);
}

/** Cancels are always allowed for owned orders (a regular or a plan/TP-SL one, whichever the id names). */
export function checkCancel(ctx: RiskContext, clientOrderId: string): Checked<readonly ExchangeCommand[]> {
  const owned = ownedOrder(ctx, clientOrderId);
  if (!owned.ok) return owned;
  const { symbol } = owned.value.order;
  return ok([{ type: owned.value.kind === 'order' ? 'cancel-order' : 'cancel-algo', symbol, clientOrderId }]);
}

/** One cancel per open order of THIS strategy on the symbol; other strategies' orders are never touched. */
export function checkCancelAll(ctx: RiskContext, intent: CancelAllIntent): Checked<readonly ExchangeCommand[]> {
  const owned = ctx.ownedIds();
  const commands: Array<CancelOrderCommand | CancelAlgoCommand> = [];
  for (const order of ctx.cache.openOrders(intent.symbol)) {
    if (owned.has(order.clientOrderId)) commands.push({ type: 'cancel-order', symbol: intent.symbol, clientOrderId: order.clientOrderId });
  }
  if (intent.includeAlgo === true) {
    for (const algo of ctx.cache.openAlgoOrders(intent.symbol)) {
      if (owned.has(algo.clientOrderId)) commands.push({ type: 'cancel-algo', symbol: intent.symbol, clientOrderId: algo.clientOrderId });
    }
  }
  return ok(commands);
}

function grows(next: Decimal | undefined, current: Decimal): boolean {
  return next !== undefined && next.gt(current);
}

export function checkModify(ctx: RiskContext, intent: ModifyIntent): Checked<readonly ExchangeCommand[]> {
  const owned = ownedOrder(ctx, intent.clientOrderId);
  if (!owned.ok) return owned;
  if (owned.value.kind !== 'order') return deny('UNKNOWN_ORDER', `${intent.clientOrderId} is a plan or TP/SL order: modify it with modify-algo`);
  const order = owned.value.order;
  const instrument = instrumentOf(ctx, order.symbol);
  if (!instrument.ok) return instrument;
  const opening = isOpening(order.side, order.positionSide);
  const closed = checkGate(ctx, instrument.value, opening);
  if (closed !== undefined) return err(closed);
  if (intent.price === undefined && intent.quantity === undefined) return ok([]);
  let price: Decimal | undefined;
  if (intent.price !== undefined) {
    if (order.type === 'MARKET') return deny('INVALID_PRICE', `${order.clientOrderId} is a MARKET order: it has no price to change`);
    const checked = limitPrice(intent.price, 'price', instrument.value.tickSize, order.side);
    if (!checked.ok) return checked;
    price = checked.value;
  }
  let qty: Decimal | undefined;
  if (intent.quantity !== undefined) {
    const checked = quantity(intent.quantity, instrument.value.qtyStep);
    if (!checked.ok) return checked;
    if (checked.value.lte(order.filledQty)) return deny('INVALID_QUANTITY', `quantity ${checked.value.toFixed()} is not above the filled ${order.filledQty.toFixed()}`);
    qty = checked.value;
    if (!opening && grows(qty, order.quantity)) {
      // A closing order may grow only into what the other closing orders leave available (else -2010).
      const available = availableToClose(ctx, order.symbol, order.positionSide, order.clientOrderId);
      const remaining = qty.sub(order.filledQty);
      if (remaining.gt(available)) {
        return deny('CLOSE_ABOVE_AVAILABLE', `${order.clientOrderId} would close ${remaining.toFixed()} more of the ${order.positionSide} position on ${order.symbol}: ${available.toFixed()} available`);
      }
    }
  }
  const refused = admit(ctx, {
    instrument: instrument.value,
    side: order.side,
    positionSide: order.positionSide,
    opening,
    algo: false,
    orderType: order.type,
    price: price ?? (order.type === 'LIMIT' ? order.price : undefined),
    triggerPrice: undefined,
    otherPrices: [],
    quantity: qty ?? order.quantity,
    exposure: (qty ?? order.quantity).sub(order.filledQty),
    grows: grows(qty, order.quantity),
    isNew: false,
    banded: price !== undefined,
    replaces: order.clientOrderId,
  });
  if (refused !== undefined) return err(refused);
  ctx.approved();
  const command: ModifyOrderCommand = {
    type: 'modify-order',
    symbol: order.symbol,
    clientOrderId: order.clientOrderId,
    ...(price === undefined ? {} : { price }),
    ...(qty === undefined ? {} : { quantity: qty }),
  };
  return ok([command]);
}

/** A trailing stop's numbers: a callback ratio in (0, 1], or a price distance on the tick grid. */
function trailingStop(trailing: TrailingStop, instrument: Instrument): Checked<TrailingStop> {
  const problem = numberProblem(trailing.callbackValue);
  if (problem !== undefined) return deny('INVALID_PRICE', `trailing callback value ${problem}`);
  let callbackValue = trailing.callbackValue;
  if (trailing.callbackType === 'RATE') {
    if (callbackValue.gt(1)) return deny('INVALID_PRICE', `trailing callback rate ${callbackValue.toFixed()} is above 1 (100%)`);
  } else {
    callbackValue = quantizeTrigger(callbackValue, instrument.tickSize);
    if (callbackValue.lte(0)) return deny('INVALID_PRICE', 'trailing callback distance is below one tick');
  }
  if (trailing.activePrice === undefined) return ok({ callbackType: trailing.callbackType, callbackValue });
  const active = triggerPrice(trailing.activePrice, 'trailing activation price', instrument.tickSize);
  if (!active.ok) return active;
  return ok({ activePrice: active.value, callbackType: trailing.callbackType, callbackValue });
}

function positive(value: Decimal): Decimal | undefined {
  return value.gt(0) ? value : undefined;
}

export function checkModifyAlgo(ctx: RiskContext, intent: ModifyAlgoIntent): Checked<readonly ExchangeCommand[]> {
  const owned = ownedOrder(ctx, intent.clientOrderId);
  if (!owned.ok) return owned;
  if (owned.value.kind !== 'algo') return deny('UNKNOWN_ORDER', `${intent.clientOrderId} is a regular order: modify it with modify`);
  const algo = owned.value.order;
  const instrument = instrumentOf(ctx, algo.symbol);
  if (!instrument.ok) return instrument;
  const { tickSize, qtyStep } = instrument.value;
  const opening = algo.kind === 'PLAN' && isOpening(algo.side, algo.positionSide);
  const closed = checkGate(ctx, instrument.value, opening);
  if (closed !== undefined) return err(closed);
  if (intent.triggerPrice === undefined && intent.triggerBy === undefined && intent.price === undefined && intent.quantity === undefined && intent.trailing === undefined) return ok([]);
  const trigger = intent.triggerPrice === undefined ? ok(undefined) : triggerPrice(intent.triggerPrice, 'trigger price', tickSize);
  if (!trigger.ok) return trigger;
  const price = intent.price === undefined ? ok(undefined) : limitPrice(intent.price, 'price', tickSize, algo.side);
  if (!price.ok) return price;
  const qty = intent.quantity === undefined ? ok(undefined) : quantity(intent.quantity, qtyStep);
  if (!qty.ok) return qty;
  let trailing: TrailingStop | undefined;
  if (intent.trailing !== undefined) {
    if (algo.kind === 'PLAN') return deny('INVALID_PRICE', `${algo.clientOrderId} is a plan order: only TP/SL orders can trail`);
    const checked = trailingStop(intent.trailing, instrument.value);
    if (!checked.ok) return checked;
    trailing = checked.value;
  }
  const refused = admit(ctx, {
    instrument: instrument.value,
    side: algo.side,
    positionSide: algo.positionSide,
    opening,
    algo: true,
    orderType: price.value !== undefined ? 'LIMIT' : algo.orderType,
    price: price.value ?? (algo.orderType === 'LIMIT' ? positive(algo.price) : undefined),
    triggerPrice: trigger.value ?? positive(algo.triggerPrice),
    otherPrices: [],
    quantity: qty.value ?? positive(algo.quantity),
    exposure: qty.value ?? algo.quantity,
    grows: algo.kind === 'PLAN' && grows(qty.value, algo.quantity),
    isNew: false,
    banded: false,
    replaces: algo.clientOrderId,
  });
  if (refused !== undefined) return err(refused);
  ctx.approved();
  const command: ModifyAlgoCommand = {
    type: 'modify-algo',
    symbol: algo.symbol,
    clientOrderId: algo.clientOrderId,
    kind: algo.kind,
    ...(trigger.value === undefined ? {} : { triggerPrice: trigger.value }),
    ...(intent.triggerBy === undefined ? {} : { triggerBy: intent.triggerBy }),
    ...(price.value === undefined ? {} : { price: price.value }),
    ...(qty.value === undefined ? {} : { quantity: qty.value }),
    ...(trailing === undefined ? {} : { trailing }),
  };
  return ok([command]);
}
