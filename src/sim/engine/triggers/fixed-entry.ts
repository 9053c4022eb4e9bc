import type { FixedTriggerSpec, FixedTriggerState, PriceSource, TriggerDirection } from './types.js';

/** A registered fixed trigger; lives in one of its lane's level heaps. */
export class FixedEntry {
  readonly kind = 'FIXED';
  /** The heap key: the stop for RISING, minus the stop for FALLING, so both heaps are min-heaps. */
  readonly key: number;
  /** Index in its heap; maintained by the heap. */
  heapIndex = -1;

  constructor(
    readonly id: string,
    readonly seq: number,
    readonly symbol: string,
    readonly source: PriceSource,
    readonly direction: TriggerDirection,
    readonly stopTicks: number,
  ) {
    this.key = direction === 'RISING' ? stopTicks : -stopTicks;
  }

  static of(id: string, seq: number, spec: FixedTriggerSpec): FixedEntry {
    return new FixedEntry(id, seq, spec.symbol, spec.source, spec.direction, spec.stopTicks);
  }

  sameAs(spec: FixedTriggerSpec): boolean {
    return spec.source === this.source && spec.direction === this.direction && spec.stopTicks === this.stopTicks;
  }

  state(): FixedTriggerState {
    const { id, seq, symbol, source, direction, stopTicks } = this;
    return { kind: 'FIXED', id, seq, symbol, source, direction, stopTicks, activeStatus: 0, levelTicks: stopTicks };
  }
}
