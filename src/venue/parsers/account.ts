import { z } from 'zod';
import { accountType, marginType, positionSide } from '../../protocol/wire-enums.js';
import { codeField, decimal, epochMs, id64, intLike, optDecimal, coinName } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';

/**
 * Account payloads, read by the parsing rule (README "The exchange client"): the fields the daemon maps
 * (account-mapping.ts) and each row's identity and amount are required, the rest optional; a list row
 * that fails is skipped and counted.
 */

/** Optional text where "" means "not set": "" and null become absent. */
const optText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' ? undefined : String(v)));

export const subAccountSchema = z.object({
  userId: id64,
  email: z.string().optional(),
  remark: z.string().optional(),
  accountList: tolerantList(z.object({ accountId: id64, userId: id64.optional(), accountType })),
});
export type SubAccount = z.output<typeof subAccountSchema>;
export const subAccountListSchema = tolerantList(subAccountSchema);

/** v1 write acknowledgement `{code, msg}` (code 200 or "200"). */
export const ackSchema = z.object({ code: codeField, msg: z.string().optional() });
export type Ack = z.output<typeof ackSchema>;

const balanceFlowFields = {
  id: id64,
  accountId: id64.optional(),
  coin: z.string(),
  coinId: z.string().optional(),
  coinName: z.string().optional(),
  flowTypeValue: intLike.optional(),
  flowType: z.string(),
  flowName: z.string().optional(),
  change: decimal,
  total: optDecimal,
  created: epochMs,
  voucherType: optText,
  deductionAmount: optDecimal,
};

/** v1 balance flow row (`/api/v1/account/balanceFlow`). */
export const balanceFlowSchema = z.object(balanceFlowFields);
export type BalanceFlow = z.output<typeof balanceFlowSchema>;
export const balanceFlowListSchema = tolerantList(balanceFlowSchema);

/** `/api/v1/futures/balanceFlow` rows add the contract symbol ("" on non-trading flows → absent). */
export const futuresBalanceFlowSchema = z.object({ ...balanceFlowFields, symbol: optText, symbolId: optText });
export type FuturesBalanceFlow = z.output<typeof futuresBalanceFlowSchema>;
export const futuresBalanceFlowListSchema = tolerantList(futuresBalanceFlowSchema);

/** v2 balance flow row: account and flow type by name, `created` a string (v2 wire rule) or a number (DOC-V2 example). */
export const balanceFlowV2Schema = z.object({
  id: id64,
  accountType,
  coin: z.string(),
  symbol: optText,
  flowType: z.string(),
  flowName: z.string().optional(),
  change: decimal,
  total: optDecimal,
  created: epochMs,
  voucherType: optText,
  deductionAmount: optDecimal,
});
export type BalanceFlowV2 = z.output<typeof balanceFlowV2Schema>;
export const balanceFlowV2ListSchema = tolerantList(balanceFlowV2Schema);

/** Some payloads name the contract `symbol` instead of `symbolId` (API-NOTES §5.12): read `symbolId ?? symbol`. */
const symbolFields = { symbolId: z.string().optional(), symbol: z.string().optional() };

function pickSymbolId<R extends { readonly symbolId?: string | undefined; readonly symbol?: string | undefined }>(
  row: R,
  ctx: z.RefinementCtx,
): Omit<R, 'symbol' | 'symbolId'> & { symbolId: string } {
  const { symbol, symbolId, ...rest } = row;
  const id = symbolId ?? symbol;
  if (id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['symbolId'], message: 'expected symbolId (or symbol)' });
    return z.NEVER;
  }
  return { ...rest, symbolId: id };
}

export const marginTypeResultSchema = z.object({ code: codeField, marginType, ...symbolFields }).transform(pickSymbolId);
export type MarginTypeResult = z.output<typeof marginTypeResultSchema>;

/** v1 leverage answer: `leverage` is text on the wire ("3"), a Decimal here. */
export const leverageResultSchema = z.object({ code: codeField, leverage: decimal, ...symbolFields }).transform(pickSymbolId);
export type LeverageResult = z.output<typeof leverageResultSchema>;

export const accountLeverageSchema = z.object({ leverage: decimal, marginType, ...symbolFields }).transform(pickSymbolId);
export type AccountLeverage = z.output<typeof accountLeverageSchema>;
export const accountLeverageListSchema = tolerantList(accountLeverageSchema);

/** Futures balance row: the asset is `coin` (2026 docs) or `asset` (live); read `coin ?? asset` (API-NOTES §4.1). */
export const futuresBalanceSchema = z
  .object({
    coin: z.string().optional(),
    asset: z.string().optional(),
    balance: decimal,
    availableBalance: decimal,
    positionMargin: decimal,
    orderMargin: decimal,
    crossUnRealizedPnl: decimal,
    coupon: optDecimal,
  })
  .transform((row, ctx) => {
    const { coin, asset, ...rest } = row;
    return { coin: coinName(coin, asset, 'asset', ctx), ...rest };
  });
export type FuturesBalance = z.output<typeof futuresBalanceSchema>;
export const futuresBalanceListSchema = tolerantList(futuresBalanceSchema);

/** Open position row (API-NOTES §4.2): `position`/`available` in contracts, `flp` the liquidation price (`marginRate` may be ""). */
export const positionSchema = z.object({
  symbol: z.string(),
  side: positionSide,
  avgPrice: decimal,
  position: decimal,
  available: optDecimal,
  leverage: decimal,
  lastPrice: optDecimal,
  positionValue: optDecimal,
  flp: optDecimal,
  margin: decimal,
  marginRate: optDecimal,
  unrealizedPnL: decimal,
  profitRate: optDecimal,
  realizedPnL: decimal,
  minMargin: optDecimal,
  maxNotionalValue: optDecimal,
  markPrice: optDecimal,
});
export type Position = z.output<typeof positionSchema>;
export const positionListSchema = tolerantList(positionSchema);
