import { ENDPOINTS } from '../../../protocol/endpoints.js';
import type { SimVenue } from '../../engine/sim-venue.js';
import type { AccountRef, AlgoOrderView, OrderView } from '../../engine/types.js';
import type { RouteContext, SimRoute } from '../../server/routing/types.js';
import { routeOk } from '../../server/routing/types.js';
import { readOrderList, readTradeList, readV1Kind } from '../list-query.js';
import { rejects } from '../rejects.js';
import { renderAlgoV1, renderOrderV1 } from '../render/order-v1.js';
import { renderTradeV1 } from '../render/trades.js';
import { accountOf, readerOf, readSymbol, refused } from '../route-context.js';
import { SIDES } from '../wire-vocabulary.js';

const DAY_MS = 86_400_000;
/** v1 historyOrders looks three days back when no startTime is given (API-NOTES §4.5, DOC-DUMP). */
export const HISTORY_V1_WINDOW_MS = 3 * DAY_MS;
/** cancelOrderByIds takes at most 100 ids (API-NOTES §4.9). */
export const MAX_CANCEL_IDS = 100;

/**
 * The v1 routes third-party clients call besides the spec's (API-NOTES §4.5, 4.6, 4.8, 4.9): order
 * history, user trades, cancel-all and cancel-by-ids. Bare JSON answers.
 */
export function ordersV1MoreRoutes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.historyOrdersV1,
      handle: (ctx: RouteContext) => {
        const r = readerOf(ctx);
        const kind = readV1Kind(r);
        const query = readOrderList(r, venue, ctx.category, true);
        if (r.failure !== undefined) return refused(r.failure);
        const account = accountOf(ctx);
        const windowed = { ...query, startTime: query.startTime ?? venue.now() - HISTORY_V1_WINDOW_MS };
        if (kind === 'LIMIT') return routeOk(venue.historyOrders(account, windowed).map((view) => renderOrderV1(view, { withMultiplier: false })));
        // v1 type STOP lists finished plan and TP/SL rows together, newest first.
        const rows = [
          ...venue.historyAlgoOrders(account, { ...windowed, stopCategory: 'STOP' }),
          ...venue.historyAlgoOrders(account, { ...windowed, stopCategory: 'STOP_PROFIT_LOSS' }),
        ];
        return routeOk(rows.sort(byIdDescending).slice(0, query.limit).map((view) => renderAlgoV1(view, { withMultiplier: false })));
      },
    },
    {
      endpoint: ENDPOINTS.userTradesV1,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readTradeList(r, venue, ctx.category);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.userTrades(accountOf(ctx), query).map(renderTradeV1));
      },
    },
    {
      endpoint: ENDPOINTS.batchCancelV1,
      handle: (ctx) => {
        const r = readerOf(ctx);
        // `side` is documented as required, but ccxt and agent-kit omit it (API-NOTES §4.8 RULE: optional);
        // ccxt omits `symbol` too when it has none: every contract of the category then.
        const symbol = readSymbol(r, venue, ctx.category, false);
        const side = r.choice('side', SIDES, rejects.badSide);
        if (r.failure !== undefined) return refused(r.failure);
        const symbols = symbol === undefined ? venue.instruments.filter((i) => i.category === ctx.category).map((i) => i.symbol) : [symbol];
        const canceled = venue.cancelAllOrders(accountOf(ctx), symbols, side);
        if (!canceled.ok) return refused(canceled.error);
        // Live: every value a string (API-NOTES §4.8).
        return routeOk({ message: 'success', timestamp: String(ctx.now), code: '200' });
      },
    },
    {
      endpoint: ENDPOINTS.cancelOrderByIds,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const text = r.requiredText('ids');
        const symbol = readSymbol(r, venue, ctx.category, false);
        if (r.failure !== undefined) return refused(r.failure);
        const ids = text.split(',').map((id) => id.trim());
        if (ids.length > MAX_CANCEL_IDS || ids.some((id) => !/^\d+$/.test(id))) return refused(rejects.invalid('ids'));
        const account = accountOf(ctx);
        // `code` 200 only means "processed"; `result` lists the ids that failed (API-NOTES §4.9).
        const result = ids.flatMap((orderId) => {
          const failed = cancelOne(venue, account, orderId, symbol);
          return failed === undefined ? [] : [{ orderId, code: failed }];
        });
        return routeOk({ code: '200', result });
      },
    },
  ];
}

/** Cancels one open order of the account; answers the failure code, or undefined when it was canceled. */
function cancelOne(venue: SimVenue, account: AccountRef, orderId: string, symbol: string | undefined): number | undefined {
  if (symbol !== undefined) {
    const found = venue.getOrder(account, { orderId });
    // An order of another symbol is, for this call, an unknown order.
    if (!found.ok || found.value.symbol !== symbol) return rejects.noSuchOrder().code;
  }
  const canceled = venue.cancelOrder(account, { orderId });
  return canceled.ok ? undefined : canceled.error.code;
}

function byIdDescending(a: AlgoOrderView | OrderView, b: AlgoOrderView | OrderView): number {
  const x = BigInt(a.orderId);
  const y = BigInt(b.orderId);
  return x === y ? 0 : x > y ? -1 : 1;
}
