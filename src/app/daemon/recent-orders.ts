import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Category } from '../../model/instrument.js';
import type { ExchangeClient } from '../../venue/exchange-client.js';
import type { OrderV2 } from '../../venue/parsers/order-v2.js';

/** Rows read per list (the lists' maximum). */
const RECENT_ORDERS = 1000;

/** The account's recent orders of some categories: regular and plan/TP-SL, open and finished. */
export interface RecentOrders {
  readonly regular: readonly OrderV2[];
  readonly algo: readonly OrderV2[];
}

/**
 * Reads the open and history lists (regular and algo) of each category, newest first, at most
 * 1,000 rows each: the history lists reach a few days back (API-NOTES §4.5). Answers the first
 * list's failure as text.
 */
export async function readRecentOrders(client: ExchangeClient, categories: readonly Category[]): Promise<Result<RecentOrders, string>> {
  const regular: OrderV2[] = [];
  const algo: OrderV2[] = [];
  for (const category of categories) {
    const [open, history, openAlgo, historyAlgo] = await Promise.all([
      client.ordersV2.openOrders({ category, limit: RECENT_ORDERS }),
      client.ordersV2.historyOrders({ category, limit: RECENT_ORDERS }),
      client.algo.openAlgoOrders({ category, limit: RECENT_ORDERS }),
      client.algo.historyAlgoOrders({ category, limit: RECENT_ORDERS }),
    ]);
    for (const list of [open, history, openAlgo, historyAlgo]) if (!list.ok) return err(list.error.message);
    if (open.ok && history.ok) regular.push(...open.value, ...history.value);
    if (openAlgo.ok && historyAlgo.ok) algo.push(...openAlgo.value, ...historyAlgo.value);
  }
  return ok({ regular, algo });
}
