import { err, ok } from '../../../core/result.js';
import { ENDPOINTS } from '../../../protocol/endpoints.js';
import type { SimVenue } from '../../engine/sim-venue.js';
import type { AccountRef, AlgoOrderView, SimResult } from '../../engine/types.js';
import type { RouteContext, SimRoute } from '../../server/routing/types.js';
import { routeOk } from '../../server/routing/types.js';
import { batchOrdersOf, readBatchLegs } from '../batch-body.js';
import type { CreateV1 } from '../create-rules.js';
import { readCreateV1 } from '../create-rules.js';
import { readOrderList, readV1Kind } from '../list-query.js';
import { readRefV1 } from '../order-refs.js';
import { ParamReader } from '../param-reader.js';
import type { ParamSource } from '../param-source.js';
import { rejects } from '../rejects.js';
import { renderAlgoV1, renderOrderV1 } from '../render/order-v1.js';
import { accountOf, readerOf, refused, replyWith } from '../route-context.js';
import { applyUpdate } from '../update/apply.js';
import { readUpdateV1 } from '../update/request.js';

/** Places a parsed v1 create; the answer row is rendered with or without contractMultiplier. */
function placeV1(venue: SimVenue, account: AccountRef, create: CreateV1, withMultiplier: boolean): SimResult<Record<string, unknown>> {
  if (create.kind === 'order') {
    const placed = venue.placeOrder(account, create.command);
    return placed.ok ? ok(renderOrderV1(placed.value, { withMultiplier })) : placed;
  }
  const placed = venue.placePlanOrder(account, create.command);
  return placed.ok ? ok(renderAlgoV1(placed.value, { withMultiplier })) : placed;
}

/** v1 leg answers: `{code: 200, order}` or the leg's own `{code, msg}` (document 000). */
function placeLeg(venue: SimVenue, account: AccountRef, leg: ParamSource): Record<string, unknown> {
  const create = readCreateV1(new ParamReader(leg), venue, account.category);
  const placed = create.ok ? placeV1(venue, account, create.value, false) : create;
  return placed.ok ? { code: 200, order: placed.value } : { code: placed.error.code, msg: placed.error.msg };
}

/** Newest first by 64-bit id. */
function byIdDescending(a: AlgoOrderView, b: AlgoOrderView): number {
  const x = BigInt(a.orderId);
  const y = BigInt(b.orderId);
  return x === y ? 0 : x > y ? -1 : 1;
}

/** Generation v1 orders (`/api/v1/futures`): bare JSON answers. */
export function ordersV1Routes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.orderV1Create,
      handle: (ctx) => {
        const account = accountOf(ctx);
        const create = readCreateV1(readerOf(ctx), venue, account.category);
        if (!create.ok) return refused(create.error);
        // The engine answers PENDING_NEW for generation v1 (API-NOTES §5.7 RULE).
        return replyWith(placeV1(venue, account, create.value, true), (row) => row);
      },
    },
    {
      endpoint: ENDPOINTS.batchOrdersV1,
      ordersOf: batchOrdersOf,
      handle: (ctx) => {
        const legs = readBatchLegs(ctx.json);
        if (!legs.ok) return refused(legs.error);
        // One symbol per batch (document 000); a leg without one fails on its own.
        const symbols = new Set(legs.value.map((leg) => new ParamReader(leg).text('symbol')).filter((s) => s !== undefined));
        if (symbols.size > 1) return refused(rejects.invalid('symbol'));
        const account = accountOf(ctx);
        // Legs are independent: a refused leg never blocks the others (document 000).
        return routeOk({ code: 200, result: legs.value.map((leg) => placeLeg(venue, account, leg)) });
      },
    },
    {
      endpoint: ENDPOINTS.orderV1Get,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV1(r);
        const kind = readV1Kind(r);
        if (r.failure !== undefined) return refused(r.failure);
        const account = accountOf(ctx);
        if (kind === 'LIMIT') return replyWith(venue.getOrder(account, ref), (view) => renderOrderV1(view, { withMultiplier: false }));
        return replyWith(venue.getAlgoOrder(account, ref), (view) => renderAlgoV1(view, { withMultiplier: false }));
      },
    },
    {
      endpoint: ENDPOINTS.orderV1Update,
      handle: (ctx) => {
        const request = readUpdateV1(readerOf(ctx));
        if (!request.ok) return refused(request.error);
        return replyWith(applyUpdate(venue, accountOf(ctx), request.value, 'v1'), (updated) =>
          updated.kind === 'order' ? renderOrderV1(updated.view, { withMultiplier: true }) : renderAlgoV1(updated.view, { withMultiplier: true }),
        );
      },
    },
    {
      endpoint: ENDPOINTS.orderV1Cancel,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const ref = readRefV1(r);
        const kind = readV1Kind(r);
        if (r.failure !== undefined) return refused(r.failure);
        const account = accountOf(ctx);
        // The answer is the snapshot from BEFORE the cancel (API-NOTES §4.7 RULE: ccxt needs an open status).
        if (kind === 'LIMIT') return replyWith(venue.cancelOrder(account, ref), ({ before }) => renderOrderV1(before, { withMultiplier: false }));
        return replyWith(cancelAlgoBefore(venue, account, ref), (before) => renderAlgoV1(before, { withMultiplier: false }));
      },
    },
    {
      endpoint: ENDPOINTS.openOrdersV1,
      handle: (ctx: RouteContext) => {
        const r = readerOf(ctx);
        const kind = readV1Kind(r);
        const query = readOrderList(r, venue, ctx.category, false);
        if (r.failure !== undefined) return refused(r.failure);
        const account = accountOf(ctx);
        if (kind === 'LIMIT') return routeOk(venue.openOrders(account, query).map((view) => renderOrderV1(view, { withMultiplier: false })));
        // v1 type STOP lists plan and TP/SL rows together.
        const rows = [...venue.openAlgoOrders(account, { ...query, stopCategory: 'STOP' }), ...venue.openAlgoOrders(account, { ...query, stopCategory: 'STOP_PROFIT_LOSS' })];
        return routeOk(rows.sort(byIdDescending).slice(0, query.limit).map((view) => renderAlgoV1(view, { withMultiplier: false })));
      },
    },
  ];
}

/** Cancels a plan or TP/SL row and answers its state before the cancel, as v1 does for regular orders. */
function cancelAlgoBefore(venue: SimVenue, account: AccountRef, ref: Parameters<SimVenue['getAlgoOrder']>[1]): SimResult<AlgoOrderView> {
  const before = venue.getAlgoOrder(account, ref);
  if (!before.ok) return before;
  const canceled = venue.cancelAlgoOrder(account, { orderId: before.value.orderId });
  return canceled.ok ? ok(before.value) : err(canceled.error);
}
