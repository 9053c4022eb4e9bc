import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import {
  apiKeyCheckSchema,
  depositAddressSchema,
  depositListSchema,
  spotAccountSchema,
  voucherListSchema,
  voucherReceiveSchema,
  withdrawalListSchema,
  withdrawResultSchema,
} from '../parsers/wallet.js';
import type { ApiKeyCheck, DepositAddress, DepositRecord, SpotAccount, Voucher, VoucherReceived, VoucherStatus, WithdrawalRecord, WithdrawResult } from '../parsers/wallet.js';
import type { RestCaller } from '../rest-transport.js';
import { firstViolation, limitInRange, positive, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';

export interface Withdrawal {
  readonly coin: string;
  readonly address: string;
  /** Amount debited; the chain fee comes out of it. */
  readonly quantity: Decimal;
  /** The chain (exchangeInfo `coins[].chainTypes[].chainType`). */
  readonly chainType: string;
  readonly addressExt?: string;
  /** BLOCK_CHAIN (default) or a platform-internal transfer by PHONE_NUMBER, EMAIL or UID. */
  readonly addressType?: 'BLOCK_CHAIN' | 'PHONE_NUMBER' | 'EMAIL' | 'UID';
  /** Idempotency key: the same id again is the same withdrawal. */
  readonly clientOrderId?: string;
}

/** Wallet history filter: coin, time range (ms) and how many of the newest (1 to 1000). */
export interface WalletHistoryQuery {
  readonly coin?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

/**
 * The spot account, its wallet and the trial vouchers: GET /api/v1/account (API-NOTES §4.3), deposit
 * address and withdraw (named in document 000; parameters and replies as ccxt sends and reads them),
 * voucher list and receive (§4.18, §4.19).
 */
export class WalletApi {
  constructor(private readonly rest: RestCaller) {}

  /** GET /api/v1/account: spot balances. */
  async spotAccount(): Promise<Result<SpotAccount, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.spotAccount }, spotAccountSchema);
  }

  /** GET /api/v1/account/checkApiKey (seen in ccxt; reply not sourced): whether the key works, and what it may do. */
  async checkApiKey(): Promise<Result<ApiKeyCheck, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.checkApiKey }, apiKeyCheckSchema);
  }

  /** GET /api/v1/account/deposit/address: the account's address for a coin on a chain. */
  async depositAddress(coin: string, chainType: string): Promise<Result<DepositAddress, VenueError>> {
    const e = ENDPOINTS.depositAddress;
    const problem = firstViolation(
      () => requireText(e, 'coin', coin),
      () => requireText(e, 'chainType', chainType),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ coin, chainType }) }, depositAddressSchema);
  }

  /** POST /api/v1/account/withdraw (form body): debits the spot account. */
  async withdraw(w: Withdrawal): Promise<Result<WithdrawResult, VenueError>> {
    const e = ENDPOINTS.withdraw;
    const problem = firstViolation(
      () => requireText(e, 'coin', w.coin),
      () => requireText(e, 'address', w.address),
      () => requireText(e, 'chainType', w.chainType),
      () => positive(e, 'quantity', w.quantity),
    );
    if (problem !== undefined) return err(problem);
    const form = orderedParams({
      coin: w.coin,
      address: w.address,
      quantity: w.quantity,
      chainType: w.chainType,
      addressExt: w.addressExt,
      addressType: w.addressType,
      clientOrderId: w.clientOrderId,
    });
    return callParsed(this.rest, { endpoint: e, form }, withdrawResultSchema);
  }

  /** GET /api/v1/account/withdrawOrders (ccxt's fetchWithdrawals; in no API document): newest first. */
  async withdrawOrders(query: WalletHistoryQuery = {}): Promise<Result<WithdrawalRecord[], VenueError>> {
    const e = ENDPOINTS.withdrawOrders;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: historyQuery(query) }, withdrawalListSchema);
  }

  /** GET /api/v1/account/depositOrders (ccxt's fetchDeposits; in no API document): newest first. */
  async depositOrders(query: WalletHistoryQuery = {}): Promise<Result<DepositRecord[], VenueError>> {
    const e = ENDPOINTS.depositOrders;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: historyQuery(query) }, depositListSchema);
  }

  /** GET /api/v2/futures/voucher/list: trial vouchers of a token, optionally of one status. */
  async voucherList(token: string, voucherStatus?: VoucherStatus): Promise<Result<Voucher[], VenueError>> {
    const e = ENDPOINTS.voucherList;
    const problem = requireText(e, 'token', token);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ token, voucherStatus }) }, voucherListSchema);
  }

  /** POST /api/v2/futures/voucher/receive: claims a voucher (read-only keys are refused, -1020). */
  async voucherReceive(relationId: string): Promise<Result<VoucherReceived, VenueError>> {
    const e = ENDPOINTS.voucherReceive;
    if (!/^\d+$/.test(relationId) || /^0+$/.test(relationId)) {
      return err(invalidRequest(endpointLabel(e), 'relation-id', 'relationId is a positive integer id', 'relationId'));
    }
    return callParsed(this.rest, { endpoint: e, json: { relationId } }, voucherReceiveSchema);
  }
}

function historyQuery(query: WalletHistoryQuery): ReturnType<typeof orderedParams> {
  return orderedParams({ coin: query.coin, startTime: query.startTime, endTime: query.endTime, limit: query.limit });
}
