import type { Intent } from '../model/intents.js';
import type { IndicatorProbe } from './indicators/indicator-probe.js';

/**
 * What a strategy instance decided and computed, as it ran: the intents it emitted while running (not
 * its clean-up on stop) and the values its indicators took, each at the clock time it happened. Given to
 * the kernel only by analyses that compare runs (stratd check-strategy); without one nothing is recorded.
 */
export interface StrategyRecorder {
  intent(strategyId: string, time: number, intent: Intent): void;
  /** The probe the instance's `Indicators` report to (see IndicatorProbe). */
  indicatorProbe(strategyId: string): IndicatorProbe;
}
