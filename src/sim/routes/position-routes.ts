import { ok } from '../../core/result.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { AlgoOrderView, PositionStopsCommand } from '../engine/types.js';
import type { ClosedPositionView } from '../engine/position-history.js';
import type { SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import { readAttachedStop } from './attached-stops.js';
import { rejects } from './rejects.js';
import { renderOrderV1 } from './render/order-v1.js';
import { accountOf, readerOf, readSymbol, refused, replyWith } from './route-context.js';
import { POSITION_SIDES } from './wire-vocabulary.js';

/**
 * Position routes of API-NOTES §4.10–4.15 and §4.17: flash close, reverse, isolated margin, position
 * TP/SL, commission rates, today's PnL, the v2 leverage setter, and the auto-add-margin switch. `side` names the position
 * (LONG/SHORT) everywhere here.
 *
 * Replies of flashClose and reversePosition are not sourced (API-NOTES §9); the simulator's choice:
 * flashClose answers the v1 row of the market order that closes the position, reversePosition an
 * array of two v1 rows, the close then the open of the other side.
 */
export function positionRoutes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.flashClose,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const side = r.requiredChoice('side', POSITION_SIDES);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.flashClose(accountOf(ctx), symbol, side), (order) => renderOrderV1(order, { withMultiplier: true }));
      },
    },
    {
      endpoint: ENDPOINTS.reversePosition,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const side = r.requiredChoice('side', POSITION_SIDES);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.reversePosition(accountOf(ctx), symbol, side), (orders) => orders.map((o) => renderOrderV1(o, { withMultiplier: true })));
      },
    },
    {
      endpoint: ENDPOINTS.positionMargin,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const side = r.requiredChoice('side', POSITION_SIDES);
        // + adds, − removes (settlement coin); isolated positions only (-3150 on cross).
        const amount = r.requiredDecimal('amount', 'any');
        if (r.failure !== undefined) return refused(r.failure);
        // DOC-DUMP shows `margin` as a number; the simulator answers the position's margin after the change.
        return replyWith(venue.adjustPositionMargin(accountOf(ctx), symbol, side, amount), (p) => ({
          code: 200,
          msg: 'success',
          symbol,
          margin: Number(p.margin),
          timestamp: ctx.now,
        }));
      },
    },
    {
      endpoint: ENDPOINTS.tradingStop,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const positionSide = r.requiredChoice('side', POSITION_SIDES);
        const takeProfit = readAttachedStop(r, 'takeProfit');
        const stopLoss = readAttachedStop(r, 'stopLoss');
        if (r.failure === undefined && takeProfit === undefined && stopLoss === undefined) r.fail(rejects.missingOneOf('takeProfit', 'stopLoss'));
        const command = r.finish(
          (): PositionStopsCommand => ({
            symbol,
            positionSide,
            ...(takeProfit === undefined ? {} : { takeProfit }),
            ...(stopLoss === undefined ? {} : { stopLoss }),
          }),
        );
        if (!command.ok) return refused(command.error);
        return replyWith(venue.setPositionStops(accountOf(ctx), command.value), (rows) => renderPositionStops(symbol, positionSide, rows));
      },
    },
    {
      endpoint: ENDPOINTS.commissionRate,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        if (r.failure !== undefined) return refused(r.failure);
        // One maker and one taker rate per contract: opening and closing cost the same here.
        return replyWith(venue.commissionRates(symbol), ({ maker, taker }) => ({
          symbol,
          openMakerFee: maker,
          openTakerFee: taker,
          closeMakerFee: maker,
          closeTakerFee: taker,
        }));
      },
    },
    {
      endpoint: ENDPOINTS.todayPnl,
      handle: (ctx) => replyWith(ok(venue.todayPnl(accountOf(ctx))), (pnl) => ({ dayProfit: pnl.dayProfit, dayProfitRate: pnl.dayProfitRate })),
    },
    {
      // Seen in agent-kit (API-NOTES §4, "not required"): symbol, side, enable ON/OFF. The reply is not
      // sourced; the simulator answers `{code, symbol, side, enable}`.
      endpoint: ENDPOINTS.autoAddMargin,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const side = r.requiredChoice('side', POSITION_SIDES);
        const enable = r.requiredChoice('enable', ['ON', 'OFF'] as const);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.setAutoAddMargin(accountOf(ctx), symbol, side, enable === 'ON'), (set) => ({
          code: '200',
          symbol: set.symbol,
          side: set.side,
          enable: set.enabled ? 'ON' : 'OFF',
        }));
      },
    },
    {
      // In ccxt's route list (API-NOTES §4, "not required"); no source shows its reply: the simulator's rows
      // are one per position life, newest first, with the fields of the follower's history rows (§5.13).
      endpoint: ENDPOINTS.historyPositions,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category, false);
        const startTime = r.integer('startTime');
        const endTime = r.integer('endTime');
        const limit = r.limit();
        if (r.failure !== undefined) return refused(r.failure);
        const query = {
          limit,
          ...(symbol === undefined ? {} : { symbol }),
          ...(startTime === undefined || startTime <= 0 ? {} : { startTime }),
          ...(endTime === undefined || endTime <= 0 ? {} : { endTime }),
        };
        return routeOk(venue.historyPositions(accountOf(ctx), query).map(renderClosedPosition));
      },
    },
    {
      endpoint: ENDPOINTS.leverageV2,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const leverage = r.requiredInteger('leverage', 1);
        if (r.failure !== undefined) return refused(r.failure);
        // `data.leverage` is a number here, a string in v1 (API-NOTES §4.17).
        return replyWith(venue.setLeverage(accountOf(ctx), symbol, leverage), (view) => ({ symbolId: view.symbol, leverage: view.leverage }));
      },
    },
  ];
}

function renderClosedPosition(row: ClosedPositionView): Record<string, unknown> {
  return {
    symbol: row.symbol,
    side: row.side,
    marginType: row.marginType,
    leverage: String(row.leverage),
    openTime: String(row.openTime),
    closeTime: String(row.closeTime),
    openAvgPrice: row.openAvgPrice,
    closeAvgPrice: row.closeAvgPrice,
    maxPositionQuantity: row.maxQty,
    closedQuantity: row.closedQty,
    realizedPnl: row.realizedPnl,
    closeType: row.liquidated ? 'LIQUIDATION' : 'CLOSE',
  };
}

/** The trading-stop answer (OLD-DOCS, JKorf): the position's TP and SL as set by this call ("" for a leg not sent). */
function renderPositionStops(symbol: string, side: string, rows: readonly AlgoOrderView[]): Record<string, unknown> {
  const leg = (kind: 'TAKE_PROFIT' | 'STOP_LOSS'): AlgoOrderView | undefined => rows.find((row) => row.tpsl?.stopOrderType === kind);
  const tp = leg('TAKE_PROFIT');
  const sl = leg('STOP_LOSS');
  return {
    symbol,
    side,
    takeProfit: tp?.stopPrice ?? '',
    stopLoss: sl?.stopPrice ?? '',
    tpTriggerBy: tp?.triggerBy ?? 'CONTRACT_PRICE',
    slTriggerBy: sl?.triggerBy ?? 'CONTRACT_PRICE',
  };
}

