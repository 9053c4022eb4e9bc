import type { Counter } from 'prom-client';
import type { FaultSettings } from '../config/fault-settings.js';
import { Prng } from '../market-stream/prng.js';
import { garble } from '../server/garbage.js';
import type { StreamFaultKind } from './stream-metrics.js';

/**
 * Draws the user stream's fault decisions from a seeded PRNG and counts the ones that fire. Settings
 * are read at every draw (runtime changes apply at once); a zero rate draws nothing, so turning one
 * fault on does not shift another's sequence while it is off.
 */
export class StreamFaults {
  private readonly prng: Prng;
  private readonly lifetimes: Prng;
  private readonly garbageShape: Prng;

  constructor(
    seed: number,
    private readonly settings: () => FaultSettings,
    private readonly injected: Counter<string>,
  ) {
    this.prng = new Prng(seed, 'user-stream-faults');
    this.lifetimes = new Prng(seed, 'user-stream-socket-lifetimes');
    this.garbageShape = new Prng(seed, 'user-stream-garbage-shape');
  }

  /** How long a socket opened now lives before the periodic drop fault cuts it, or undefined when that fault is off. */
  socketLifetimeMs(): number | undefined {
    const range = this.settings().wsDropEveryMs;
    if (range === null) return undefined;
    return this.lifetimes.int(range.min, range.max);
  }

  /** Counts a socket cut by the periodic drop fault. */
  countScheduledDrop(): void {
    this.injected.inc({ kind: 'ws_drop' });
  }

  /** Hold this event back and send it after the next one. */
  reorder(): boolean {
    return this.draw(this.settings().streamReorderRate, 'stream_reorder');
  }

  /** Send this frame a second time. */
  duplicate(): boolean {
    return this.draw(this.settings().streamDuplicateRate, 'stream_duplicate');
  }

  /** The frame to send instead of `text` when the garbage fault fires (corrupted, see garble), else `text`. */
  garbled(text: string): string {
    if (!this.draw(this.settings().garbageRate, 'stream_garbage')) return text;
    return garble(text, this.garbageShape.uniform(), this.garbageShape.uniform()).text;
  }

  /** Drop the socket after this delivery. */
  drop(): boolean {
    return this.draw(this.settings().wsDropRate, 'ws_drop');
  }

  private draw(rate: number, kind: StreamFaultKind): boolean {
    if (rate <= 0) return false;
    const fires = this.prng.uniform() < rate;
    if (fires) this.injected.inc({ kind });
    return fires;
  }
}
