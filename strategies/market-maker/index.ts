import { defineStrategy } from 'stratd/strategy';
import { MarketMaker } from './market-maker.js';
import { marketMakerParams } from './params.js';

/**
 * Quotes both sides of every configured symbol with POST_ONLY limit orders, several levels deep,
 * around mid (or mark), leaning against the inventory and never growing it beyond maxInventory.
 */
export default defineStrategy({
  name: 'market-maker',
  description: 'Multi-level two-sided POST_ONLY quotes with inventory skew and cap',
  params: marketMakerParams,
  create: (ctx) => {
    const maker = new MarketMaker(ctx);
    return {
      onStart: () => maker.start(),
      onEvent: (event) => maker.onEvent(event),
      onStop: () => maker.stop(),
    };
  },
});
