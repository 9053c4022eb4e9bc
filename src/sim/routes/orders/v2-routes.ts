import { ENDPOINTS } from '../../../protocol/endpoints.js';
import type { SimVenue } from '../../engine/sim-venue.js';
import type { AccountRef } from '../../engine/types.js';
import type { SimRoute } from '../../server/routing/types.js';
import { routeOk } from '../../server/routing/types.js';
import { batchOrdersOf, readBatchLegs } from '../batch-body.js';
import { readCreateV2 } from '../create-rules.js';
import { readOrderList, readTradeList } from '../list-query.js';
import { readRefV2 } from '../order-refs.js';
import { ParamReader } from '../param-reader.js';
import type { ParamSource } from '../param-source.js';
import { rejects } from '../rejects.js';
import { renderOrderV2, renderUpdatedV2 } from '../render/order-v2.js';
import { renderTradeV2 } from '../render/trades.js';
import { accountOf, readerOf, readSymbolList, refused, replyWith } from '../route-context.js';
import { applyUpdate } from '../update/apply.js';
import { readUpdateV2 } from '../update/request.js';
import { SIDES } from '../wire-vocabulary.js';

/** v2 leg answers: `{code: 200, order}` or the leg's own code with order null (document 000, API-NOTES §5.9). */
function placeLeg(venue: SimVenue, account: AccountRef, leg: ParamSource): Record<string, unknown> {
  const command = readCreateV2(new ParamReader(leg), venue, account.category, false);
  const placed = command.ok ? venue.placeOrder(account, command.value) : command;
  return placed.ok ? { code: 200, order: renderOrderV2(placed.value) } : { code: placed.error.code, msg: placed.error.msg, order: null };
}

/** Generation v2 regular orders (`/api/v2/futures`): the server wraps `data`. */
export function ordersV2Routes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.orderV2Create,
      handle: (ctx) => {
        const account = accountOf(ctx);
        const command = readCreateV2(readerOf(ctx), venue, account.category);
        if (!command.ok) return refused(command.error);
        return replyWith(venue.placeOrder(account, command.value), renderOrderV2);
      },
    },
    {
      endpoint: ENDPOINTS.batchOrdersV2,
      ordersOf: batchOrdersOf,
      handle: (ctx) => {
        const legs = readBatchLegs(ctx.json);
        if (!legs.ok) return refused(legs.error);
        const account = accountOf(ctx);
        return routeOk(legs.value.map((leg) => placeLeg(venue, account, leg)));
      },
    },
    {
      endpoint: ENDPOINTS.orderV2Update,
      handle: (ctx) => {
        const request = readUpdateV2(readerOf(ctx));
        if (!request.ok) return refused(request.error);
        return replyWith(applyUpdate(venue, accountOf(ctx), request.value, 'v2'), renderUpdatedV2);
      },
    },
    {
      endpoint: ENDPOINTS.orderV2Cancel,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV2(r);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.cancelOrder(accountOf(ctx), ref), ({ after }) => renderOrderV2(after));
      },
    },
    {
      endpoint: ENDPOINTS.batchCancelV2,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbols = readSymbolList(r, venue, ctx.category);
        const side = r.choice('side', SIDES, rejects.badSide);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.cancelAllOrders(accountOf(ctx), symbols, side), () => null);
      },
    },
    {
      endpoint: ENDPOINTS.orderV2Get,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV2(r);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.getOrder(accountOf(ctx), ref), renderOrderV2);
      },
    },
    {
      endpoint: ENDPOINTS.openOrdersV2,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readOrderList(r, venue, ctx.category, false);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.openOrders(accountOf(ctx), query).map(renderOrderV2));
      },
    },
    {
      endpoint: ENDPOINTS.historyOrdersV2,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readOrderList(r, venue, ctx.category, true);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.historyOrders(accountOf(ctx), query).map(renderOrderV2));
      },
    },
    {
      endpoint: ENDPOINTS.userTradesV2,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readTradeList(r, venue, ctx.category);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.userTrades(accountOf(ctx), query).map(renderTradeV2));
      },
    },
  ];
}
