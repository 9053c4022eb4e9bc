import type { Decimal } from '../../core/decimal.js';
import type { Intent } from '../../model/intents.js';
import type { KlineUpdated } from '../../model/market-events.js';
import type { Bands } from '../indicators/indicator.js';

/**
 * What a strategy instance decided and computed, as it ran: the intents it emitted while running (not
 * its clean-up on stop) and the values its indicators took, each at the clock time it happened. Given to
 * the kernel only by analyses that compare runs (stratd check-strategy); without one nothing is recorded.
 */
export interface StrategyRecorder {
  intent(strategyId: string, time: number, intent: Intent): void;
  /** A value one of the instance's indicators took (see IndicatorProbe). */
  indicator(strategyId: string, time: number, name: string, kline: KlineUpdated, value: Decimal | Bands): void;
}
