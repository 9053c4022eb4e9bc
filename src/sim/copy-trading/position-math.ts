import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * Copy-trading sizes are in COINS, as the follower payloads show them (API-NOTES §5.13: "quantity":
 * "0.01" on BTC-SWAP-USDT at 6805 with a 3.17 profit at 7121.97 is 0.01 BTC, not 0.01 contracts).
 * A coin step is the contract step times the contract multiplier (API-NOTES §6.2).
 */
export function coinStep(instrument: SimInstrument): Decimal {
  return dec(instrument.quantityStep).mul(instrument.contractMultiplier);
}

export function minCoins(instrument: SimInstrument): Decimal {
  return dec(instrument.minQuantity).mul(instrument.contractMultiplier);
}

/** The largest quantity on the coin grid whose initial margin at `price` and `leverage` fits `margin`; zero when below the minimum. */
export function quantityForMargin(instrument: SimInstrument, margin: Decimal, price: Decimal, leverage: Decimal): Decimal {
  if (!margin.gt(0) || !price.gt(0) || !leverage.gt(0)) return dec(0);
  const step = coinStep(instrument);
  const quantity = margin.mul(leverage).div(price).divToInt(step).mul(step);
  return quantity.lt(minCoins(instrument)) ? dec(0) : quantity;
}

/** Initial margin of `quantity` coins opened at `price`. */
export function initialMargin(quantity: Decimal, price: Decimal, leverage: Decimal): Decimal {
  return quantity.mul(price).div(leverage);
}

/** Linear PnL of a position from `openPrice` to `price`. */
export function pnlAt(isLong: boolean, quantity: Decimal, openPrice: Decimal, price: Decimal): Decimal {
  const move = price.sub(openPrice).mul(quantity);
  return isLong ? move : move.neg();
}
