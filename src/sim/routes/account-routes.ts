import { dec } from '../../core/decimal.js';
import { ok } from '../../core/result.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { TransferCommand } from '../engine/types.js';
import type { RouteContext, RouteReply, SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import { readFlowRequest } from './flow-query.js';
import { rejects } from './rejects.js';
import { renderAccountLeverage, renderFuturesBalance, renderLeverageSet, renderMarginTypeSet, renderPosition, renderSubAccount } from './render/account.js';
import { renderFlowV1, renderFlowV2, renderFuturesFlowV1 } from './render/flows.js';
import { accountOf, readerOf, readSymbol, refused, replyWith } from './route-context.js';
import { POSITION_SIDES, TRANSFER_ACCOUNT_ALIASES, TRANSFER_ACCOUNT_TYPES } from './wire-vocabulary.js';

/** Sub-accounts, transfers, balance flows, margin type, leverage, futures balance and positions. */
export function accountRoutes(venue: SimVenue): SimRoute[] {
  const flows = (generation: 'v1-account' | 'v1-futures' | 'v2', render: (view: Parameters<typeof renderFlowV1>[0]) => unknown) => (ctx: RouteContext): RouteReply => {
    const r = readerOf(ctx);
    const account = accountOf(ctx);
    const request = readFlowRequest(r, account.userId, account.category, generation);
    if (r.failure !== undefined) return refused(r.failure);
    return routeOk(request.kind === 'empty' ? [] : venue.balanceFlows(request.query).map(render));
  };

  return [
    {
      endpoint: ENDPOINTS.subAccountList,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const userId = r.id('userId');
        const email = r.text('email');
        if (r.failure !== undefined) return refused(r.failure);
        const filter = { ...(userId === undefined ? {} : { userId }), ...(email === undefined ? {} : { email }) };
        return replyWith(venue.subAccounts(accountOf(ctx).userId, filter), (list) => list.map(renderSubAccount));
      },
    },
    {
      endpoint: ENDPOINTS.subAccountTransfer,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const fromUserId = r.requiredId('fromUid');
        const toUserId = r.requiredId('toUid');
        const fromAccountType = r.requiredChoice('fromAccountType', TRANSFER_ACCOUNT_TYPES, undefined, TRANSFER_ACCOUNT_ALIASES);
        const toAccountType = r.requiredChoice('toAccountType', TRANSFER_ACCOUNT_TYPES, undefined, TRANSFER_ACCOUNT_ALIASES);
        // `asset` is the earlier name of `coin` (document 000; ccxt still sends it, API-NOTES §5.11 RULE).
        const coin = r.textOf(['coin', 'asset']);
        if (coin === undefined) r.fail(rejects.missing('coin'));
        const quantity = r.requiredDecimal('quantity');
        const transferId = r.id('transferId');
        const command = r.finish(
          (): TransferCommand => ({
            fromUserId,
            toUserId,
            fromAccountType,
            toAccountType,
            coin: coin ?? '',
            quantity,
            ...(transferId === undefined ? {} : { transferId }),
          }),
        );
        if (!command.ok) return refused(command.error);
        return replyWith(venue.transfer(accountOf(ctx).userId, command.value), () => ({ code: 200, msg: 'success' }));
      },
    },
    { endpoint: ENDPOINTS.accountBalanceFlow, handle: flows('v1-account', renderFlowV1) },
    { endpoint: ENDPOINTS.futuresBalanceFlow, handle: flows('v1-futures', renderFuturesFlowV1) },
    { endpoint: ENDPOINTS.balanceFlowV2, handle: flows('v2', renderFlowV2) },
    {
      endpoint: ENDPOINTS.marginType,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const marginType = r.requiredChoice('marginType', ['CROSS', 'ISOLATED'] as const);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.setMarginType(accountOf(ctx), symbol, marginType), renderMarginTypeSet);
      },
    },
    {
      endpoint: ENDPOINTS.leverage,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category) ?? '';
        const leverage = r.requiredInteger('leverage', 1);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.setLeverage(accountOf(ctx), symbol, leverage), renderLeverageSet);
      },
    },
    {
      endpoint: ENDPOINTS.accountLeverage,
      handle: (ctx) => {
        // symbol is required (document 000): -1102 without it.
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category);
        if (r.failure !== undefined || symbol === undefined) return refused(r.failure ?? rejects.missing('symbol'));
        return routeOk(venue.symbolSettings(accountOf(ctx), symbol).map(renderAccountLeverage));
      },
    },
    {
      endpoint: ENDPOINTS.futuresBalance,
      handle: (ctx) => replyWith(ok(venue.futuresBalance(accountOf(ctx))), (view) => [renderFuturesBalance(view)]),
    },
    {
      endpoint: ENDPOINTS.positions,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const symbol = readSymbol(r, venue, ctx.category, false);
        const side = r.choice('side', POSITION_SIDES);
        if (r.failure !== undefined) return refused(r.failure);
        // Flat sides are not positions: the route answers [] when flat (API-NOTES §4.2).
        const open = venue.positions(accountOf(ctx), symbol, side).filter((p) => !dec(p.position).isZero());
        return routeOk(open.map(renderPosition));
      },
    },
  ];
}
