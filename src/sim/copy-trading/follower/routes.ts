import { ENDPOINTS } from '../../../protocol/endpoints.js';
import type { SimResult } from '../../engine/types.js';
import type { RouteContext, RouteReply, SimRoute } from '../../server/routing/types.js';
import { routeError, routeOk } from '../../server/routing/types.js';
import type { CopyTradingDesk } from '../trading-desk.js';
import { readConfigRequest, readHistoryQuery, readLeaderIdText, readPositionStops } from './requests.js';
import { renderConfig, renderCurrentPosition, renderHistoryPage, renderLeaderSummary } from './wire.js';

/**
 * The seven follower endpoints (`/api/v2/copy-trading/follower`, document 001). The server has
 * already checked the signature, the COPY_TRADING key and read-only keys on writes; `data` goes in
 * the v2 wrapper. Each request first brings the desk to the engine's time.
 */
export function followerRoutes(desk: CopyTradingDesk): SimRoute[] {
  const route = (endpoint: SimRoute['endpoint'], handle: (ctx: RouteContext, userId: string) => RouteReply): SimRoute => ({
    endpoint,
    requiresAccountType: 'COPY_TRADING',
    handle: (ctx) => {
      desk.catchUp();
      return handle(ctx, ctx.caller?.userId ?? '');
    },
  });

  return [
    route(ENDPOINTS.followerCurrent, (_ctx, userId) => reply(desk.currentPositions(userId), (rows) => rows.map(renderCurrentPosition))),
    route(ENDPOINTS.followerHistory, (ctx, userId) => {
      const query = readHistoryQuery(ctx.params);
      if (!query.ok) return refused(query);
      return reply(desk.history(userId, query.value.page, query.value.size), (page) => renderHistoryPage(page, (id) => desk.nicknameOf(id)));
    }),
    route(ENDPOINTS.followerStopProfitLoss, (ctx, userId) => {
      const change = readPositionStops(ctx.json);
      return change.ok ? reply(desk.setPositionStops(userId, change.value), () => null) : refused(change);
    }),
    route(ENDPOINTS.followerConfigSet, (ctx, userId) => {
      const request = readConfigRequest(ctx.json);
      return request.ok ? reply(desk.setConfig(userId, request.value), () => null) : refused(request);
    }),
    route(ENDPOINTS.followerConfigGet, (ctx, userId) => {
      const leaderUserId = readLeaderIdText(ctx.params.get('leaderUserId'));
      return leaderUserId.ok ? reply(desk.config(userId, leaderUserId.value), renderConfig) : refused(leaderUserId);
    }),
    route(ENDPOINTS.followerLeaders, (_ctx, userId) => reply(desk.followedLeaders(userId), (rows) => rows.map(renderLeaderSummary))),
    route(ENDPOINTS.followerUnfollow, (ctx, userId) => {
      const leaderUserId = readLeaderIdText(ctx.pathParams['leaderUserId']);
      return leaderUserId.ok ? reply(desk.unfollow(userId, leaderUserId.value), () => null) : refused(leaderUserId);
    }),
  ];
}

function reply<T>(result: SimResult<T>, render: (value: T) => unknown): RouteReply {
  return result.ok ? routeOk(render(result.value)) : routeError(result.error.code, result.error.msg);
}

function refused(result: { readonly ok: false; readonly error: { readonly code: number; readonly msg: string } }): RouteReply {
  return routeError(result.error.code, result.error.msg);
}
