export { directionFor, tpslDirection, trailingDirection } from './direction.js';
export { RATE_GRID, RATE_SCALE, rateE8, trailingLevel } from './trailing-math.js';
export { TriggerBook } from './trigger-book.js';
export type {
  FixedTriggerSpec,
  FixedTriggerState,
  PriceSource,
  TrailingCallback,
  TrailingTriggerSpec,
  TrailingTriggerState,
  TriggerDirection,
  TriggerSpec,
  TriggerState,
} from './types.js';
