import type { FuturesBalanceView, PositionView, SubAccountView, SymbolSettingsView } from '../../engine/types.js';

/** A sub-account record (document 000, API-NOTES §5.12). */
export function renderSubAccount(view: SubAccountView): Record<string, unknown> {
  return {
    userId: view.userId,
    email: view.email,
    remark: view.remark,
    accountList: view.accounts.map((a) => ({ accountId: a.accountId, userId: a.userId, accountType: a.accountType })),
  };
}

/**
 * A futures balance row (API-NOTES §4.1 RULE): the coin under both `asset` (live, ccxt reads only this)
 * and `coin` (2026 docs), plus `coupon` (received trial vouchers, see the voucher book).
 */
export function renderFuturesBalance(view: FuturesBalanceView): Record<string, unknown> {
  return {
    balance: view.balance,
    availableBalance: view.availableBalance,
    positionMargin: view.positionMargin,
    orderMargin: view.orderMargin,
    asset: view.coin,
    coin: view.coin,
    crossUnRealizedPnl: view.crossUnrealizedPnl,
    coupon: view.coupon ?? '0',
  };
}

/**
 * A position row (API-NOTES §4.2): contracts in position/available, `flp` the liquidation price,
 * `minMargin` the maintenance margin; `marginRate` is "" as in the live capture.
 */
export function renderPosition(view: PositionView): Record<string, unknown> {
  return {
    symbol: view.symbol,
    side: view.side,
    avgPrice: view.avgPrice,
    position: view.position,
    available: view.available,
    leverage: view.leverage,
    lastPrice: view.lastPrice,
    positionValue: view.positionValue,
    flp: view.liquidationPrice,
    margin: view.margin,
    marginRate: '',
    unrealizedPnL: view.unrealizedPnl,
    profitRate: view.profitRate,
    realizedPnL: view.realizedPnl,
    minMargin: view.maintMargin,
    maxNotionalValue: view.maxNotionalValue,
    markPrice: view.markPrice,
  };
}

/** POST /api/v1/futures/leverage answer: string code and leverage (API-NOTES §5.12, §6.5). */
export function renderLeverageSet(view: SymbolSettingsView): Record<string, unknown> {
  return { code: '200', symbolId: view.symbol, leverage: String(view.leverage) };
}

/** POST /api/v1/futures/marginType answer (API-NOTES §5.12). */
export function renderMarginTypeSet(view: SymbolSettingsView): Record<string, unknown> {
  return { code: '200', symbolId: view.symbol, marginType: view.marginType };
}

/** GET /api/v1/futures/accountLeverage row (API-NOTES §5.12). */
export function renderAccountLeverage(view: SymbolSettingsView): Record<string, unknown> {
  return { symbolId: view.symbol, leverage: String(view.leverage), marginType: view.marginType };
}
