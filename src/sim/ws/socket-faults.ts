import type { Counter } from 'prom-client';
import type { FaultSettings } from '../config/fault-settings.js';
import { Prng } from '../market-stream/prng.js';

/**
 * The fault draws every simulated socket kind has: dropped sockets per delivery and after a drawn
 * lifetime, each kind from its own seeded sequences (`<stream>-faults`, `<stream>-socket-lifetimes`), so
 * turning one kind's faults on does not shift another's. Settings are read at every draw; a zero rate
 * draws nothing, so a fault that is off does not shift another's sequence either.
 */
export class SocketFaults<K extends string> {
  private readonly prng: Prng;
  private readonly lifetimes: Prng;

  constructor(
    seed: number,
    stream: string,
    protected readonly settings: () => FaultSettings,
    private readonly injected: Counter<string>,
  ) {
    this.prng = new Prng(seed, `${stream}-faults`);
    this.lifetimes = new Prng(seed, `${stream}-socket-lifetimes`);
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

  /** Drop the socket after this delivery. */
  drop(): boolean {
    return this.draw(this.settings().wsDropRate, 'ws_drop');
  }

  /** Whether a fault of `rate` fires now (counted when it does). */
  protected draw(rate: number, kind: K | 'ws_drop'): boolean {
    if (rate <= 0) return false;
    const fires = this.prng.uniform() < rate;
    if (fires) this.injected.inc({ kind });
    return fires;
  }
}
