import type { BookLevel } from '../../model/market-events.js';

/** What applying a frame did: applied, or why the book is not consistent any more (resync needed). */
export type BookApply = 'applied' | 'gap' | 'crossed' | 'unsynced';

interface Level {
  readonly key: number;
  readonly level: BookLevel;
}

/**
 * One symbol's order book kept from the `diffDepth` snapshot and deltas (API-NOTES §8): after a
 * snapshot the first delta's `o` is the base, then every delta must carry `o == last + 1`. A gap, a
 * crossed book or no snapshot yet leaves the book unsynced: `levels()` then serves nothing until a fresh
 * snapshot arrives (a book is never served while inconsistent). Sides stay sorted (bids high → low,
 * asks low → high) so a read is a slice.
 */
export class LocalBook {
  private bids: Level[] = [];
  private asks: Level[] = [];
  private synced = false;
  private lastSequence: number | undefined;
  private updatedAt = 0;

  get isSynced(): boolean {
    return this.synced;
  }

  /** The exchange time of the last frame applied. */
  get time(): number {
    return this.updatedAt;
  }

  /** The `o` of the last delta applied (undefined right after a snapshot). */
  get sequence(): number | undefined {
    return this.lastSequence;
  }

  snapshot(time: number, bids: readonly BookLevel[], asks: readonly BookLevel[]): BookApply {
    this.bids = sortedSide(bids, true);
    this.asks = sortedSide(asks, false);
    this.lastSequence = undefined;
    this.updatedAt = time;
    this.synced = true;
    return this.checkCrossed();
  }

  delta(sequence: number, time: number, bids: readonly BookLevel[], asks: readonly BookLevel[]): BookApply {
    if (!this.synced) return 'unsynced';
    if (this.lastSequence !== undefined && sequence !== this.lastSequence + 1) {
      this.invalidate();
      return 'gap';
    }
    this.lastSequence = sequence;
    this.updatedAt = time;
    for (const level of bids) upsert(this.bids, level, true);
    for (const level of asks) upsert(this.asks, level, false);
    return this.checkCrossed();
  }

  /** A reconnect, a stale book or a gap: nothing is served until the next snapshot. */
  invalidate(): void {
    this.synced = false;
    this.lastSequence = undefined;
  }

  /** The best `limit` levels a side (0: all), or undefined while unsynced. */
  levels(limit: number): { readonly bids: BookLevel[]; readonly asks: BookLevel[] } | undefined {
    if (!this.synced) return undefined;
    const take = (side: Level[]): BookLevel[] => (limit === 0 ? side : side.slice(0, limit)).map((l) => l.level);
    return { bids: take(this.bids), asks: take(this.asks) };
  }

  private checkCrossed(): BookApply {
    const bid = this.bids[0];
    const ask = this.asks[0];
    if (bid !== undefined && ask !== undefined && bid.level.price.gte(ask.level.price)) {
      this.invalidate();
      return 'crossed';
    }
    return 'applied';
  }
}

function sortedSide(levels: readonly BookLevel[], descending: boolean): Level[] {
  const side: Level[] = [];
  for (const level of levels) if (!level.qty.isZero()) side.push({ key: level.price.toNumber(), level });
  side.sort((a, b) => (descending ? b.key - a.key : a.key - b.key));
  return side;
}

/** Sets a level's absolute size ("0" removes it), keeping the side sorted. */
function upsert(side: Level[], level: BookLevel, descending: boolean): void {
  const key = level.price.toNumber();
  let low = 0;
  let high = side.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = side[mid]?.key ?? 0;
    if (descending ? at > key : at < key) low = mid + 1;
    else high = mid;
  }
  const found = side[low];
  const exists = found !== undefined && found.level.price.eq(level.price);
  if (level.qty.isZero()) {
    if (exists) side.splice(low, 1);
    return;
  }
  if (exists) side[low] = { key, level };
  else side.splice(low, 0, { key, level });
}

