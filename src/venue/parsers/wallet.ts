import { z } from 'zod';
import { boolLike, decimal, epochMs, id64, optDecimal, optText, text, coinName } from '../wire/schema.js';

/**
 * Replies of the spot account, its wallet and the trial vouchers (API-NOTES §4.3, 4.18, 4.19; the
 * withdraw and deposit-address replies are ccxt's captures). Only what stratd reads is required.
 */

/** A spot balance row: the coin is `coin` (2026 docs) or `asset` (live); read `coin ?? asset` (API-NOTES §4.3). */
const spotBalanceSchema = z
  .object({ coin: z.string().optional(), asset: z.string().optional(), total: decimal, free: decimal, locked: optDecimal })
  .transform((row, ctx) => {
    const { coin, asset, ...rest } = row;
    return { coin: coinName(coin, asset, 'asset', ctx), ...rest };
  });
export type SpotBalance = z.output<typeof spotBalanceSchema>;

/** GET /api/v1/account: the spot account. */
export const spotAccountSchema = z.object({ userId: id64.optional(), balances: z.array(spotBalanceSchema) });
export type SpotAccount = z.output<typeof spotAccountSchema>;

/** GET /api/v1/account/deposit/address (document 000: the reply carries chainType). */
export const depositAddressSchema = z.object({
  address: z.string().min(1),
  addressExt: optText,
  chainType: optText,
  coin: optText,
  canDeposit: boolLike.optional(),
  minQuantity: optDecimal,
});
export type DepositAddress = z.output<typeof depositAddressSchema>;

/** POST /api/v1/account/withdraw (ccxt): `success` and the withdrawal id. */
export const withdrawResultSchema = z.object({
  success: boolLike,
  id: id64.optional(),
  refuseReason: optText,
  needBrokerAudit: boolLike.optional(),
  fee: optDecimal,
  arriveQuantity: optDecimal,
});
export type WithdrawResult = z.output<typeof withdrawResultSchema>;

export const voucherStatus = z.enum(['NOT_USED', 'USING', 'USED', 'FROZEN']);
export type VoucherStatus = z.output<typeof voucherStatus>;

/** A trial voucher row (API-NOTES §4.18). */
export const voucherSchema = z.object({
  relationId: id64,
  token: z.string(),
  amount: decimal,
  voucherBalance: decimal,
  voucherStatus: z.string().transform((s) => s.toUpperCase()).pipe(voucherStatus),
  createTime: epochMs.optional(),
  expireTime: epochMs.optional(),
  claimThreshold: optText,
  remainingType: text.optional(),
});
export type Voucher = z.output<typeof voucherSchema>;

/** GET /api/v2/futures/voucher/list `data`: `{vouchers: [...]}`. */
export const voucherListSchema = z.object({ vouchers: z.array(voucherSchema).nullable().optional() }).transform((d) => d.vouchers ?? []);

/** POST /api/v2/futures/voucher/receive `data`. */
export const voucherReceiveSchema = z.object({ relationId: id64, voucherBalance: decimal, voucherStatus: z.string().transform((s) => s.toUpperCase()).pipe(voucherStatus) });
export type VoucherReceived = z.output<typeof voucherReceiveSchema>;

/** A withdrawal row (GET /api/v1/account/withdrawOrders, ccxt's capture): `coin` or `coinId`. */
export const withdrawalSchema = z
  .object({
    id: id64,
    time: epochMs,
    coin: z.string().optional(),
    coinId: z.string().optional(),
    address: optText,
    quantity: decimal,
    arriveQuantity: optDecimal,
    fee: optDecimal,
    status: text.optional(),
    txId: optText,
  })
  .transform((row, ctx) => {
    const { coin, coinId, ...rest } = row;
    return { coin: coinName(coin, coinId, 'coinId', ctx), ...rest };
  });
export type WithdrawalRecord = z.output<typeof withdrawalSchema>;
export const withdrawalListSchema = z.array(withdrawalSchema);

/** A deposit row (GET /api/v1/account/depositOrders, ccxt's capture). */
export const depositSchema = z.object({
  id: id64,
  time: epochMs,
  coin: z.string(),
  quantity: decimal,
  address: optText,
  fromAddress: optText,
  status: text.optional(),
  txId: optText,
});
export type DepositRecord = z.output<typeof depositSchema>;
export const depositListSchema = z.array(depositSchema);

/** GET /api/v1/account/checkApiKey (ccxt's route list; reply not sourced): what the key may do. */
export const apiKeyCheckSchema = z.object({ userId: id64.optional(), accountType: optText, readOnly: boolLike.optional() });
export type ApiKeyCheck = z.output<typeof apiKeyCheckSchema>;
