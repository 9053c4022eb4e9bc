import { dec } from 'stratd/strategy';
import type { Decimal, PositionSide, Side } from 'stratd/strategy';
import type { MarketMakerParams } from './params.js';

/** The quote one slot (a side and a level) should have now. */
export interface QuoteTarget {
  readonly slot: string;
  readonly side: Side;
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly positionSide: PositionSide;
  /** Closes part of the opposite position rather than growing inventory. */
  readonly reduceOnly: boolean;
}

export interface LadderInput {
  readonly reference: Decimal;
  /** The account's LONG and SHORT positions on the symbol (contracts). */
  readonly long: Decimal;
  readonly short: Decimal;
  /** The touch, when known: a quote never crosses the book. */
  readonly bestBid: Decimal | undefined;
  readonly bestAsk: Decimal | undefined;
}

export function slotOf(side: Side, level: number): string {
  return `${side}/${level}`;
}

/**
 * The quotes for both sides. The centre moves against the net inventory (long: lower, so the ask gets
 * hit sooner and the bid later). Per side, quotes first close the opposite position (reduce-only), then
 * open, as long as the same-side position plus the opening quotes stay within maxInventory: a side at
 * its cap quotes nothing that would grow it.
 */
export function ladder(input: LadderInput, params: MarketMakerParams): QuoteTarget[] {
  const { quantity, levels, halfSpreadBps, levelSpacingBps, skewBps, maxInventory } = params;
  const net = input.long.minus(input.short);
  const ratio = Math.max(-1, Math.min(1, net.div(maxInventory).toNumber()));
  const center = input.reference.mul(dec(1).minus(dec(ratio).mul(skewBps).div(10_000)));
  const targets: QuoteTarget[] = [];
  for (const side of ['BUY', 'SELL'] as const) {
    const buying = side === 'BUY';
    let closable = buying ? input.short : input.long;
    let grown = buying ? input.long : input.short;
    for (let level = 0; level < levels; level++) {
      const offset = dec(halfSpreadBps + level * levelSpacingBps).div(10_000);
      let price = buying ? center.mul(dec(1).minus(offset)) : center.mul(dec(1).plus(offset));
      // A quote that would cross the book (refused as POST_ONLY) joins its own side's touch instead.
      if (buying && input.bestAsk !== undefined && input.bestBid !== undefined && price.gte(input.bestAsk)) price = input.bestBid;
      if (!buying && input.bestBid !== undefined && input.bestAsk !== undefined && price.lte(input.bestBid)) price = input.bestAsk;
      const slot = slotOf(side, level);
      if (closable.gt(0)) {
        const size = closable.lt(quantity) ? closable : quantity;
        closable = closable.minus(size);
        targets.push({ slot, side, price, quantity: size, positionSide: buying ? 'SHORT' : 'LONG', reduceOnly: true });
        continue;
      }
      if (grown.plus(quantity).gt(maxInventory)) break;
      grown = grown.plus(quantity);
      targets.push({ slot, side, price, quantity, positionSide: buying ? 'LONG' : 'SHORT', reduceOnly: false });
    }
  }
  return targets;
}

/** How far a quote is from its target, in basis points of the target. */
export function driftBps(current: Decimal, target: Decimal): Decimal {
  return current.minus(target).abs().div(target).mul(10_000);
}
