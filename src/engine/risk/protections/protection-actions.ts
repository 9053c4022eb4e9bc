import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import { assertNever } from '../../../core/errors.js';
import { positionKey } from '../../../model/account.js';
import type { CacheView } from '../../../model/cache-view.js';
import type { ExchangeCommand } from '../../../model/commands.js';
import type { PositionSide } from '../../../model/instrument.js';
import { isOpening } from '../../../model/instrument.js';
import type { PlaceIntent } from '../../../model/intents.js';
import type { ProtectionChanged } from '../../../model/kernel-events.js';
import { GLOBAL_SCOPE } from '../../../model/protections.js';
import type { StrategyFigures } from './strategy-figures.js';

/** What a protection's action needs of the kernel. */
export interface ActionPorts {
  readonly cache: CacheView;
  readonly figures: StrategyFigures;
  readonly strategyIds: readonly string[];
  ownerOf(clientOrderId: string): string | undefined;
  /** Straight to the executor (cancels; the global flatten's closing of what no strategy holds), as `owner`. */
  submit(owner: string, command: ExchangeCommand): Promise<void>;
  /** A strategy's closing intent, through the risk engine like any of its intents. */
  intent(strategyId: string, intent: PlaceIntent): void;
  clientOrderId(owner: string): string;
}

/** Owner of the commands a global protection sends itself (as the kill switch's cancels). */
const RISK_OWNER = 'risk';

const closingSide = (positionSide: PositionSide): 'BUY' | 'SELL' => (positionSide === 'LONG' ? 'SELL' : 'BUY');

/**
 * Carries out a trip's action: `block-entries` needs nothing here (the gate denies entries);
 * `reduce-only` cancels the covered opening orders; `pause` the covered regular orders and opening plans
 * (TP/SL stay, they protect positions); `flatten` as pause, then closes the covered positions with
 * reduce-only MARKET orders: each strategy's own part through its risk check, and (global) what no
 * strategy holds by the risk engine itself.
 */
export async function applyProtection(change: ProtectionChanged, ports: ActionPorts): Promise<void> {
  switch (change.action) {
    case 'block-entries':
      return;
    case 'reduce-only':
      await cancelCovered(change.scopeKey, ports, true);
      return;
    case 'pause':
      await cancelCovered(change.scopeKey, ports, false);
      return;
    case 'flatten':
      await cancelCovered(change.scopeKey, ports, false);
      await flatten(change.scopeKey, ports);
      return;
    default:
      assertNever(change.action, 'protection action');
  }
}

async function cancelCovered(scopeKey: string, ports: ActionPorts, openingOnly: boolean): Promise<void> {
  const global = scopeKey === GLOBAL_SCOPE;
  const owner = global ? RISK_OWNER : scopeKey;
  const covered = (clientOrderId: string): boolean => global || ports.ownerOf(clientOrderId) === scopeKey;
  for (const order of ports.cache.openOrders()) {
    if (!covered(order.clientOrderId) || (openingOnly && !isOpening(order.side, order.positionSide))) continue;
    await ports.submit(owner, { type: 'cancel-order', symbol: order.symbol, clientOrderId: order.clientOrderId });
  }
  for (const algo of ports.cache.openAlgoOrders()) {
    if (!covered(algo.clientOrderId) || algo.kind !== 'PLAN' || !isOpening(algo.side, algo.positionSide)) continue;
    await ports.submit(owner, { type: 'cancel-algo', symbol: algo.symbol, clientOrderId: algo.clientOrderId });
  }
}

async function flatten(scopeKey: string, ports: ActionPorts): Promise<void> {
  const owners = scopeKey === GLOBAL_SCOPE ? ports.strategyIds : [scopeKey];
  const closed = new Map<string, Decimal>();
  for (const strategyId of owners) {
    for (const p of ports.figures.positions(strategyId)) {
      const account = ports.cache.position(p.symbol, p.positionSide)?.qty ?? dec(0);
      const key = positionKey(p.symbol, p.positionSide);
      const qty = smaller(p.qty, account.sub(closed.get(key) ?? 0));
      if (qty.lte(0)) continue;
      closed.set(key, (closed.get(key) ?? dec(0)).add(qty));
      ports.intent(strategyId, { type: 'place', symbol: p.symbol, side: closingSide(p.positionSide), positionSide: p.positionSide, orderType: 'MARKET', quantity: qty, reduceOnly: true });
    }
  }
  if (scopeKey !== GLOBAL_SCOPE) return;
  for (const position of ports.cache.positions()) {
    const rest = position.qty.sub(closed.get(positionKey(position.symbol, position.positionSide)) ?? 0);
    if (rest.lte(0)) continue;
    await ports.submit(RISK_OWNER, {
      type: 'place-order',
      clientOrderId: ports.clientOrderId(RISK_OWNER),
      symbol: position.symbol,
      side: closingSide(position.positionSide),
      positionSide: position.positionSide,
      orderType: 'MARKET',
      quantity: rest,
      timeInForce: 'IOC',
    });
  }
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}
