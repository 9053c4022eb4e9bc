import { defineStrategy } from 'stratd/strategy';
import { GridRunner } from './grid.js';
import { gridParams } from './params.js';

/**
 * A fixed price grid between `lower` and `upper`: resting LIMIT orders at the levels; a filled buy is
 * followed by a sell one level higher (and the other way round for short cells), so every round trip
 * earns one level's spacing. Stops (and optionally closes) when the price leaves the range.
 */
export default defineStrategy({
  name: 'grid',
  description: 'Fixed price grid (arithmetic or geometric) with re-arming levels',
  params: gridParams,
  create: (ctx) => {
    const grid = new GridRunner(ctx);
    return {
      onStart: () => grid.start(),
      onEvent: (event) => grid.onEvent(event),
      onStop: () => grid.stop(),
    };
  },
});
