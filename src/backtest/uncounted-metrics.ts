import type { BusEvent } from '../model/bus-events.js';
import { KernelMetrics } from '../engine/kernel-metrics.js';

/**
 * The kernel's metrics in a backtest: a backtest serves no /metrics and its report counts from its own
 * records (fills, order log, PnL ledger), so the per-event counting (a label lookup and a counter update
 * per market event) is skipped. The rest (intents, reconciliations, journal health) is per command, not
 * per event, and stays.
 */
export class UncountedKernelMetrics extends KernelMetrics {
  override count(_event: BusEvent, _ownerOf: (clientOrderId: string) => string | undefined): void {
    // Nothing reads the per-event counters of a backtest.
  }
}
