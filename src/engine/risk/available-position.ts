import type { Decimal } from '../../core/decimal.js';
import { compareDecimals, dec } from '../../core/decimal.js';
import type { PositionSide } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import { isOpenStatus } from '../../model/orders.js';
import { notPositive } from './quantize.js';
import type { Holdings, RiskContext } from './risk-context.js';

const ZERO = dec(0);

function addTo(sum: Decimal | undefined, value: Decimal): Decimal {
  return sum === undefined ? value : sum.add(value);
}

/** `held − reserved`, at least 0 (`reserved` undefined: nothing reserved). */
function leftOver(held: Decimal, reserved: Decimal | undefined): Decimal {
  const available = reserved === undefined ? held : held.sub(reserved);
  return notPositive(available) ? ZERO : available;
}

/** What the strategy may close of a symbol side: its own ledger's holding, never above the account's. */
export function heldToClose(holdings: Holdings): Decimal | undefined {
  const { account, own } = holdings;
  if (own === undefined || account === undefined) return account;
  return compareDecimals(own, account) < 0 ? own : account;
}

/**
 * The part of a position side that a new closing order may still close: the position minus what the
 * account's open closing regular orders reserve (their remaining quantity, those still on their way
 * included), as the exchange counts it (`available`; above it, a close is refused with -2010). Plan and
 * TP/SL orders reserve nothing until they trigger. `exclude`: an order being modified; `holdings`: the
 * side's holdings when the caller read them already.
 */
export function availableToClose(ctx: RiskContext, symbol: string, positionSide: PositionSide, exclude?: string, holdings: Holdings = ctx.holdings(symbol, positionSide)): Decimal {
  const account = accountAvailable(ctx, symbol, positionSide, exclude, holdings.account ?? ZERO);
  if (holdings.own === undefined) return account;
  // On its own ledger: what the strategy holds minus its own closing orders, within the account's room.
  const own = ownAvailable(ctx, symbol, positionSide, exclude, heldToClose(holdings) ?? ZERO);
  return compareDecimals(own, account) < 0 ? own : account;
}

function ownAvailable(ctx: RiskContext, symbol: string, positionSide: PositionSide, exclude: string | undefined, held: Decimal): Decimal {
  let reserved: Decimal | undefined;
  for (const id of ctx.ownedIdList()) {
    if (id === exclude) continue;
    const order = ctx.cache.order(id);
    if (order !== undefined) {
      if (order.symbol === symbol && order.positionSide === positionSide && !isOpening(order.side, order.positionSide) && isOpenStatus(order.status)) reserved = addTo(reserved, order.quantity.sub(order.filledQty));
      continue;
    }
    const command = ctx.submitted(id);
    if (command?.type !== 'place-order' || command.symbol !== symbol || command.positionSide !== positionSide || isOpening(command.side, command.positionSide)) continue;
    reserved = addTo(reserved, command.quantity);
  }
  return leftOver(held, reserved);
}

function accountAvailable(ctx: RiskContext, symbol: string, positionSide: PositionSide, exclude: string | undefined, held: Decimal): Decimal {
  let reserved: Decimal | undefined;
  for (const order of ctx.cache.openOrders(symbol)) {
    if (order.clientOrderId === exclude || order.positionSide !== positionSide || isOpening(order.side, order.positionSide)) continue;
    reserved = addTo(reserved, order.quantity.sub(order.filledQty));
  }
  // Orders on their way are the strategies' live ones the cache does not show yet (no set of every open id made).
  for (const id of ctx.strategiesOpenIds()) {
    if (id === exclude || ctx.cache.order(id) !== undefined) continue;
    const command = ctx.submitted(id);
    if (command?.type !== 'place-order' || command.symbol !== symbol || command.positionSide !== positionSide || isOpening(command.side, command.positionSide)) continue;
    reserved = addTo(reserved, command.quantity);
  }
  return leftOver(held, reserved);
}
