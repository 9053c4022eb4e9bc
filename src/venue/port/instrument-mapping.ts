import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Category, Instrument } from '../../model/instrument.js';
import type { ContractRiskLimit, ContractSymbol, SymbolFilter } from '../parsers/exchange-info.js';

type FilterOf<T extends SymbolFilter['filterType']> = Extract<SymbolFilter, { filterType: T }>;

function filterOf<T extends SymbolFilter['filterType']>(filters: readonly SymbolFilter[], type: T): FilterOf<T> | undefined {
  return filters.find((f): f is FilterOf<T> => f.filterType === type);
}

/**
 * An exchangeInfo contract as a kernel Instrument, in CONTRACTS: LOT_SIZE is in coins, so step, min
 * and max are divided by the contract multiplier (API-NOTES §6.2). A contract the kernel cannot trade
 * safely (no price or lot filter, unknown margin coin) gives the reason instead.
 */
export function toInstrument(contract: ContractSymbol): Result<Instrument, string> {
  const category = categoryOfMargin(contract.marginToken);
  if (category === undefined) return err(`margin token ${contract.marginToken} is neither USDT nor USDC`);
  const multiplier = contract.contractMultiplier;
  if (!multiplier.gt(0)) return err(`contractMultiplier ${multiplier.toFixed()} is not positive`);
  const price = filterOf(contract.filters, 'PRICE_FILTER');
  if (price === undefined) return err('no PRICE_FILTER');
  const lot = filterOf(contract.filters, 'LOT_SIZE');
  if (lot === undefined) return err('no LOT_SIZE filter');
  const minNotional = filterOf(contract.filters, 'MIN_NOTIONAL');
  const amount = filterOf(contract.filters, 'TRADE_AMOUNT');
  const limit = filterOf(contract.filters, 'LIMIT_TRADING');
  const market = filterOf(contract.filters, 'MARKET_TRADING');
  const lowestNotional = maxOf([minNotional?.minNotional, amount?.minAmount]);
  return ok({
    symbol: contract.symbol,
    category,
    status: contract.status,
    baseAsset: contract.underlying,
    marginAsset: contract.marginToken,
    contractMultiplier: multiplier,
    ...(contract.indexToken === undefined || contract.indexToken === '' ? {} : { indexToken: contract.indexToken }),
    tickSize: price.tickSize,
    minPrice: price.minPrice,
    maxPrice: price.maxPrice,
    qtyStep: lot.stepSize.div(multiplier),
    minQty: lot.minQty.div(multiplier),
    maxQty: lot.maxQty.div(multiplier),
    ...(lowestNotional === undefined || lowestNotional.isZero() ? {} : { minNotional: lowestNotional }),
    ...(amount === undefined || !amount.maxAmount.gt(0) ? {} : { maxNotional: amount.maxAmount }),
    ...(limit === undefined
      ? {}
      : {
          limitBand: { buyUpRate: limit.buyPriceUpRate, sellDownRate: limit.sellPriceDownRate },
          ...(limit.maxEntrustNum === undefined ? {} : { maxOpenOrders: limit.maxEntrustNum }),
          ...(limit.maxConditionNum === undefined ? {} : { maxOpenAlgoOrders: limit.maxConditionNum }),
        }),
    ...(market === undefined ? {} : { marketBand: { buyUpRate: market.buyPriceUpRate, sellDownRate: market.sellPriceDownRate } }),
    maxLeverage: maxLeverageOf(contract.riskLimits),
  });
}

function categoryOfMargin(token: string): Category | undefined {
  return token === 'USDT' || token === 'USDC' ? token : undefined;
}

/**
 * floor(1 / the smallest initial margin rate) of the non-whitelist tiers, as the simulator computes a
 * tier's limit (sim/engine/position-record maxLeverageOf); 1 when no tier is listed.
 */
export function maxLeverageOf(tiers: readonly ContractRiskLimit[]): Decimal {
  const regular = tiers.filter((t) => t.isWhite !== true);
  const rates = (regular.length > 0 ? regular : tiers).map((t) => t.initialMargin).filter((r) => r.gt(0));
  const lowest = minOf(rates);
  if (lowest === undefined) return dec(1);
  return atLeastOne(dec(1).div(lowest).floor());
}

function atLeastOne(value: Decimal): Decimal {
  return value.lt(1) ? dec(1) : value;
}

function minOf(values: readonly Decimal[]): Decimal | undefined {
  return values.reduce<Decimal | undefined>((low, v) => (low === undefined || v.lt(low) ? v : low), undefined);
}

function maxOf(values: readonly (Decimal | undefined)[]): Decimal | undefined {
  return values.reduce<Decimal | undefined>((high, v) => (v === undefined ? high : high === undefined || v.gt(high) ? v : high), undefined);
}
