import { Decimal } from '../../core/decimal.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import type { Check } from '../validate.js';
import { firstViolation } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';

/** 0 fixed-amount follow, 1 fixed-rate follow. */
export type FollowAmountMode = 0 | 1;
/** 0 all lead orders, 1 cross-margin lead orders only, 2 isolated-margin lead orders only. */
export type FollowMarginType = 0 | 1 | 2;

/** PUT /config body: every field is required (document 001). */
export interface FollowerConfigUpdate {
  /** 64-bit id as its digits; sent as a bare JSON number. */
  readonly leaderUserId: string;
  /** Total invested after the update. */
  readonly investAmount: Decimal;
  readonly singlePlaceAmount: Decimal;
  /** 0: no daily limit. */
  readonly dailyMaxInvestAmount: Decimal;
  readonly leverage: Decimal;
  /** 0 to 1 (0.5 = 50%). */
  readonly maxInvestRate: Decimal;
  /** 0: not configured, else at least 0.01. */
  readonly stopProfitRate: Decimal;
  readonly stopLossRate: Decimal;
  readonly realInvestAmount: Decimal;
  readonly isolatedReservedAmount: Decimal;
  readonly followAmountMode: FollowAmountMode;
  /** Seconds. */
  readonly stopLossDelay: number;
  readonly followMarginType: FollowMarginType;
  /** `all`, or comma-separated symbol ids. */
  readonly followSymbolIds: string;
  readonly zeroSlippageSwitch: boolean;
}

/**
 * Minimums and maximums set by the leader or the system. No endpoint publishes them (document 001:
 * "The endpoint for maximum and minimum follow order quantity is not provided"), so the caller passes
 * what it knows; rules depending on an unknown value are left to the server.
 */
export interface FollowerConfigLimits {
  /** Per-order minimum of fixed-amount follow (rules 4, 6, 7). */
  readonly minSingleAmount?: Decimal;
  /** Minimum of fixed-rate follow (rules 5, 6). */
  readonly minFixedRateAmount?: Decimal;
  /** System maximum follow leverage (rule 8). */
  readonly maxFollowLeverage?: Decimal;
}

const MAX_DECIMALS = 8;
const MIN_STOP_RATE = new Decimal('0.01');
const RULE1_AMOUNTS = [
  'investAmount',
  'singlePlaceAmount',
  'dailyMaxInvestAmount',
  'leverage',
  'stopProfitRate',
  'stopLossRate',
  'realInvestAmount',
  'isolatedReservedAmount',
] as const;
const DECIMAL_FIELDS = [...RULE1_AMOUNTS, 'maxInvestRate'] as const;
const INTEGER_FIELDS = ['followAmountMode', 'stopLossDelay', 'followMarginType'] as const;

/**
 * The rules of PUT /config (document 001), each violation named `follower-config-rule-N`.
 * Checked only by the server: the leader's per-order minimum, the fixed-rate minimum and the maximum
 * follow leverage when `limits` does not give them (rules 4 to 8), and rule 8's "leverage cannot be
 * changed while active following orders exist".
 */
export function checkFollowerConfig(config: FollowerConfigUpdate, limits: FollowerConfigLimits = {}): Check {
  const e = ENDPOINTS.followerConfigSet;
  const label = endpointLabel(e);
  const rule = (n: number, message: string, field: string): VenueError => invalidRequest(label, `follower-config-rule-${n}`, message, field);
  const mode = config.followAmountMode;
  const single = config.singlePlaceAmount;
  const reserved = config.isolatedReservedAmount;
  const { minSingleAmount, minFixedRateAmount, maxFollowLeverage } = limits;
  return firstViolation(
    () => presence(e, config),
    // 1. amounts: at most 8 decimals, not negative.
    ...RULE1_AMOUNTS.map((field) => () => {
      const v = config[field];
      if (v.decimalPlaces() > MAX_DECIMALS) return rule(1, `${field} has more than ${MAX_DECIMALS} decimal places`, field);
      return v.gte(0) ? undefined : rule(1, `${field} must not be negative`, field);
    }),
    // 2. maxInvestRate: at most 8 decimals, between 0 and 1.
    () => {
      const v = config.maxInvestRate;
      if (v.decimalPlaces() > MAX_DECIMALS) return rule(2, `maxInvestRate has more than ${MAX_DECIMALS} decimal places`, 'maxInvestRate');
      return v.gte(0) && v.lte(1) ? undefined : rule(2, 'maxInvestRate must be between 0 and 1', 'maxInvestRate');
    },
    // 3. followSymbolIds: `all`, or comma-separated ids without empty parts; `all` stands alone.
    () => symbolIdsProblem(config.followSymbolIds, (message) => rule(3, message, 'followSymbolIds')),
    // 4. fixed amount: singlePlaceAmount >= per-order minimum; realInvestAmount >= reserved + singlePlaceAmount.
    () => {
      if (mode !== 0) return undefined;
      if (minSingleAmount !== undefined && single.lt(minSingleAmount)) {
        return rule(4, `singlePlaceAmount must be at least the per-order minimum ${minSingleAmount.toFixed()}`, 'singlePlaceAmount');
      }
      return config.realInvestAmount.gte(reserved.plus(single))
        ? undefined
        : rule(4, 'realInvestAmount must be at least isolatedReservedAmount plus singlePlaceAmount', 'realInvestAmount');
    },
    // 5. fixed rate: realInvestAmount >= reserved + fixed-rate minimum (only when that minimum is known).
    () =>
      mode === 1 && minFixedRateAmount !== undefined && config.realInvestAmount.lt(reserved.plus(minFixedRateAmount))
        ? rule(5, `realInvestAmount must be at least isolatedReservedAmount plus the fixed-rate minimum ${minFixedRateAmount.toFixed()}`, 'realInvestAmount')
        : undefined,
    // 6. investAmount (total after the update) >= minimum of the current mode.
    () => {
      const min = mode === 0 ? minSingleAmount : mode === 1 ? minFixedRateAmount : undefined;
      return min !== undefined && config.investAmount.lt(min) ? rule(6, `investAmount must be at least the minimum ${min.toFixed()} of follow mode ${mode}`, 'investAmount') : undefined;
    },
    // 7. dailyMaxInvestAmount: 0 (no limit) or >= per-order minimum.
    () => {
      const daily = config.dailyMaxInvestAmount;
      return minSingleAmount !== undefined && !daily.isZero() && daily.lt(minSingleAmount)
        ? rule(7, `dailyMaxInvestAmount must be 0 or at least the per-order minimum ${minSingleAmount.toFixed()}`, 'dailyMaxInvestAmount')
        : undefined;
    },
    // 8. leverage <= system maximum follow leverage.
    () =>
      maxFollowLeverage !== undefined && config.leverage.gt(maxFollowLeverage)
        ? rule(8, `leverage may not exceed the maximum follow leverage ${maxFollowLeverage.toFixed()}`, 'leverage')
        : undefined,
    // 9. stop rates: 0 (not configured) or >= 0.01.
    () => stopRate(e, 'follower-config-rule-9', 'stopProfitRate', config.stopProfitRate),
    () => stopRate(e, 'follower-config-rule-9', 'stopLossRate', config.stopLossRate),
    // 10. followMarginType in {0,1,2}; followAmountMode in {0,1}.
    () => ([0, 1, 2].includes(config.followMarginType) ? undefined : rule(10, 'followMarginType must be 0, 1 or 2', 'followMarginType')),
    () => ([0, 1].includes(mode) ? undefined : rule(10, 'followAmountMode must be 0 (fixed amount) or 1 (fixed rate)', 'followAmountMode')),
    () => delayCheck(e, config.stopLossDelay),
  );
}

/** Every field of PUT /config is required, with its documented type. */
function presence(e: EndpointDef, config: FollowerConfigUpdate): Check {
  const missing = (field: string, what: string): VenueError => invalidRequest(endpointLabel(e), 'mandatory-parameter', `${field} is required (${what})`, field);
  const idProblem = leaderIdCheck(e, config.leaderUserId);
  if (idProblem !== undefined) return idProblem;
  for (const field of DECIMAL_FIELDS) {
    const v: unknown = config[field];
    if (!Decimal.isDecimal(v) || !v.isFinite()) return missing(field, 'a finite decimal');
  }
  for (const field of INTEGER_FIELDS) {
    if (!Number.isInteger(config[field])) return missing(field, 'an integer');
  }
  if (typeof config.followSymbolIds !== 'string') return missing('followSymbolIds', 'a string');
  if (typeof config.zeroSlippageSwitch !== 'boolean') return missing('zeroSlippageSwitch', 'a boolean');
  return undefined;
}

function symbolIdsProblem(ids: string, problem: (message: string) => VenueError): Check {
  if (ids.trim() === '') return problem('followSymbolIds must not be blank');
  const parts = ids.split(',');
  if (parts.some((p) => p.trim() === '')) return problem('followSymbolIds has an empty part');
  if (parts.some((p) => /\s/.test(p))) return problem('followSymbolIds parts must not contain blanks');
  if (parts.length > 1 && parts.some((p) => p.toLowerCase() === 'all')) return problem('`all` cannot be combined with specific symbols');
  return undefined;
}

/** A leader id: a 64-bit integer of at least 1, sent as a bare JSON number or in the path. */
export function leaderIdCheck(e: EndpointDef, id: string): Check {
  const valid = typeof id === 'string' && /^\d{1,19}$/.test(id) && BigInt(id) >= 1n && BigInt(id) <= 9223372036854775807n;
  return valid ? undefined : invalidRequest(endpointLabel(e), 'leader-user-id', 'leaderUserId must be an integer id of at least 1', 'leaderUserId');
}

/** A stop rate is 0 (not configured) or at least 0.01. */
export function stopRate(e: EndpointDef, rule: string, field: string, value: Decimal | undefined): Check {
  if (value === undefined) return undefined;
  return value.isZero() || value.gte(MIN_STOP_RATE) ? undefined : invalidRequest(endpointLabel(e), rule, `${field} must be 0 or at least 0.01`, field);
}

export function delayCheck(e: EndpointDef, seconds: number | undefined): Check {
  if (seconds === undefined) return undefined;
  return Number.isInteger(seconds) && seconds >= 0
    ? undefined
    : invalidRequest(endpointLabel(e), 'stopLossDelay-integer', 'stopLossDelay must be a non-negative integer (seconds)', 'stopLossDelay');
}
