import { createHash } from 'node:crypto';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { RouteContext, RouteReply, SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import type { DepositView, WalletHistoryQuery, WithdrawalView } from '../wallet/wallet-desk.js';
import { accountOf, readerOf, refused } from './route-context.js';

/**
 * The wallet's history as ccxt's fetchWithdrawals / fetchDeposits read it (GET /api/v1/account/withdrawOrders
 * and depositOrders; no API document describes them, the row fields are ccxt's captures). Status "2" is
 * SUCCESS in those captures (ccxt itself maps "2" to pending): the simulator completes every movement at once.
 */
export function walletHistoryRoutes(venue: SimVenue): SimRoute[] {
  const list = (read: (userId: string, q: WalletHistoryQuery) => readonly unknown[]) => (ctx: RouteContext): RouteReply => {
    const r = readerOf(ctx);
    const coin = r.text('coin');
    const startTime = r.integer('startTime');
    const endTime = r.integer('endTime');
    const limit = r.limit();
    if (r.failure !== undefined) return refused(r.failure);
    const query: WalletHistoryQuery = {
      limit,
      ...(coin === undefined || coin === '' ? {} : { coin }),
      ...(startTime === undefined || startTime <= 0 ? {} : { startTime }),
      ...(endTime === undefined || endTime <= 0 ? {} : { endTime }),
    };
    return routeOk(read(accountOf(ctx).userId, query));
  };
  return [
    { endpoint: ENDPOINTS.withdrawOrders, handle: list((userId, q) => venue.withdrawals(userId, q).map(renderWithdrawal)) },
    { endpoint: ENDPOINTS.depositOrders, handle: list((userId, q) => venue.deposits(userId, q).map(renderDeposit)) },
  ];
}

/** A simulated chain transaction id (internal transfers have none). */
function txIdOf(id: string): string {
  return createHash('sha256').update(`sim-tx|${id}`).digest('hex');
}

function renderWithdrawal(w: WithdrawalView): Record<string, unknown> {
  return {
    time: w.time,
    id: w.id,
    clientOrderId: w.clientOrderId,
    coinId: w.coin,
    coinName: w.coin,
    chainType: w.chainType,
    address: w.address,
    addressExt: w.addressExt,
    quantity: w.quantity,
    arriveQuantity: w.arriveQuantity,
    statusCode: 'SUCCESS',
    status: '2',
    txId: w.internal ? '' : txIdOf(w.id),
    txIdUrl: '',
    walletHandleTime: String(w.time),
    feeCoinId: w.coin,
    feeCoinName: w.coin,
    fee: w.fee,
    requiredConfirmTimes: '1',
    confirmTimes: '1',
    isInternalTransfer: w.internal,
  };
}

function renderDeposit(d: DepositView): Record<string, unknown> {
  return {
    time: d.time,
    id: d.id,
    coin: d.coin,
    coinName: d.coin,
    chainType: d.chainType,
    statusCode: 'DEPOSIT_CAN_WITHDRAW',
    status: '2',
    address: '',
    addressTag: '',
    txId: '',
    txIdUrl: '',
    requiredConfirmTimes: '1',
    confirmTimes: '1',
    quantity: d.quantity,
    fromAddress: d.fromUserId,
    isInternalTransfer: true,
  };
}
