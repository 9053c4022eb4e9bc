import type { FuturesBalance } from './account.js';
import type { Bad } from '../wire/plain.js';
import { BAD, plainDecimal, plainOptDecimal, plainOptional, plainRows, plainString } from '../wire/plain.js';

/**
 * The rows of a futures balance reply read in one plain pass: the fields `futuresBalanceSchema` reads,
 * by the same rules, into the same values (the asset is `coin ?? asset`). At the first row it does not
 * take whole it answers undefined, and the caller parses the reply with `futuresBalanceListSchema`,
 * which skips and reports the bad rows (README "The exchange client").
 */
export function readFuturesBalances(payload: unknown): FuturesBalance[] | undefined {
  return plainRows(payload, readFuturesBalance, false);
}

function readFuturesBalance(row: Record<string, unknown>): FuturesBalance | Bad {
  const coin = plainOptional(row['coin'], plainString);
  const asset = plainOptional(row['asset'], plainString);
  const balance = plainDecimal(row['balance']);
  const availableBalance = plainDecimal(row['availableBalance']);
  const positionMargin = plainDecimal(row['positionMargin']);
  const orderMargin = plainDecimal(row['orderMargin']);
  const crossUnRealizedPnl = plainDecimal(row['crossUnRealizedPnl']);
  const coupon = plainOptDecimal(row['coupon']);
  const name = coin === BAD || asset === BAD ? BAD : (coin ?? asset ?? BAD);
  if (name === BAD || balance === BAD || availableBalance === BAD || positionMargin === BAD || orderMargin === BAD || crossUnRealizedPnl === BAD || coupon === BAD) {
    return BAD;
  }
  // An absent coupon is no key at all, as parseWire leaves the schema's value (it strips undefined keys).
  return { coin: name, balance, availableBalance, positionMargin, orderMargin, crossUnRealizedPnl, ...(coupon === undefined ? {} : { coupon }) } as FuturesBalance;
}
