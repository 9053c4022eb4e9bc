import type { Counter } from 'prom-client';
import type { FaultSettings } from '../config/fault-settings.js';
import { Prng } from '../market-stream/prng.js';

export type MarketWsFaultKind = 'ws_drop' | 'market_frame_loss' | 'market_frame_reorder' | 'market_seq_gap';

/**
 * The public market socket's fault draws, from their own seeded sequences (apart from the user
 * stream's, so turning one on does not shift the other): lost and reordered frames per delivery, a
 * sequence gap per book delta, dropped sockets per delivery and after a drawn lifetime. Settings are
 * read at every draw; a zero rate draws nothing.
 */
export class MarketWsFaults {
  private readonly prng: Prng;
  private readonly lifetimes: Prng;

  constructor(
    seed: number,
    private readonly settings: () => FaultSettings,
    private readonly injected: Counter<string>,
  ) {
    this.prng = new Prng(seed, 'market-ws-faults');
    this.lifetimes = new Prng(seed, 'market-ws-socket-lifetimes');
  }

  socketLifetimeMs(): number | undefined {
    const range = this.settings().wsDropEveryMs;
    return range === null ? undefined : this.lifetimes.int(range.min, range.max);
  }

  countScheduledDrop(): void {
    this.injected.inc({ kind: 'ws_drop' });
  }

  lose(): boolean {
    return this.draw(this.settings().marketFrameLossRate, 'market_frame_loss');
  }

  reorder(): boolean {
    return this.draw(this.settings().marketFrameReorderRate, 'market_frame_reorder');
  }

  /** The book's sequence skips a number before this delta (every subscriber sees the gap). */
  gap(): boolean {
    return this.draw(this.settings().marketSeqGapRate, 'market_seq_gap');
  }

  drop(): boolean {
    return this.draw(this.settings().wsDropRate, 'ws_drop');
  }

  private draw(rate: number, kind: MarketWsFaultKind): boolean {
    if (rate <= 0) return false;
    const fires = this.prng.uniform() < rate;
    if (fires) this.injected.inc({ kind });
    return fires;
  }
}
