import { endpointLabel } from '../../../protocol/endpoints.js';
import { authenticate } from '../authenticate.js';
import { serverErrors } from '../exchange-errors.js';
import type { Keyring } from '../keyring.js';
import { acceptsBatchSigning, parseRequest, resolveCategory } from '../parse-request.js';
import type { LimitVerdict, ServerRateLimits } from '../rate-limits.js';
import type { RawRequest } from '../raw-request.js';
import type { RouteMatch } from './table.js';
import type { Caller, RouteContext, RouteError, RouteReply } from './types.js';
import type { ServerReply } from '../server-reply.js';
import { renderRouteReply, withHeaders } from '../server-reply.js';
import type { SimServerMetrics } from '../server-metrics.js';

export interface RoutePipelineDeps {
  readonly keyring: Keyring;
  readonly limits: ServerRateLimits;
  readonly metrics: SimServerMetrics;
  /** Runs just before a handler, with the request's server time (the engine advances its market there). */
  readonly beforeHandler: (now: number) => void;
  /** A handler threw: the request is answered -1000 / HTTP 500. */
  readonly onHandlerError: (error: unknown, route: string) => void;
}

/**
 * One request to a mounted exchange route, after transport faults: IP ban, weight (-1003), body,
 * authentication, category, ORDERS budget (-1015), handler, envelope. Signed routes' answers carry the
 * X-Api-Limit headers. A refused request never reaches its handler.
 */
export class RoutePipeline {
  constructor(private readonly deps: RoutePipelineDeps) {}

  async run(match: RouteMatch, raw: RawRequest, now: number): Promise<ServerReply> {
    const { route, pathParams } = match;
    const { endpoint } = route;
    const { keyring, limits } = this.deps;
    const signed = endpoint.security !== 'NONE';
    const apiKey = raw.headers['x-bb-apikey'];
    const knownKey = signed && apiKey !== undefined ? keyring.find(apiKey) : undefined;
    const identity = knownKey !== undefined ? `key:${knownKey.caller.apiKey}` : `ip:${raw.ip}`;
    const answer = (reply: RouteReply, resetAt?: number): ServerReply => {
      const rendered = renderRouteReply(reply, endpoint.wire);
      if (!signed) return rendered;
      const status = limits.weightStatus(identity, now);
      return withHeaders(rendered, {
        'X-Api-Limit-Status': String(status.remaining),
        'X-Api-Limit': String(status.limit),
        'X-Api-Limit-Reset-Timestamp': String(resetAt ?? status.resetAt),
      });
    };

    const bannedUntil = limits.bannedUntil(raw.ip, now);
    if (bannedUntil !== undefined) {
      this.deps.metrics.countLimited('IP_BAN');
      return answer(serverErrors.ipBanned(bannedUntil), bannedUntil);
    }
    const parsed = parseRequest(raw, endpoint);
    const weight = route.weightOf?.(parsed.params) ?? endpoint.weight;
    const weightVerdict = limits.spendWeight(identity, raw.ip, weight, now);
    if (weightVerdict.kind !== 'ok') return this.refused(weightVerdict, 'REQUEST_WEIGHT', answer);
    if (parsed.bodyError !== undefined) return answer(parsed.bodyError);

    let caller: Caller | undefined;
    if (signed) {
      const auth = authenticate(
        {
          endpoint,
          requiresAccountType: route.requiresAccountType,
          batchSigning: acceptsBatchSigning(route),
          apiKey,
          parts: parsed.parts,
          params: parsed.params,
          now,
        },
        keyring,
      );
      if (!auth.ok) return answer(auth.error);
      caller = auth.value;
    }
    const category = resolveCategory(parsed.params);
    if (!category.ok) return answer(category.error);

    if (endpoint.ordersBudget && caller !== undefined) {
      const units = orderUnits(route.ordersOf?.({ json: parsed.json }));
      const ordersVerdict = limits.spendOrders(caller.userId, raw.ip, units, now);
      if (ordersVerdict.kind !== 'ok') return this.refused(ordersVerdict, 'ORDERS', answer);
    }

    const ctx: RouteContext = { now, params: parsed.params, json: parsed.json, pathParams, caller, category: category.value };
    return answer(await this.execute(route.handle, ctx, endpointLabel(endpoint)));
  }

  private async execute(handle: (ctx: RouteContext) => RouteReply | Promise<RouteReply>, ctx: RouteContext, label: string): Promise<RouteReply> {
    try {
      this.deps.beforeHandler(ctx.now);
      return await handle(ctx);
    } catch (error: unknown) {
      this.deps.onHandlerError(error, label);
      return serverErrors.unknown();
    }
  }

  private refused(
    verdict: Exclude<LimitVerdict, { kind: 'ok' }>,
    limit: 'REQUEST_WEIGHT' | 'ORDERS',
    answer: (reply: RouteError, resetAt?: number) => ServerReply,
  ): ServerReply {
    const { settings } = this.deps.limits;
    if (verdict.kind === 'banned') {
      this.deps.metrics.countLimited('IP_BAN');
      return answer(serverErrors.ipBanned(verdict.until), verdict.until);
    }
    this.deps.metrics.countLimited(limit);
    const error =
      limit === 'ORDERS'
        ? serverErrors.tooManyOrders(verdict.limit, windowText(settings.ordersWindowMs))
        : serverErrors.tooManyRequests(verdict.limit, windowText(settings.weightWindowMs));
    return answer(error, verdict.resetAt);
  }
}

/** ORDERS units a route reports; anything but a non-negative integer counts as 1. */
function orderUnits(units: number | undefined): number {
  return units !== undefined && Number.isInteger(units) && units >= 0 ? units : 1;
}

function windowText(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
