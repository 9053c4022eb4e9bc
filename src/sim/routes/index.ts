import type { SimVenue } from '../engine/sim-venue.js';
import type { SimRoute } from '../server/routing/types.js';
import { accountRoutes } from './account-routes.js';
import { algoRoutes } from './algo-routes.js';
import { ordersV1Routes } from './orders/v1-routes.js';
import { ordersV1MoreRoutes } from './orders/v1-more-routes.js';
import { ordersV2Routes } from './orders/v2-routes.js';
import { positionRoutes } from './position-routes.js';
import { walletHistoryRoutes } from './wallet-history-routes.js';
import { walletRoutes } from './wallet-routes.js';

/**
 * The simulator's trading routes: every signed endpoint of document 000 (sub-accounts, transfer,
 * balance flows, margin type, leverage, v1 and v2 orders, plan and TP/SL rows) and the API-NOTES state
 * endpoints (futures balance, positions, v1 open orders and cancel, batch cancel of algo orders), and
 * every other route of API-NOTES §4 a third-party client calls (v1 history and trades, cancel-all and
 * by ids, position routes, spot account, wallet, vouchers).
 */
export function tradingRoutes(venue: SimVenue): SimRoute[] {
  return [
    ...accountRoutes(venue),
    ...ordersV1Routes(venue),
    ...ordersV1MoreRoutes(venue),
    ...ordersV2Routes(venue),
    ...algoRoutes(venue),
    ...positionRoutes(venue),
    ...walletRoutes(venue),
    ...walletHistoryRoutes(venue),
  ];
}

export { accountRoutes, algoRoutes, ordersV1MoreRoutes, ordersV1Routes, ordersV2Routes, positionRoutes, walletHistoryRoutes, walletRoutes };
export { rejects } from './rejects.js';
export type { ParamSource, ParamValue } from './param-source.js';
export { jsonSource, paramsSource, requestSource } from './param-source.js';
export { LIST_LIMIT, ParamReader } from './param-reader.js';
export { readCreateV1, readCreateV2, readPlanCreate } from './create-rules.js';
export type { CreateV1 } from './create-rules.js';
export { MODIFIABLE, readAlgoUpdate, readUpdateV1, readUpdateV2 } from './update/request.js';
export type { UpdateRequest, UpdateType } from './update/request.js';
export { familyOf, resolveUpdate } from './update/rules.js';
export type { AlgoFamily, OriginalOrder, ResolvedUpdate, UpdateMarket } from './update/rules.js';
export { contractsForValue } from './quantity-rules.js';
export { MAX_BATCH_LEGS, batchOrdersOf } from './batch-body.js';
export { paddedMultiplier, renderAlgoV1, renderOrderV1 } from './render/order-v1.js';
export { renderAlgoV2, renderOrderV2 } from './render/order-v2.js';
export { renderTradeV1, renderTradeV2 } from './render/trades.js';
export { renderFlowV1, renderFlowV2, renderFuturesFlowV1 } from './render/flows.js';
export { renderAccountLeverage, renderFuturesBalance, renderLeverageSet, renderMarginTypeSet, renderPosition, renderSubAccount } from './render/account.js';
export { sideV1Of, sidesOfV1 } from './wire-vocabulary.js';
export type { SideV1 } from './wire-vocabulary.js';
