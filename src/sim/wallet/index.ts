/** The simulated spot wallet (deposit addresses, withdrawals within the listed chains' limits) and the trial-voucher book. */
export { coinRowOf, listedCoins } from './coin-chains.js';
export type { ChainRow, CoinRow } from './coin-chains.js';
export { VOUCHER_STATUSES, VoucherBook } from './voucher-book.js';
export type { VoucherStatus, VoucherView } from './voucher-book.js';
export { ADDRESS_TYPES, WalletDesk } from './wallet-desk.js';
export type { AddressType, DepositAddressView, DepositView, WalletHistoryQuery, WithdrawalView, WithdrawCommand } from './wallet-desk.js';
