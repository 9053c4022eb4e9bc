import { interval } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Logger } from '../../core/logger.js';
import type { CacheView } from '../../model/cache-view.js';
import type { TradeDay } from './day.js';
import { feesText } from './day.js';
import { TRADE_COMPONENT, tradeLineText } from './line.js';

/** What the summary reads: the strategies as the host reports them, the cache, the owners of orders, the day's tally. */
export interface SummarySources {
  readonly strategies: () => ReadonlyArray<{ readonly id: string; readonly state: string; readonly symbols: readonly string[] }>;
  readonly cache: CacheView;
  readonly ownerOf: (clientOrderId: string) => string | undefined;
  readonly day: TradeDay;
}

/** One summary line's fields per strategy: state, the positions of its symbols, its open orders, fills and PnL today. */
export function summaryFields(sources: SummarySources): ReadonlyArray<Record<string, string | number>> {
  const { cache, ownerOf, day } = sources;
  return sources.strategies().map((st) => {
    const symbols = new Set(st.symbols);
    // Positions are the account's, per symbol and side: a symbol two strategies trade shows the same position in both.
    const position = cache
      .positions()
      .filter((p) => symbols.has(p.symbol) && !p.qty.isZero())
      .map((p) => `${st.symbols.length > 1 ? `${p.symbol} ` : ''}${p.positionSide} ${p.qty.toFixed()} @ ${p.avgPrice.toFixed()} upnl ${p.unrealizedPnl.toFixed()}`)
      .join('; ');
    const openOrders = cache.openOrders().filter((o) => ownerOf(o.clientOrderId) === st.id).length + cache.openAlgoOrders().filter((o) => ownerOf(o.clientOrderId) === st.id).length;
    const today = day.of(st.id);
    const fees = feesText(today.fees);
    return {
      strategy: st.id,
      symbol: st.symbols.join(','),
      state: st.state,
      ...(position === '' ? {} : { position }),
      openOrders,
      fillsToday: today.fills,
      realizedPnlToday: today.realizedPnl.toFixed(),
      ...(fees === '' ? {} : { feesToday: fees }),
    };
  });
}

/** Every `everyMs` on `scheduler` (the daemon's time source), one `summary` line per strategy; 0 writes none. */
export function startTradeSummaries(logger: Logger, scheduler: SchedulerLike, everyMs: number, sources: SummarySources): Subscription | undefined {
  if (everyMs <= 0) return undefined;
  const log = logger.child({ component: TRADE_COMPONENT });
  return interval(everyMs, scheduler).subscribe(() => {
    for (const fields of summaryFields(sources)) {
      const line = { event: 'summary' as const, ...fields };
      log.info(line, tradeLineText(line));
    }
  });
}
