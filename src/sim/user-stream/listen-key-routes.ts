import { invariant } from '../../core/errors.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import type { RouteContext, RouteReply, SimRoute } from '../server/routing/types.js';
import { routeError, routeOk } from '../server/routing/types.js';
import type { ListenKeyRegistry } from './listen-key-registry.js';

const ALIAS_PATH = '/api/v1/userDataStream';

/** `/api/v1/userDataStream`: same parameters and answers as `/api/v1/listenKey` (API-NOTES §4.21; ccxt and JKorf use it). */
export const USER_DATA_STREAM_ENDPOINTS = {
  create: { ...ENDPOINTS.listenKeyCreate, path: ALIAS_PATH, doc: 'API-NOTES' },
  keepalive: { ...ENDPOINTS.listenKeyKeepalive, path: ALIAS_PATH, doc: 'API-NOTES' },
  close: { ...ENDPOINTS.listenKeyClose, path: ALIAS_PATH, doc: 'API-NOTES' },
} as const satisfies Record<string, EndpointDef>;

const MISSING_LISTEN_KEY = "Mandatory parameter 'listenKey' was not sent, was empty/null, or malformed.";

/** POST/PUT/DELETE on both listen-key paths: `{"listenKey":"…"}` / `{}`; -1102 without a key, -1125 for an unknown one. */
export function listenKeyRoutes(registry: ListenKeyRegistry): SimRoute[] {
  const create = (ctx: RouteContext): RouteReply => {
    const listenKey = registry.create({ userId: callerId(ctx), category: ctx.category }).listenKey;
    return routeOk({ listenKey });
  };
  const keepalive = (ctx: RouteContext): RouteReply =>
    withKey(ctx, (userId, listenKey) => registry.keepAlive(userId, listenKey));
  const close = (ctx: RouteContext): RouteReply => withKey(ctx, (userId, listenKey) => registry.close(userId, listenKey));

  return [
    { endpoint: ENDPOINTS.listenKeyCreate, handle: create },
    { endpoint: ENDPOINTS.listenKeyKeepalive, handle: keepalive },
    { endpoint: ENDPOINTS.listenKeyClose, handle: close },
    { endpoint: USER_DATA_STREAM_ENDPOINTS.create, handle: create },
    { endpoint: USER_DATA_STREAM_ENDPOINTS.keepalive, handle: keepalive },
    { endpoint: USER_DATA_STREAM_ENDPOINTS.close, handle: close },
  ];
}

function withKey(
  ctx: RouteContext,
  act: (userId: string, listenKey: string) => { readonly ok: true } | { readonly ok: false; readonly error: { readonly code: number; readonly msg: string } },
): RouteReply {
  const listenKey = ctx.params.get('listenKey')?.trim() ?? '';
  if (listenKey === '') return routeError(-1102, MISSING_LISTEN_KEY);
  const result = act(callerId(ctx), listenKey);
  return result.ok ? routeOk({}) : routeError(result.error.code, result.error.msg);
}

function callerId(ctx: RouteContext): string {
  invariant(ctx.caller !== undefined, 'SIM_UNSIGNED_USER_STREAM', 'USER_STREAM routes are signed: the server must pass the caller');
  return ctx.caller.userId;
}
