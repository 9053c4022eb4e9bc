import { defineStrategy } from 'stratd/strategy';
import { Bracket } from './bracket.js';
import { bracketParams } from './params.js';

/**
 * A guard, not a trader: whatever opens a position on its symbols (another strategy, a person), it keeps
 * an exchange-side stop-loss and take-profit on it, follows its size, trails the stop, and cleans up
 * once the position is closed.
 */
export default defineStrategy({
  name: 'bracket',
  description: 'Keeps exchange-side stop-loss, take-profit and trailing stops on every position of its symbols',
  params: bracketParams,
  // A guard: it protects every position on its symbols, whoever opened it (the owners' ledgers shrink when a stop fills).
  positionScope: 'account',
  create: (ctx) => {
    const bracket = new Bracket(ctx);
    return {
      onStart: () => bracket.start(),
      onEvent: (event) => bracket.onEvent(event),
      onStop: () => bracket.stop(),
    };
  },
});
