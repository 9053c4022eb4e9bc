// Globals read once: this runs per trade.
const { imul, max, min } = Math;

/** Quote value of the open interest a synthetic market settles around (≈ 20 million of the settle coin). */
const TARGET_NOTIONAL = 20_000_000;

/**
 * Synthetic open interest in lots, deterministic for a given trade stream. It starts at the target
 * (TARGET_NOTIONAL at the instrument's initial price) and each trade either opens (adds its size) or
 * closes (removes it). Which one is decided by a hash of the trade id against a probability that leans
 * back toward the target: far below it most trades open, far above it most close. So the open interest
 * wanders with the trade flow but stays around the target.
 */
export class OpenInterestModel {
  private lotsOpen: number;
  private readonly target: number;
  private readonly salt: number;

  constructor(symbol: string, initialPrice: number, contractMultiplier: number, quantityStep: number) {
    this.target = max(1, Math.round(TARGET_NOTIONAL / (initialPrice * contractMultiplier * quantityStep)));
    this.lotsOpen = this.target;
    this.salt = fnv1a(symbol, 0x811c9dc5);
  }

  get lots(): number {
    return this.lotsOpen;
  }

  onTrade(tradeId: string, lots: number): void {
    const gap = (this.target - this.lotsOpen) / this.target;
    const openProbability = min(0.95, max(0.05, 0.5 + gap));
    const u = fnv1a(tradeId, this.salt) / 0x1_0000_0000;
    this.lotsOpen = u < openProbability ? this.lotsOpen + lots : max(0, this.lotsOpen - lots);
  }
}

function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) hash = imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return hash >>> 0;
}
