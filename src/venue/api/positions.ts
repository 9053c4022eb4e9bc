import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { RegularOrderV1 } from '../parsers/order-v1.js';
import { autoAddMarginSchema, closedPositionListSchema, commissionRateSchema, flashCloseSchema, leverageV2Schema, positionMarginSchema, reversePositionSchema, todayPnlSchema, tradingStopSchema } from '../parsers/positions.js';
import type { AutoAddMarginResult, ClosedPosition, CommissionRate, LeverageV2Result, PositionMarginResult, TodayPnl, TradingStopResult } from '../parsers/positions.js';
import type { RestCaller } from '../rest-transport.js';
import { firstViolation, limitInRange, positive, positiveLeverage, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';
import type { Category, PositionSide, TriggerBy } from '../../protocol/wire-enums.js';
import { positionSide } from '../../protocol/wire-enums.js';
import { categoryQuery } from './orders/v2.js';

export interface TradingStop {
  readonly symbol: string;
  /** The position the stops protect. */
  readonly side: PositionSide;
  readonly takeProfit?: Decimal;
  readonly stopLoss?: Decimal;
  readonly tpTriggerBy?: TriggerBy;
  readonly slTriggerBy?: TriggerBy;
  readonly category?: Category;
}

/**
 * Position routes of API-NOTES §4.10–4.15 and §4.17: close or reverse a position at market, isolated
 * margin, the position's TP/SL, fee rates, today's PnL, and the v2 leverage setter.
 */
export class PositionsApi {
  constructor(private readonly rest: RestCaller) {}

  /** POST /api/v1/futures/flashClose: closes the whole position at market; answers the closing order (reply not sourced, §9). */
  async flashClose(symbol: string, side: PositionSide, category?: Category): Promise<Result<RegularOrderV1, VenueError>> {
    const e = ENDPOINTS.flashClose;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => sideCheck(e.path, side),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, side, category }) }, flashCloseSchema);
  }

  /** POST /api/v1/futures/reversePosition: closes the position and opens its size on the other side; answers both orders (reply not sourced, §9). */
  async reversePosition(symbol: string, side: PositionSide, category?: Category): Promise<Result<RegularOrderV1[], VenueError>> {
    const e = ENDPOINTS.reversePosition;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => sideCheck(e.path, side),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, side, category }) }, reversePositionSchema);
  }

  /** POST /api/v1/futures/positionMargin: adds (amount > 0) or removes (< 0) isolated margin, in the settlement coin. */
  async positionMargin(symbol: string, side: PositionSide, amount: Decimal, category?: Category): Promise<Result<PositionMarginResult, VenueError>> {
    const e = ENDPOINTS.positionMargin;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => sideCheck(e.path, side),
      () => (amount.isFinite() && !amount.isZero() ? undefined : invalidRequest(endpointLabel(e), 'amount-non-zero', 'amount is a non-zero number (+ add, − remove)', 'amount')),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, side, amount, category }) }, positionMarginSchema);
  }

  /** POST /api/v1/futures/position/trading-stop: sets the position's take-profit and/or stop-loss. */
  async tradingStop(stop: TradingStop): Promise<Result<TradingStopResult, VenueError>> {
    const e = ENDPOINTS.tradingStop;
    const problem = firstViolation(
      () => requireText(e, 'symbol', stop.symbol),
      () => sideCheck(e.path, stop.side),
      () =>
        stop.takeProfit === undefined && stop.stopLoss === undefined
          ? invalidRequest(endpointLabel(e), 'tp-or-sl', 'give a takeProfit, a stopLoss or both', 'takeProfit')
          : undefined,
      () => positive(e, 'takeProfit', stop.takeProfit),
      () => positive(e, 'stopLoss', stop.stopLoss),
    );
    if (problem !== undefined) return err(problem);
    const form = orderedParams({
      symbol: stop.symbol,
      side: stop.side,
      takeProfit: stop.takeProfit,
      stopLoss: stop.stopLoss,
      tpTriggerBy: stop.tpTriggerBy,
      slTriggerBy: stop.slTriggerBy,
      category: stop.category,
    });
    return callParsed(this.rest, { endpoint: e, form }, tradingStopSchema);
  }

  /** GET /api/v1/futures/commissionRate: open and close, maker and taker fee rates of a contract. */
  async commissionRate(symbol: string, category?: Category): Promise<Result<CommissionRate, VenueError>> {
    const e = ENDPOINTS.commissionRate;
    const problem = requireText(e, 'symbol', symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol, category }) }, commissionRateSchema);
  }

  /** GET /api/v1/futures/todayPnl: realised PnL since 00:00 UTC. */
  async todayPnl(category?: Category): Promise<Result<TodayPnl, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.todayPnl, query: categoryQuery(category) }, todayPnlSchema);
  }

  /** POST /api/v1/futures/autoAddMargin (agent-kit): tops an isolated position's margin up from the account before liquidation. */
  async autoAddMargin(symbol: string, side: PositionSide, enable: boolean, category?: Category): Promise<Result<AutoAddMarginResult, VenueError>> {
    const e = ENDPOINTS.autoAddMargin;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => sideCheck(e.path, side),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, side, enable: enable ? 'ON' : 'OFF', category }) }, autoAddMarginSchema);
  }

  /** GET /api/v1/futures/historyPositions (seen in ccxt's route list; reply not sourced): closed positions, newest first. */
  async historyPositions(
    query: { readonly symbol?: string; readonly startTime?: number; readonly endTime?: number; readonly limit?: number; readonly category?: Category } = {},
  ): Promise<Result<ClosedPosition[], VenueError>> {
    const e = ENDPOINTS.historyPositions;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    const q = orderedParams({ symbol: query.symbol, startTime: query.startTime, endTime: query.endTime, limit: query.limit, category: query.category });
    return callParsed(this.rest, { endpoint: e, query: q }, closedPositionListSchema);
  }

  /** POST /api/v2/futures/leverage: as the v1 setter, in the v2 wrapper (leverage a number in the reply). */
  async leverageV2(symbol: string, leverage: number, category?: Category): Promise<Result<LeverageV2Result, VenueError>> {
    const e = ENDPOINTS.leverageV2;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => positiveLeverage(e, leverage),
    );
    if (problem !== undefined) return err(problem);
    // The leverage travels as a string (API-NOTES §4.17).
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(category), json: { symbol, leverage: String(leverage) } }, leverageV2Schema);
  }
}

function sideCheck(path: string, side: string): VenueError | undefined {
  return positionSide.safeParse(side).success ? undefined : invalidRequest(path, 'position-side', 'side is LONG or SHORT', 'side');
}
