import type { BalanceFlowView } from '../../engine/types.js';

/**
 * Balance flow rows (document 000, API-NOTES §5.11). The voucher fields added in 2026-07 have no example
 * values: the simulator grants no vouchers, so voucherType is "" and deductionAmount "0".
 */
const NO_VOUCHER = { voucherType: '', deductionAmount: '0' } as const;

/** v1 `/api/v1/account/balanceFlow`: flowTypeValue a number, created a string. */
export function renderFlowV1(view: BalanceFlowView): Record<string, unknown> {
  return {
    id: view.id,
    accountId: view.accountId,
    coin: view.coin,
    coinId: view.coin,
    coinName: view.coin,
    flowTypeValue: view.flowTypeValue,
    flowType: view.flowType,
    flowName: view.flowName,
    change: view.change,
    total: view.total,
    created: String(view.created),
    ...NO_VOUCHER,
  };
}

/** v1 `/api/v1/futures/balanceFlow`: the v1 row plus the contract as symbol and symbolId ("" when none). */
export function renderFuturesFlowV1(view: BalanceFlowView): Record<string, unknown> {
  return { ...renderFlowV1(view), symbol: view.symbol, symbolId: view.symbol };
}

/**
 * v2 `/api/v2/account/balance-flow`: account and flow type by name, no accountId; symbol only when set.
 * `created` is a string: the v2 wire rule sends every 64-bit time as a string (document 000
 * Conventions), which this simulator follows over DOC-V2's example with a number (API-NOTES §5.11).
 */
export function renderFlowV2(view: BalanceFlowView): Record<string, unknown> {
  return {
    id: view.id,
    accountType: view.accountType,
    coin: view.coin,
    ...(view.symbol === '' ? {} : { symbol: view.symbol }),
    flowType: view.flowType,
    flowName: view.flowName,
    change: view.change,
    total: view.total,
    created: String(view.created),
    ...NO_VOUCHER,
  };
}
