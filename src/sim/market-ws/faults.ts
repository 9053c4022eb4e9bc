import type { Counter } from 'prom-client';
import type { FaultSettings } from '../config/fault-settings.js';
import { SocketFaults } from '../ws/socket-faults.js';

export type MarketWsFaultKind = 'ws_drop' | 'market_frame_loss' | 'market_frame_reorder' | 'market_seq_gap';

/**
 * The public market socket's fault draws, from their own seeded sequences (apart from the user
 * stream's, so turning one on does not shift the other): lost and reordered frames per delivery, a
 * sequence gap per book delta, dropped sockets per delivery and after a drawn lifetime (SocketFaults).
 */
export class MarketWsFaults extends SocketFaults<MarketWsFaultKind> {
  constructor(seed: number, settings: () => FaultSettings, injected: Counter<string>) {
    super(seed, 'market-ws', settings, injected);
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
}
