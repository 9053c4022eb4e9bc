import type { Counter } from 'prom-client';
import type { FaultSettings } from '../config/fault-settings.js';
import { Prng } from '../market-stream/prng.js';
import { garble } from '../server/faults/garbage.js';
import { SocketFaults } from '../ws/socket-faults.js';
import type { StreamFaultKind } from './stream-metrics.js';

/**
 * Draws the user stream's fault decisions from a seeded PRNG and counts the ones that fire: reordered,
 * duplicated and garbled events, beside the dropped sockets every socket kind has (SocketFaults).
 */
export class StreamFaults extends SocketFaults<StreamFaultKind> {
  private readonly garbageShape: Prng;

  constructor(seed: number, settings: () => FaultSettings, injected: Counter<string>) {
    super(seed, 'user-stream', settings, injected);
    this.garbageShape = new Prng(seed, 'user-stream-garbage-shape');
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
}
