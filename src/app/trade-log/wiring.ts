import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Kernel } from '../../engine/kernel.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import { TradeLog } from './trade-log.js';
import { startTradeSummaries } from './summary.js';

/** The daemon's trade log on the kernel's bus, and its summary line once the kernel runs. */
export interface DaemonTradeLog {
  readonly tradeLog: TradeLog;
  readonly subscription: Subscription;
  /** Every `everyMs` (log.summaryEvery) a summary line per strategy; undefined when 0. */
  startSummaries(everyMs: number): Subscription | undefined;
}

/** Subscribed before the kernel starts, so the strategies' start lines are in it. */
export function attachTradeLog(kernel: Kernel, strategies: readonly StrategyInstance[], time: TimeSource, logger: Logger): DaemonTradeLog {
  const ownerOf = (clientOrderId: string): string | undefined => kernel.executor.ownerOf(clientOrderId);
  const tradeLog = new TradeLog({
    logger,
    cache: kernel.cache,
    ownerOf,
    symbolsOf: (id) => strategies.find((s) => s.id === id)?.symbols ?? [],
    killSwitchEngaged: kernel.risk.killSwitch.engaged,
    startedAt: time.clock.now(),
  });
  return {
    tradeLog,
    subscription: tradeLog.watch(kernel.events$),
    startSummaries: (everyMs) =>
      startTradeSummaries(logger, time.scheduler, everyMs, { strategies: () => kernel.strategies.status(), cache: kernel.cache, ownerOf, day: tradeLog.day }),
  };
}
