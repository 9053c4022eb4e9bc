import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { followerConfigSchema, followerHistoryPageSchema, followerPositionsSchema, leaderSummariesSchema } from '../parsers/follower.js';
import type { FollowerConfig, FollowerHistoryPage, FollowerPosition, LeaderSummary } from '../parsers/follower.js';
import type { RestTransport } from '../rest-transport.js';
import { firstViolation, limitInRange, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';
import { JsonInteger } from '../../protocol/json-writer.js';
import type { JsonWireValue } from '../../protocol/json-writer.js';
import { nullData } from '../wire/schema.js';
import type { FollowerConfigLimits, FollowerConfigUpdate } from './follower-config-rules.js';
import { checkFollowerConfig, delayCheck, leaderIdCheck, stopRate } from './follower-config-rules.js';

export interface PositionStopProfitLoss {
  readonly leaderUserId: string;
  readonly symbolId: string;
  /** 0 short, 1 long. */
  readonly isLong: 0 | 1;
  readonly stopProfitRate?: Decimal;
  readonly stopLossRate?: Decimal;
  /** Seconds. */
  readonly stopLossDelay?: number;
}

export interface FollowerHistoryQuery {
  /** From 1 (default 1). */
  readonly page?: number;
  /** 1 to 100 (default 10). */
  readonly size?: number;
}

const MAX_HISTORY_SIZE = 100;

/** Copy-trading follower endpoints (`/api/v2/copy-trading/follower`, document 001). Errors such as -32045 and -120055 come back as `rejected`. */
export class FollowerApi {
  constructor(private readonly rest: RestTransport) {}

  /** GET /orders/current */
  currentPositions(): Promise<Result<FollowerPosition[], VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.followerCurrent }, followerPositionsSchema);
  }

  /** GET /orders/history */
  async history(query: FollowerHistoryQuery = {}): Promise<Result<FollowerHistoryPage, VenueError>> {
    const e = ENDPOINTS.followerHistory;
    const problem = firstViolation(
      () => limitInRange(e, query.page, 1, Number.MAX_SAFE_INTEGER, 'page'),
      () => limitInRange(e, query.size, 1, MAX_HISTORY_SIZE, 'size'),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ page: query.page, size: query.size }) }, followerHistoryPageSchema);
  }

  /** PUT /positions/stop-profit-loss (JSON body, data null). */
  async setPositionStopProfitLoss(change: PositionStopProfitLoss): Promise<Result<void, VenueError>> {
    const e = ENDPOINTS.followerStopProfitLoss;
    const label = endpointLabel(e);
    const problem = firstViolation(
      () => leaderIdCheck(e, change.leaderUserId),
      () => requireText(e, 'symbolId', change.symbolId),
      () => (change.isLong === 0 || change.isLong === 1 ? undefined : invalidRequest(label, 'is-long', 'isLong must be 0 (short) or 1 (long)', 'isLong')),
      () => stopRate(e, 'stop-rate', 'stopProfitRate', change.stopProfitRate),
      () => stopRate(e, 'stop-rate', 'stopLossRate', change.stopLossRate),
      () => delayCheck(e, change.stopLossDelay),
    );
    if (problem !== undefined) return err(problem);
    const json: Record<string, JsonWireValue> = {
      leaderUserId: new JsonInteger(change.leaderUserId),
      symbolId: change.symbolId,
      isLong: change.isLong,
      stopProfitRate: change.stopProfitRate,
      stopLossRate: change.stopLossRate,
      stopLossDelay: change.stopLossDelay,
    };
    return this.write(e, json);
  }

  /** PUT /config (JSON body, data null): the ten rules of document 001 are checked first, as far as `limits` allows. */
  async setConfig(config: FollowerConfigUpdate, limits: FollowerConfigLimits = {}): Promise<Result<void, VenueError>> {
    const e = ENDPOINTS.followerConfigSet;
    const problem = checkFollowerConfig(config, limits);
    if (problem !== undefined) return err(problem);
    const json: Record<string, JsonWireValue> = {
      leaderUserId: new JsonInteger(config.leaderUserId),
      investAmount: config.investAmount,
      singlePlaceAmount: config.singlePlaceAmount,
      dailyMaxInvestAmount: config.dailyMaxInvestAmount,
      leverage: config.leverage,
      maxInvestRate: config.maxInvestRate,
      stopProfitRate: config.stopProfitRate,
      stopLossRate: config.stopLossRate,
      realInvestAmount: config.realInvestAmount,
      isolatedReservedAmount: config.isolatedReservedAmount,
      followAmountMode: config.followAmountMode,
      stopLossDelay: config.stopLossDelay,
      followMarginType: config.followMarginType,
      followSymbolIds: config.followSymbolIds,
      zeroSlippageSwitch: config.zeroSlippageSwitch,
    };
    return this.write(e, json);
  }

  /** GET /config */
  async getConfig(leaderUserId: string): Promise<Result<FollowerConfig, VenueError>> {
    const e = ENDPOINTS.followerConfigGet;
    const problem = leaderIdCheck(e, leaderUserId);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ leaderUserId }) }, followerConfigSchema);
  }

  /** GET /leaders */
  leaders(): Promise<Result<LeaderSummary[], VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.followerLeaders }, leaderSummariesSchema);
  }

  /** DELETE /leaders/{leaderUserId}: refused by the server (-120055) while copy positions exist. */
  async unfollow(leaderUserId: string): Promise<Result<void, VenueError>> {
    const e = ENDPOINTS.followerUnfollow;
    const problem = leaderIdCheck(e, leaderUserId);
    if (problem !== undefined) return err(problem);
    const reply = await callParsed(this.rest, { endpoint: e, pathParams: { leaderUserId } }, nullData);
    return reply.ok ? ok(undefined) : reply;
  }

  private async write(e: EndpointDef, json: JsonWireValue): Promise<Result<void, VenueError>> {
    const reply = await callParsed(this.rest, { endpoint: e, json }, nullData);
    return reply.ok ? ok(undefined) : reply;
  }
}
