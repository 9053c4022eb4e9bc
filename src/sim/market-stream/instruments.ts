import { StepGrid } from './ticks.js';

/** The settlement (margin) coin of a linear perpetual; USDC-M calls add `category=USDC` (API-NOTES §6.1). */
export type SettleCategory = 'USDT' | 'USDC';

/** A risk-limit tier: positions up to `maxQuantity` contracts need these margin rates. */
export interface RiskLimitTier {
  readonly riskLimitId: string;
  readonly maxQuantity: string;
  readonly initialMarginRate: string;
  readonly maintMarginRate: string;
}

/**
 * A contract the simulated exchange lists. Decimals are text (exact, JSON-friendly: the stream header
 * carries these). Quantities are CONTRACTS; one contract is `contractMultiplier` base coins, so the
 * exchangeInfo LOT_SIZE (coins) is quantity × contractMultiplier (API-NOTES §6.2).
 */
export interface SimInstrument {
  readonly symbol: string;
  readonly category: SettleCategory;
  readonly baseAsset: string;
  readonly tickSize: string;
  readonly contractMultiplier: string;
  readonly quantityStep: string;
  readonly minQuantity: string;
  readonly maxQuantity: string;
  readonly riskLimits: readonly RiskLimitTier[];
  readonly makerFeeRate: string;
  readonly takerFeeRate: string;
  /** Where a synthetic market starts. */
  readonly initialPrice: string;
}

/** BTC-SWAP-USDT as seen live (API-NOTES §5.1): tick 0.1, 0.001 BTC a contract, LOT_SIZE 0.0001..4000 BTC. */
export const BTC_SWAP_USDT: SimInstrument = {
  symbol: 'BTC-SWAP-USDT',
  category: 'USDT',
  baseAsset: 'BTC',
  tickSize: '0.1',
  contractMultiplier: '0.001',
  quantityStep: '0.1',
  minQuantity: '0.1',
  maxQuantity: '4000000',
  riskLimits: [
    { riskLimitId: '200020911', maxQuantity: '42000', initialMarginRate: '0.02', maintMarginRate: '0.01' },
    { riskLimitId: '200020912', maxQuantity: '84000', initialMarginRate: '0.04', maintMarginRate: '0.02' },
  ],
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0006',
  initialPrice: '111021.4',
};

/** ETH-SWAP-USDT: tick 0.01, 0.01 ETH a contract, whole contracts (API-NOTES §5.7, §6.2). Tiers are synthetic. */
export const ETH_SWAP_USDT: SimInstrument = {
  symbol: 'ETH-SWAP-USDT',
  category: 'USDT',
  baseAsset: 'ETH',
  tickSize: '0.01',
  contractMultiplier: '0.01',
  quantityStep: '1',
  minQuantity: '1',
  maxQuantity: '400000',
  riskLimits: [
    { riskLimitId: '200020921', maxQuantity: '100000', initialMarginRate: '0.02', maintMarginRate: '0.01' },
    { riskLimitId: '200020922', maxQuantity: '200000', initialMarginRate: '0.04', maintMarginRate: '0.02' },
  ],
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0006',
  initialPrice: '4435.59',
};

/** A USDC-margined twin of BTC-SWAP-USDT (same contract terms; ids and start price are synthetic). */
export const BTC_SWAP_USDC: SimInstrument = {
  ...BTC_SWAP_USDT,
  symbol: 'BTC-SWAP-USDC',
  category: 'USDC',
  riskLimits: [
    { riskLimitId: '300020911', maxQuantity: '42000', initialMarginRate: '0.02', maintMarginRate: '0.01' },
    { riskLimitId: '300020912', maxQuantity: '84000', initialMarginRate: '0.04', maintMarginRate: '0.02' },
  ],
  initialPrice: '111035.2',
};

export const DEFAULT_SIM_INSTRUMENTS: readonly SimInstrument[] = [BTC_SWAP_USDT, ETH_SWAP_USDT, BTC_SWAP_USDC];

export function findSimInstrument(symbol: string, instruments: readonly SimInstrument[] = DEFAULT_SIM_INSTRUMENTS): SimInstrument | undefined {
  return instruments.find((i) => i.symbol === symbol);
}

/** Integer grids of an instrument: prices in ticks, quantities in lots (multiples of the contract step). */
export interface InstrumentGrids {
  readonly price: StepGrid;
  readonly quantity: StepGrid;
}

export function instrumentGrids(instrument: SimInstrument): InstrumentGrids {
  return { price: new StepGrid(instrument.tickSize), quantity: new StepGrid(instrument.quantityStep) };
}
