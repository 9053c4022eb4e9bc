import { dec } from '../core/decimal.js';
import type { Category } from '../model/instrument.js';
import type { SimExchange } from '../sim/engine/sim-exchange.js';
import type { FundingEvent } from '../sim/market-stream/events.js';
import type { PnlLedger } from './pnl-ledger.js';

/**
 * Finds the account's funding payments. The engine settles an interval when a funding event's
 * `nextFundingTime` moves past the previous one (market-stream/events.ts); only then is its flow
 * ledger asked for the account's newest FUNDING row of that category, so a run pays one short lookup
 * per settlement rather than one per event.
 */
export class FundingWatch {
  private readonly nextFunding = new Map<string, number>();
  private lastFlowId = 0n;

  constructor(
    private readonly engine: SimExchange,
    private readonly userId: string,
    private readonly ledger: PnlLedger,
  ) {}

  /** After the engine applied `event`. */
  onFunding(event: FundingEvent, category: Category): void {
    const previous = this.nextFunding.get(event.symbol);
    this.nextFunding.set(event.symbol, event.nextFundingTime);
    if (previous === undefined || event.nextFundingTime <= previous) return;
    const [flow] = this.engine.balanceFlows({ userId: this.userId, accountType: 'FUTURES', category, kind: 'FUNDING', limit: 1 });
    if (flow === undefined || flow.symbol !== event.symbol || BigInt(flow.id) <= this.lastFlowId) return;
    this.lastFlowId = BigInt(flow.id);
    this.ledger.onFunding(event.symbol, dec(flow.change));
  }
}
