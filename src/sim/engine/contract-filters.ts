import { dec } from '../../core/decimal.js';
import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * The exchange filters of a listed contract (document 001, API-NOTES §5.1), as decimal text. One source
 * for both faces: the engine enforces them and exchangeInfo publishes them. LOT_SIZE is in COINS
 * (contracts × contractMultiplier, API-NOTES §6.2); the engine checks quantities in contracts.
 */
export interface ContractFilters {
  readonly priceFilter: { readonly minPrice: string; readonly maxPrice: string; readonly tickSize: string };
  readonly lotSize: { readonly minQty: string; readonly maxQty: string; readonly stepSize: string };
  readonly minNotional: string;
  readonly tradeAmount: { readonly minAmount: string; readonly maxAmount: string; readonly minBuyPrice: string };
  /** Limit orders: buy at most last × (1 + buyPriceUpRate), sell at least last × (1 − sellPriceDownRate). */
  readonly limitTrading: {
    readonly maxSellPrice: string;
    readonly buyPriceUpRate: string;
    readonly sellPriceDownRate: string;
    /** Open regular orders per account and symbol. */
    readonly maxEntrustNum: string;
    /** Open plan and TP/SL orders per account and symbol. */
    readonly maxConditionNum: string;
  };
  /** Market orders: the protective price band around the latest price. */
  readonly marketTrading: { readonly buyPriceUpRate: string; readonly sellPriceDownRate: string };
  /** v1 priceType MARKET: latest price × (1 ± this) (document 000). */
  readonly marketPriceRate: string;
}

export function contractFilters(instrument: SimInstrument): ContractFilters {
  const multiplier = dec(instrument.contractMultiplier);
  const coins = (contracts: string): string => dec(contracts).mul(multiplier).toFixed();
  return {
    priceFilter: { minPrice: instrument.tickSize, maxPrice: '10000000', tickSize: instrument.tickSize },
    lotSize: { minQty: coins(instrument.minQuantity), maxQty: coins(instrument.maxQuantity), stepSize: coins(instrument.quantityStep) },
    minNotional: '5',
    tradeAmount: { minAmount: '5', maxAmount: '6600000', minBuyPrice: instrument.tickSize },
    limitTrading: { maxSellPrice: '999999999', buyPriceUpRate: '0.1', sellPriceDownRate: '0.1', maxEntrustNum: '200', maxConditionNum: '100' },
    marketTrading: { buyPriceUpRate: '0.1', sellPriceDownRate: '0.1' },
    marketPriceRate: '0.05',
  };
}
