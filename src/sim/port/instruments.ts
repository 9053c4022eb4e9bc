import { dec } from '../../core/decimal.js';
import type { Instrument } from '../../model/instrument.js';
import { contractFilters } from '../engine/contract-filters.js';
import { indexTokenOf } from '../market-data/index-tokens.js';
import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * A listed contract as the kernel sees it, from the same filters the engine enforces and exchangeInfo
 * publishes (contract-filters.ts). Quantities stay in contracts: the engine defines them that way, so
 * nothing is divided by the multiplier here. Max leverage is 1 / the lowest tier's initial margin rate.
 */
export function instrumentOf(sim: SimInstrument): Instrument {
  const f = contractFilters(sim);
  const firstTier = sim.riskLimits[0];
  const maxLeverage = firstTier === undefined ? dec(1) : dec(1).div(firstTier.initialMarginRate);
  return {
    symbol: sim.symbol,
    category: sim.category,
    // The engine lists every contract as tradable; exchangeInfo renders it TRADING too.
    status: 'TRADING',
    baseAsset: sim.baseAsset,
    marginAsset: sim.category,
    contractMultiplier: dec(sim.contractMultiplier),
    indexToken: indexTokenOf(sim),
    tickSize: dec(f.priceFilter.tickSize),
    minPrice: dec(f.priceFilter.minPrice),
    maxPrice: dec(f.priceFilter.maxPrice),
    qtyStep: dec(sim.quantityStep),
    minQty: dec(sim.minQuantity),
    maxQty: dec(sim.maxQuantity),
    minNotional: dec(f.minNotional),
    maxNotional: dec(f.tradeAmount.maxAmount),
    limitBand: { buyUpRate: dec(f.limitTrading.buyPriceUpRate), sellDownRate: dec(f.limitTrading.sellPriceDownRate) },
    marketBand: { buyUpRate: dec(f.marketTrading.buyPriceUpRate), sellDownRate: dec(f.marketTrading.sellPriceDownRate) },
    maxOpenOrders: Number(f.limitTrading.maxEntrustNum),
    maxOpenAlgoOrders: Number(f.limitTrading.maxConditionNum),
    maxLeverage,
  };
}
