import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { Decimal } from '../../../src/core/decimal.js';
import type { PositionSide } from '../../../src/model/instrument.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { value } from '../../sim/e2e/sim-harness.js';
import { ioPause } from './virtual-steps.js';

/** What is compared between the daemon's cache and the exchange: one row per open order or position. */
export interface OrderRow {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: string;
  readonly positionSide: string;
  readonly price: string;
  readonly quantity: string;
  readonly filledQty: string;
  readonly status: string;
}

export interface PositionRow {
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly qty: string;
}

export interface AccountView {
  readonly orders: OrderRow[];
  readonly positions: PositionRow[];
}

const text = (d: Decimal): string => d.toFixed();

function byId(a: OrderRow, b: OrderRow): number {
  return a.clientOrderId < b.clientOrderId ? -1 : a.clientOrderId > b.clientOrderId ? 1 : 0;
}

function byKey(a: PositionRow, b: PositionRow): number {
  const ka = `${a.symbol}/${a.positionSide}`;
  const kb = `${b.symbol}/${b.positionSide}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** The daemon's view: open orders and non-flat positions of its cache. */
export function cacheView(daemon: Daemon): AccountView {
  const cache = daemon.kernel.cache;
  const orders = cache.openOrders().map((o) => ({
    clientOrderId: o.clientOrderId,
    symbol: o.symbol,
    side: o.side,
    positionSide: o.positionSide,
    price: text(o.price),
    quantity: text(o.quantity),
    filledQty: text(o.filledQty),
    status: o.status,
  }));
  const positions = cache
    .positions()
    .filter((p) => p.qty.gt(0))
    .map((p) => ({ symbol: p.symbol, positionSide: p.positionSide, qty: text(p.qty) }));
  return { orders: orders.sort(byId), positions: positions.sort(byKey) };
}

/** The exchange's view over REST with the test's own client, USDT-M and USDC-M (v2 rows are in contracts, like the cache). */
export async function exchangeView(client: ExchangeClient): Promise<AccountView> {
  const open = [...value(await client.ordersV2.openOrders({})), ...value(await client.ordersV2.openOrders({ category: 'USDC' }))];
  const orders = open
    .filter((o) => o.type === 'LIMIT' || o.type === 'MARKET')
    .map((o) => ({
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      side: o.side,
      positionSide: o.positionSide,
      price: text(o.price),
      quantity: text(o.origQty),
      filledQty: text(o.executedQty),
      status: o.status,
    }));
  const positions = [...value(await client.account.positions()), ...value(await client.account.positions({ category: 'USDC' }))]
    .filter((p) => !p.position.isZero())
    .map((p) => ({ symbol: p.symbol, positionSide: p.side, qty: text(p.position.abs()) }));
  return { orders: orders.sort(byId), positions: positions.sort(byKey) };
}

/**
 * With virtual time standing still, replies and stream events still in flight settle over real I/O:
 * compares the two views until they agree, failing with the last difference after `limitMs`.
 */
export async function expectViewsAgree(daemon: Daemon, client: ExchangeClient, limitMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const local = cacheView(daemon);
    const remote = await exchangeView(client);
    if (JSON.stringify(local) === JSON.stringify(remote) || Date.now() > giveUpAt) {
      expect(local).toEqual(remote);
      return;
    }
    await ioPause(10);
  }
}
