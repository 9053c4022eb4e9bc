import type { Decimal } from '../../core/decimal.js';
import { dec, parseDecimal } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import type { FollowAmountMode, FollowerConfigUpdate, FollowMarginType } from '../../venue/api/follower-config-rules.js';
import type { FollowerConfig } from '../../venue/parsers/follower.js';

type Settings = Omit<FollowerConfigUpdate, 'leaderUserId'>;
type Draft<T> = { -readonly [K in keyof T]?: T[K] };
export type GivenSettings = Draft<Settings>;

const DECIMAL_FIELDS = [
  ['investAmount', 'total invested after the update'],
  ['singlePlaceAmount', 'amount per copied order (fixed-amount follow)'],
  ['dailyMaxInvestAmount', 'daily maximum, 0 for none'],
  ['leverage', 'follow leverage'],
  ['maxInvestRate', 'from 0 to 1 (0.5 = 50%)'],
  ['stopProfitRate', '0 (none) or at least 0.01'],
  ['stopLossRate', '0 (none) or at least 0.01'],
  ['realInvestAmount', 'default: investAmount'],
  ['isolatedReservedAmount', 'reserve for isolated margin'],
] as const;

/** `config set` options as commander flags: [flags, description]. */
export const CONFIG_SET_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ...DECIMAL_FIELDS.map(([field, what]) => [`--${kebab(field)} <amount>`, what] as const),
  ['--follow-amount-mode <mode>', 'fixed-amount or fixed-rate (0 or 1)'],
  ['--follow-margin-type <type>', 'all, cross or isolated (0, 1 or 2): which lead orders to copy'],
  ['--stop-loss-delay <seconds>', 'whole seconds'],
  ['--symbols <ids>', '"all" or comma-separated symbol ids'],
  ['--zero-slippage <on|off>', 'zero-slippage switch'],
];

/** The camel-cased option values commander hands over (all text). */
export type ConfigSetFlags = Readonly<Record<string, string | undefined>>;

/** The options given on the command line, checked for form; the venue rules are checked by the client. */
export function parseConfigFlags(flags: ConfigSetFlags): GivenSettings {
  const given: GivenSettings = {};
  for (const [field] of DECIMAL_FIELDS) {
    const text = flags[field];
    if (text !== undefined) given[field] = decimalFlag(field, text);
  }
  const mode = flags['followAmountMode'];
  if (mode !== undefined) given.followAmountMode = choice(mode, 'follow-amount-mode', { 'fixed-amount': 0, 'fixed-rate': 1, '0': 0, '1': 1 } as const);
  const margin = flags['followMarginType'];
  if (margin !== undefined) given.followMarginType = choice(margin, 'follow-margin-type', { all: 0, cross: 1, isolated: 2, '0': 0, '1': 1, '2': 2 } as const);
  const delay = flags['stopLossDelay'];
  if (delay !== undefined) {
    if (!/^\d+$/.test(delay)) throw new ConfigError(`--stop-loss-delay ${delay}: whole seconds, 0 or more`, { path: '--stop-loss-delay' });
    given.stopLossDelay = Number(delay);
  }
  if (flags['symbols'] !== undefined) given.followSymbolIds = flags['symbols'];
  const slippage = flags['zeroSlippage'];
  if (slippage !== undefined) given.zeroSlippageSwitch = choice(slippage, 'zero-slippage', { on: true, off: false, true: true, false: false } as const);
  return given;
}

/** A new follow starts from these; the amounts, leverage and maxInvestRate have to be given. */
const NEW_FOLLOW: GivenSettings = {
  dailyMaxInvestAmount: dec(0),
  stopProfitRate: dec(0),
  stopLossRate: dec(0),
  isolatedReservedAmount: dec(0),
  followAmountMode: 0,
  stopLossDelay: 0,
  followMarginType: 0,
  followSymbolIds: 'all',
  zeroSlippageSwitch: false,
};

/**
 * The full PUT /config body: the given options over the current configuration (or, for a new follow, the
 * defaults above). realInvestAmount follows investAmount unless given.
 */
export function completeConfig(leaderUserId: string, given: GivenSettings, current: FollowerConfig | undefined): Result<FollowerConfigUpdate, ConfigError> {
  const merged: GivenSettings = { ...(current === undefined ? NEW_FOLLOW : fromCurrent(current)), ...given };
  if (given.realInvestAmount === undefined && merged.investAmount !== undefined) merged.realInvestAmount = merged.investAmount;
  const missing = REQUIRED.filter((field) => merged[field] === undefined);
  if (missing.length > 0) {
    const why = current === undefined ? 'there is no follow configuration for this leader to start from' : 'the current configuration does not give them';
    return err(new ConfigError(`give ${missing.map((f) => `--${kebab(f)}`).join(', ')} (${why})`, { path: 'config set' }));
  }
  return ok({ leaderUserId, ...(merged as Settings) });
}

const REQUIRED: ReadonlyArray<keyof Settings> = [
  ...DECIMAL_FIELDS.map(([field]) => field),
  'followAmountMode',
  'stopLossDelay',
  'followMarginType',
  'followSymbolIds',
  'zeroSlippageSwitch',
];

function fromCurrent(c: FollowerConfig): GivenSettings {
  const mode: FollowAmountMode | undefined = c.followAmountMode === 0 || c.followAmountMode === 1 ? c.followAmountMode : undefined;
  const margin: FollowMarginType | undefined = c.followMarginType === 0 || c.followMarginType === 1 || c.followMarginType === 2 ? c.followMarginType : undefined;
  return {
    investAmount: c.investAmount,
    singlePlaceAmount: c.singlePlaceAmount,
    dailyMaxInvestAmount: c.dailyMaxInvestAmount,
    leverage: c.leverage,
    maxInvestRate: c.maxInvestRate,
    stopProfitRate: c.stopProfitRate,
    stopLossRate: c.stopLossRate,
    isolatedReservedAmount: c.isolatedReservedAmount,
    ...(mode === undefined ? {} : { followAmountMode: mode }),
    stopLossDelay: c.stopLossDelay,
    ...(margin === undefined ? {} : { followMarginType: margin }),
    followSymbolIds: c.followSymbolIds,
    zeroSlippageSwitch: c.zeroSlippageSwitch,
  };
}

/** A decimal option value; refused with a message naming the option. */
export function decimalFlag(field: string, text: string): Decimal {
  const value = parseDecimal(text.trim());
  if (value === undefined) throw new ConfigError(`--${kebab(field)} ${text}: not a decimal number`, { path: `--${kebab(field)}` });
  return value;
}

function choice<T>(text: string, option: string, table: Readonly<Record<string, T>>): T {
  const key = text.trim().toLowerCase();
  if (!Object.hasOwn(table, key)) throw new ConfigError(`--${option} ${text}: one of ${Object.keys(table).join(', ')}`, { path: `--${option}` });
  return table[key] as T;
}

function kebab(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
