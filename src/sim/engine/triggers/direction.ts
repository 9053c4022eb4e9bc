import type { PositionSide, StopOrderType } from '../types.js';
import type { TriggerDirection } from './types.js';

/**
 * A plan order's direction from where its stop sits relative to the price at placement. A stop equal
 * to the current price counts as RISING; either way it fires on the next price at the stop.
 */
export function directionFor(stopTicks: number, currentTicks: number): TriggerDirection {
  return stopTicks < currentTicks ? 'FALLING' : 'RISING';
}

/** Fixed TP/SL: a long takes profit above and stops loss below; a short the reverse. */
export function tpslDirection(positionSide: PositionSide, stopOrderType: StopOrderType): TriggerDirection {
  const above = (positionSide === 'LONG') === (stopOrderType === 'TAKE_PROFIT');
  return above ? 'RISING' : 'FALLING';
}

/**
 * Trailing TP or SL alike: the SELL closing a LONG fires on a fall from the peak, the BUY closing a
 * SHORT on a rise from the trough.
 */
export function trailingDirection(positionSide: PositionSide): TriggerDirection {
  return positionSide === 'LONG' ? 'FALLING' : 'RISING';
}
