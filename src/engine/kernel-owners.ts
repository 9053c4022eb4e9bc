import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { LedgerPosition } from '../model/ledger.js';
import { dec } from '../core/decimal.js';
import type { PositionSide } from '../model/instrument.js';
import type { Fill } from '../model/orders.js';
import type { Cache } from './cache.js';
import { strategyOfClientOrderId } from './execution/client-order-ids.js';
import type { Executor } from './execution/executor.js';
import type { LedgerOwners, Ledgers } from './ledger/ledgers.js';
import type { OwnHoldings } from './risk/risk-engine.js';
import type { StrategyHost, StrategyOwners } from './strategy/host.js';

/** The kernel's parts these answers read (read at each call: the ledgers and the host are made after the risk engine). */
export interface OwnedParts {
  readonly cache: Cache;
  readonly executor: Executor;
  readonly ledgers: Ledgers;
  readonly strategies: StrategyHost;
}

/**
 * Who owns which order and holding, for the ledgers, the risk engine and the strategies' contexts: methods of a class, so a sweep's
 * backtests, one after another in a thread, call the same functions (closures made per kernel met code
 * optimized for the previous run's and deoptimized it: "wrong call target").
 */
export class KernelOwners implements LedgerOwners, OwnHoldings, StrategyOwners {
  constructor(
    private readonly parts: OwnedParts,
    private readonly clock: Clock,
    private readonly strategyIds: readonly string[],
    /** Strategies that act on the whole account (guards): no holding of their own. */
    private readonly accountScoped: ReadonlySet<string>,
  ) {}

  ownerOf(clientOrderId: string): string | undefined {
    return this.parts.executor.ownerOf(clientOrderId) ?? strategyOfClientOrderId(clientOrderId, this.strategyIds);
  }

  ownerOfOrder(orderId: string): string | undefined {
    const clientOrderId = this.parts.cache.clientOrderIdOf(orderId);
    return clientOrderId === undefined ? undefined : this.parts.executor.ownerOf(clientOrderId);
  }

  // The owner was not known when the fill came, so the strategy was not given it: it is now (not the bus, which had it).
  moved(fill: Fill): void {
    const clientOrderId = fill.clientOrderId === '' ? (this.parts.cache.clientOrderIdOf(fill.orderId) ?? '') : fill.clientOrderId;
    this.parts.strategies.dispatch({ type: 'account.fill', source: 'rest', time: this.clock.now(), fill: { ...fill, clientOrderId } });
  }

  heldBy(strategyId: string, symbol: string, positionSide: PositionSide): Decimal | undefined {
    if (this.accountScoped.has(strategyId)) return undefined;
    return this.parts.ledgers.position(strategyId, symbol, positionSide)?.qty ?? dec(0);
  }

  owns(clientOrderId: string, strategyId: string): boolean {
    return this.parts.executor.ownerOf(clientOrderId) === strategyId;
  }

  ownPosition(strategyId: string, symbol: string, positionSide: PositionSide): LedgerPosition | undefined {
    return this.parts.ledgers.position(strategyId, symbol, positionSide);
  }

  clientOrderIdFor(strategyId: string, key: string): string {
    return this.parts.executor.clientOrderId(strategyId, key);
  }
}
