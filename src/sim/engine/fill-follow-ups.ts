import type { AlgoDesk } from './algo/desk.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import type { PositionHistory } from './position-history.js';
import type { PositionRecord } from './position-record.js';
import type { RiskDesk } from './risk-desk.js';
import type { DeskHooks } from './trading-desk.js';

/**
 * What a fill and a closed position set off beyond the trading desk: TP/SL and plan orders, the
 * liquidation bands, the closed-position history. Prototype methods, not closures made per engine: a
 * process runs backtest after backtest, and each engine's closures were a new call target for the
 * fill path optimized on the previous one's (wrong call target).
 */
export class FillFollowUps implements DeskHooks {
  /** Set once made (they need the trading desk, which needs these hooks). */
  algos: AlgoDesk | undefined;
  risk: RiskDesk | undefined;

  constructor(
    private readonly s: EngineState,
    private readonly closedPositions: PositionHistory,
  ) {}

  afterFill(order: OrderRecord, account: FuturesAccount): void {
    this.algos?.afterFill(order, account);
    this.risk?.refreshBands(account);
  }

  positionClosed(account: FuturesAccount, position: PositionRecord): void {
    const book = this.s.books.get(position.symbol);
    if (book !== undefined) this.closedPositions.record(account, position, book, this.s.time);
    this.algos?.positionClosed(account, position);
  }
}
