import { dec } from '../../../src/core/decimal.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { AccountEvent, AccountRef, PlaceOrderCommand } from '../../../src/sim/engine/types.js';
import type { PriceLevel } from '../../../src/sim/market-stream/events.js';

export const T0 = 1_767_225_600_000;
export const BTC = 'BTC-SWAP-USDT';
export const PARENT = '100';
export const SUB = '200';
export const OTHER = '300';
export const ACCOUNT: AccountRef = { userId: PARENT, category: 'USDT' };

/** An engine with a parent (100), its sub-user (200) and an unrelated user (300), driven by hand-made market events. */
export function engine(futures = '100000'): { readonly ex: SimExchange; readonly events: AccountEvent[]; at: (ms: number) => number } {
  const ex = new SimExchange({
    startTime: T0,
    users: [
      { userId: PARENT, email: 'p@x.io', balances: { MAIN: { USDT: '5000' }, FUTURES: { USDT: futures } } },
      { userId: SUB, email: 's@x.io', parentUserId: PARENT, balances: { MAIN: { USDT: '1000' }, FUTURES: { USDT: '1000' } } },
      { userId: OTHER, email: 'o@x.io', balances: { MAIN: { USDT: '1000' }, FUTURES: { USDT: '1000' } } },
    ],
  });
  const events: AccountEvent[] = [];
  ex.onAccountEvent((e) => events.push(e));
  return { ex, events, at: (ms) => T0 + ms };
}

export function depth(ex: SimExchange, ts: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[], symbol = BTC): void {
  ex.applyMarketEvent({ type: 'depth', ts, symbol, bids, asks });
}

let tradeId = 0;
export function trade(ex: SimExchange, ts: number, price: string, qty: string, buyerIsMaker: boolean, symbol = BTC): void {
  ex.applyMarketEvent({ type: 'trade', ts, symbol, id: String(++tradeId), price, qty, buyerIsMaker });
}

export function mark(ex: SimExchange, ts: number, price: string, symbol = BTC): void {
  ex.applyMarketEvent({ type: 'mark', ts, symbol, price });
}

/** A standard book around 100000: bids 99999.9 (5), 99999.8 (10); asks 100000.0 (2), 100000.1 (3), 100000.5 (50). */
export function standardBook(ex: SimExchange, ts = T0): void {
  depth(
    ex,
    ts,
    [
      ['99999.9', '5'],
      ['99999.8', '10'],
    ],
    [
      ['100000', '2'],
      ['100000.1', '3'],
      ['100000.5', '50'],
    ],
  );
  trade(ex, ts, '100000', '0.1', false);
  mark(ex, ts, '100000');
}

let cid = 0;
export function order(partial: Partial<PlaceOrderCommand> & { side: PlaceOrderCommand['side']; positionSide?: PlaceOrderCommand['positionSide'] }): PlaceOrderCommand {
  const positionSide = partial.positionSide ?? (partial.side === 'BUY' ? 'LONG' : 'SHORT');
  return {
    symbol: BTC,
    type: 'LIMIT',
    priceType: 'INPUT',
    timeInForce: 'GTC',
    clientOrderId: `c${++cid}`,
    generation: 'v2',
    ...partial,
    positionSide,
  };
}

export const d = (v: string): Decimal => dec(v);
