import type { Decimal } from '../../../core/decimal.js';
import { err, ok } from '../../../core/result.js';
import type { SimReject, SimResult } from '../../engine/types.js';
import type { RequestParams } from '../../server/routing/types.js';
import { stopRateValid } from '../config-rules.js';
import type { PositionStopsChange } from '../trading-desk.js';
import type { FollowConfigRequest } from '../follow-config.js';
import { followerRejects } from './rejects.js';
import { JsonBodyReader } from '../json-body-reader.js';
import { leaderIdOf } from '../leader/id.js';

/** PUT /config: every field present and well-typed (-1102 otherwise); the ten rules come after. */
export function readConfigRequest(json: unknown): SimResult<FollowConfigRequest> {
  const r = new JsonBodyReader(json);
  const request: FollowConfigRequest = {
    leaderUserId: r.requiredLeaderId('leaderUserId'),
    investAmount: r.requiredDecimal('investAmount'),
    singlePlaceAmount: r.requiredDecimal('singlePlaceAmount'),
    dailyMaxInvestAmount: r.requiredDecimal('dailyMaxInvestAmount'),
    leverage: r.requiredDecimal('leverage'),
    maxInvestRate: r.requiredDecimal('maxInvestRate'),
    stopProfitRate: r.requiredDecimal('stopProfitRate'),
    stopLossRate: r.requiredDecimal('stopLossRate'),
    realInvestAmount: r.requiredDecimal('realInvestAmount'),
    isolatedReservedAmount: r.requiredDecimal('isolatedReservedAmount'),
    followAmountMode: r.requiredInteger('followAmountMode'),
    stopLossDelay: r.requiredInteger('stopLossDelay'),
    followMarginType: r.requiredInteger('followMarginType'),
    followSymbolIds: r.requiredString('followSymbolIds'),
    zeroSlippageSwitch: r.requiredBoolean('zeroSlippageSwitch'),
  };
  return r.failure === undefined ? ok(request) : err(r.failure);
}

/** PUT /positions/stop-profit-loss: leaderUserId, symbolId, isLong required; rates 0 or ≥ 0.01; delay ≥ 0. */
export function readPositionStops(json: unknown): SimResult<PositionStopsChange> {
  const r = new JsonBodyReader(json);
  const leaderUserId = r.requiredLeaderId('leaderUserId');
  const symbolId = r.requiredString('symbolId');
  const isLong = r.requiredInteger('isLong');
  const stopProfitRate = r.optionalDecimal('stopProfitRate');
  const stopLossRate = r.optionalDecimal('stopLossRate');
  const stopLossDelay = r.optionalInteger('stopLossDelay');
  if (r.failure !== undefined) return err(r.failure);
  const problem = firstOf([
    [symbolId.trim() === '', followerRejects.missing('symbolId')],
    [isLong !== 0 && isLong !== 1, followerRejects.invalid('isLong')],
    [!rateOk(stopProfitRate), followerRejects.invalid('stopProfitRate')],
    [!rateOk(stopLossRate), followerRejects.invalid('stopLossRate')],
    [stopLossDelay !== undefined && stopLossDelay < 0, followerRejects.invalid('stopLossDelay')],
  ]);
  if (problem !== undefined) return err(problem);
  return ok({
    leaderUserId,
    symbolId,
    isLong: isLong === 1,
    ...(stopProfitRate === undefined ? {} : { stopProfitRate }),
    ...(stopLossRate === undefined ? {} : { stopLossRate }),
    ...(stopLossDelay === undefined ? {} : { stopLossDelay }),
  });
}

/** A leader id from the query or the path: missing or not an id of at least 1 is -1130 (the only code these routes list). */
export function readLeaderIdText(text: string | undefined): SimResult<string> {
  const id = text === undefined ? undefined : leaderIdOf(text);
  return id === undefined ? err(followerRejects.invalid('leaderUserId')) : ok(id);
}

export const DEFAULT_HISTORY_SIZE = 10;
export const MAX_HISTORY_SIZE = 100;

/** GET /orders/history: page from 1 (default 1), size 1 to 100 (default 10); anything else -1130. */
export function readHistoryQuery(params: RequestParams): SimResult<{ readonly page: number; readonly size: number }> {
  const page = positiveInteger(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
  if (page === undefined) return err(followerRejects.invalid('page'));
  const size = positiveInteger(params.get('size'), DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE);
  if (size === undefined) return err(followerRejects.invalid('size'));
  return ok({ page, size });
}

function positiveInteger(text: string | undefined, fallback: number, max: number): number | undefined {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= max ? n : undefined;
}

function rateOk(rate: Decimal | undefined): boolean {
  return rate === undefined || (!rate.isNegative() && stopRateValid(rate));
}

function firstOf(checks: readonly (readonly [boolean, SimReject])[]): SimReject | undefined {
  return checks.find(([failed]) => failed)?.[1];
}
