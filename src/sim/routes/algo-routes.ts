import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import { readPlanCreate } from './create-rules.js';
import { readAlgoList } from './list-query.js';
import { readRefV2 } from './order-refs.js';
import { renderAlgoV2, renderUpdatedV2 } from './render/order-v2.js';
import { accountOf, readerOf, readSymbolList, refused, replyWith } from './route-context.js';
import { applyUpdate } from './update/apply.js';
import { readAlgoUpdate } from './update/request.js';
import { STOP_CATEGORIES } from './wire-vocabulary.js';

/** Generation v2 plan and TP/SL rows (`/api/v2/futures/algo-*`, API-NOTES §4.16). */
export function algoRoutes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.algoOrderCreate,
      handle: (ctx) => {
        const account = accountOf(ctx);
        const command = readPlanCreate(readerOf(ctx), venue, account.category);
        if (!command.ok) return refused(command.error);
        return replyWith(venue.placePlanOrder(account, command.value), renderAlgoV2);
      },
    },
    {
      endpoint: ENDPOINTS.algoOrderUpdate,
      handle: (ctx) => {
        const request = readAlgoUpdate(readerOf(ctx));
        if (!request.ok) return refused(request.error);
        return replyWith(applyUpdate(venue, accountOf(ctx), request.value, 'v2'), renderUpdatedV2);
      },
    },
    {
      endpoint: ENDPOINTS.algoOrderGet,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV2(r);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.getAlgoOrder(accountOf(ctx), ref), renderAlgoV2);
      },
    },
    {
      endpoint: ENDPOINTS.algoOrderCancel,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV2(r);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.cancelAlgoOrder(accountOf(ctx), ref), renderAlgoV2);
      },
    },
    {
      endpoint: ENDPOINTS.openAlgoOrders,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readAlgoList(r, venue, ctx.category, false);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.openAlgoOrders(accountOf(ctx), query).map(renderAlgoV2));
      },
    },
    {
      endpoint: ENDPOINTS.historyAlgoOrders,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const query = readAlgoList(r, venue, ctx.category, true);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk(venue.historyAlgoOrders(accountOf(ctx), query).map(renderAlgoV2));
      },
    },
    {
      endpoint: ENDPOINTS.batchCancelAlgoOrders,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbols = readSymbolList(r, venue, ctx.category);
        // stopCategory is required here (API-NOTES §4.16), unlike the list routes.
        const stopCategory = r.requiredChoice('stopCategory', STOP_CATEGORIES);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.cancelAllAlgoOrders(accountOf(ctx), symbols, stopCategory), () => null);
      },
    },
  ];
}
