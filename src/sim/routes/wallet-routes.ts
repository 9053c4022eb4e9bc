import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { SimReject } from '../engine/types.js';
import type { RouteContext, SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import { coinRowOf } from '../wallet/coin-chains.js';
import type { VoucherStatus, VoucherView } from '../wallet/voucher-book.js';
import { VOUCHER_STATUSES } from '../wallet/voucher-book.js';
import type { WithdrawCommand } from '../wallet/wallet-desk.js';
import { ADDRESS_TYPES } from '../wallet/wallet-desk.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';
import { accountOf, readerOf, refused, replyWith } from './route-context.js';

const emptyParam = (name: string): SimReject => ({ code: -1105, msg: `Parameter '${name}' was empty.` });

/**
 * The spot account and its simulated wallet, and trial vouchers: GET /api/v1/account (API-NOTES §4.3),
 * GET /api/v1/account/deposit/address and POST /api/v1/account/withdraw (document 000 names them; the
 * parameters and replies are ccxt's), GET/POST /api/v2/futures/voucher/list|receive (§4.18, §4.19).
 */
export function walletRoutes(venue: SimVenue): SimRoute[] {
  return [
    {
      endpoint: ENDPOINTS.spotAccount,
      handle: (ctx) => {
        const { userId } = accountOf(ctx);
        // Rows carry `asset`, `assetId`, `assetName` (live) and `coin` (2026 docs): API-NOTES §4.3 RULE.
        const balances = venue.spotBalances(userId).map((b) => ({ asset: b.coin, assetId: b.coin, assetName: b.coin, coin: b.coin, total: b.total, free: b.free, locked: b.locked }));
        return routeOk({ userId, balances });
      },
    },
    {
      // Seen in ccxt's route list (API-NOTES §4, "not required"); the reply is not sourced: the simulator
      // answers what the key may do, `{userId, accountType, readOnly}`. A bad key never gets here (-2015).
      endpoint: ENDPOINTS.checkApiKey,
      handle: (ctx) => {
        const caller = ctx.caller;
        if (caller === undefined) return refused(rejects.missing('apiKey'));
        return routeOk({ userId: caller.userId, accountType: caller.accountType, readOnly: caller.readOnly });
      },
    },
    {
      endpoint: ENDPOINTS.depositAddress,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const coin = r.requiredText('coin');
        const chainType = readChain(r, coin);
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.depositAddress(accountOf(ctx).userId, coin, chainType), (a) => ({
          coin: a.coin,
          chainType: a.chainType,
          canDeposit: a.canDeposit,
          address: a.address,
          addressExt: a.addressExt,
          minQuantity: a.minQuantity,
          requiredConfirmTimes: 1,
          canWithdrawConfirmNum: 12,
          coinType: 'CHAIN_TOKEN',
        }));
      },
    },
    {
      endpoint: ENDPOINTS.withdraw,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const coin = r.requiredText('coin');
        const address = r.requiredText('address');
        const quantity = r.requiredDecimal('quantity');
        const chainType = readChain(r, coin);
        const addressExt = r.text('addressExt');
        // addressType: BLOCK_CHAIN when empty (document 000, 2026-07-07).
        const addressType = r.text('addressType') === '' ? 'BLOCK_CHAIN' : (r.choice('addressType', ADDRESS_TYPES) ?? 'BLOCK_CHAIN');
        const clientOrderId = r.text('clientOrderId');
        const command = r.finish(
          (): WithdrawCommand => ({
            coin,
            address,
            quantity,
            chainType,
            addressType,
            ...(addressExt === undefined || addressExt === '' ? {} : { addressExt }),
            ...(clientOrderId === undefined || clientOrderId === '' ? {} : { clientOrderId }),
          }),
        );
        if (!command.ok) return refused(command.error);
        // ccxt's capture: `{status, success, needBrokerAudit, id, refuseReason}`; the simulator pays out at once.
        return replyWith(venue.withdraw(accountOf(ctx).userId, command.value), (w) => ({
          status: 0,
          success: true,
          needBrokerAudit: false,
          id: w.id,
          refuseReason: '',
          clientOrderId: w.clientOrderId,
          coin: w.coin,
          chainType: w.chainType,
          quantity: w.quantity,
          fee: w.fee,
          arriveQuantity: w.arriveQuantity,
        }));
      },
    },
    {
      endpoint: ENDPOINTS.voucherList,
      handle: (ctx: RouteContext) => {
        const r = readerOf(ctx);
        // token: optional in the spec, mandatory in DOC-V2 (API-NOTES §4.18 RULE: required, -1105 when empty).
        const token = r.requiredText('token', () => emptyParam('token'));
        if (r.failure === undefined && token.trim() === '') r.fail(emptyParam('token'));
        const status = readVoucherStatus(r);
        if (r.failure !== undefined) return refused(r.failure);
        return routeOk({ vouchers: venue.vouchers(accountOf(ctx).userId, token.trim(), status).map(renderVoucher) });
      },
    },
    {
      endpoint: ENDPOINTS.voucherReceive,
      handle: (ctx) => {
        const r = readerOf(ctx);
        const relationId = r.requiredId('relationId');
        if (r.failure === undefined && /^0+$/.test(relationId)) r.fail(rejects.invalid('relationId'));
        if (r.failure !== undefined) return refused(r.failure);
        return replyWith(venue.receiveVoucher(accountOf(ctx).userId, relationId), (v) => ({
          relationId: v.relationId,
          voucherBalance: v.voucherBalance,
          voucherStatus: v.voucherStatus,
        }));
      },
    },
  ];
}

/** `chainType`; when absent, the coin's first chain (coins that move on one chain need none). */
function readChain(r: ParamReader, coin: string): string {
  const chainType = r.text('chainType');
  if (chainType !== undefined && chainType !== '') return chainType;
  return coinRowOf(coin).chains[0]?.chainType ?? '';
}

/** voucherStatus: NOT_USED, USING, USED or FROZEN, in any case; absent means all; anything else -1130. */
function readVoucherStatus(r: ParamReader): VoucherStatus | undefined {
  const text = r.text('voucherStatus');
  if (text === undefined || text === '') return undefined;
  const status = VOUCHER_STATUSES.find((s) => s === text.toUpperCase());
  if (status === undefined) r.fail(rejects.invalid('voucherStatus'));
  return status;
}

/** A voucher row of API-NOTES §4.18: times as strings, remainingType 3 (balance trial voucher). */
function renderVoucher(v: VoucherView): Record<string, unknown> {
  return {
    relationId: v.relationId,
    amount: v.amount,
    voucherBalance: v.voucherBalance,
    voucherStatus: v.voucherStatus,
    createTime: String(v.createTime),
    expireTime: String(v.expireTime),
    remainingType: 3,
    token: v.token,
    claimThreshold: v.claimThreshold,
    tradeRate: '1',
    isMerge: 1,
    isFee: 1,
    transferInInvalidation: false,
    transferOutInvalidation: true,
  };
}

