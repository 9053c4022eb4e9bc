import { invariant } from '../../../core/errors.js';
import { FixedEntry } from './fixed-entry.js';
import { PriceLane, type Entry } from './price-lane.js';
import { TrailingEntry } from './trailing-entry.js';
import { RATE_SCALE } from './trailing-math.js';
import type { PriceSource, TriggerSpec, TriggerState } from './types.js';
import { emptyObjectArray } from '../../../core/empty-arrays.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { isSafeInteger } = Number;
const NONE: readonly string[] = Object.freeze([]);

interface SymbolLanes {
  readonly contract: PriceLane;
  readonly mark: PriceLane;
}

/**
 * The simulated exchange's trigger book: plan orders, fixed TP/SL and trailing stops waiting for a
 * price. Prices are integer ticks. `onPrice` is the hot path: with no trigger at or beyond the price
 * it is a map lookup and two comparisons, without allocating. Everything is deterministic: triggers
 * firing on one price are reported in registration order, and a trigger fires once.
 */
export class TriggerBook {
  private readonly lanesBySymbol = new Map<string, SymbolLanes>();
  private readonly byId = new Map<string, Entry>();
  private readonly scratch: Entry[] = emptyObjectArray();
  private lastFired: readonly Entry[] = [];
  /** Trailing triggers activated since the last `takeActivated`, in activation order. */
  private activated: Entry[] = emptyObjectArray();
  private nextSeq = 0;

  /** Number of registered triggers. */
  get size(): number {
    return this.byId.size;
  }

  /** Registers a trigger; the id must be new. A spec the engine should have refused throws. */
  add(id: string, spec: TriggerSpec): void {
    invariant(!this.byId.has(id), 'TRIGGER_DUPLICATE', `trigger ${id} is already registered`);
    checkSpec(id, spec);
    this.attach(id, spec, this.nextSeq++);
  }

  /** Removes a trigger; false when it is unknown (never added, removed, or fired). */
  remove(id: string): boolean {
    const entry = this.byId.get(id);
    if (entry === undefined) return false;
    this.detach(entry);
    return true;
  }

  /**
   * Replaces a trigger's parameters (not its symbol); it keeps its registration order. A trailing
   * trigger starts over (inactive, no peak) unless every parameter is unchanged. False when unknown.
   */
  update(id: string, spec: TriggerSpec): boolean {
    const entry = this.byId.get(id);
    if (entry === undefined) return false;
    invariant(spec.symbol === entry.symbol, 'TRIGGER_SYMBOL', `trigger ${id} is on ${entry.symbol}, not ${spec.symbol}`);
    checkSpec(id, spec);
    if (spec.kind === 'FIXED' ? entry.kind === 'FIXED' && entry.sameAs(spec) : entry.kind === 'TRAILING' && entry.sameAs(spec)) return true;
    this.detach(entry);
    this.attach(id, spec, entry.seq);
    return true;
  }

  /**
   * One trade (CONTRACT_PRICE) or mark (MARK_PRICE) price of a symbol, in integer ticks. Answers the
   * ids that fired, in registration order, and forgets them; trailing triggers activate and track.
   */
  onPrice(symbol: string, source: PriceSource, ticks: number): readonly string[] {
    const lanes = this.lanesBySymbol.get(symbol) ?? this.lanesOf(symbol);
    const lane = source === 'MARK_PRICE' ? lanes.mark : lanes.contract;
    lane.last = ticks;
    if (ticks < lane.hi && ticks > lane.lo) return NONE;
    return this.fire(lane, ticks);
  }

  /**
   * Ids of the trailing triggers that prices activated since the last call (activation price reached),
   * including ones that fired on the same price; the list is emptied. Activation at registration (an
   * activation price of 0) is not reported: the trigger is active from its first state.
   */
  takeActivated(): readonly string[] {
    if (this.activated.length === 0) return NONE;
    const ids = this.activated.map((entry) => entry.id);
    this.activated = emptyObjectArray();
    return ids;
  }

  /** The state of a registered trigger, or undefined. */
  get(id: string): TriggerState | undefined {
    return this.byId.get(id)?.state();
  }

  /** The final state of a trigger the latest firing `onPrice` call fired (its level is the trigger price). */
  firedState(id: string): TriggerState | undefined {
    return this.lastFired.find((entry) => entry.id === id)?.state();
  }

  /** Ids of the symbol's registered triggers, in registration order. */
  idsFor(symbol: string): readonly string[] {
    const lanes = this.lanesBySymbol.get(symbol);
    if (lanes === undefined) return NONE;
    return [...lanes.contract.entries(), ...lanes.mark.entries()].sort(bySeq).map((entry) => entry.id);
  }

  /** The last price `onPrice` saw for the symbol and source, or undefined. */
  lastPrice(symbol: string, source: PriceSource): number | undefined {
    const lanes = this.lanesBySymbol.get(symbol);
    const last = lanes === undefined ? Number.NaN : source === 'MARK_PRICE' ? lanes.mark.last : lanes.contract.last;
    return last === last ? last : undefined;
  }

  private fire(lane: PriceLane, ticks: number): readonly string[] {
    const fired = this.scratch;
    if (fired.length !== 0) fired.length = 0;
    lane.collect(ticks, fired, this.activated);
    if (fired.length === 0) return NONE;
    if (fired.length > 1) fired.sort(bySeq);
    const ids: string[] = [];
    for (let i = 0; i < fired.length; i++) {
      const entry = fired[i];
      if (entry === undefined) continue;
      this.byId.delete(entry.id);
      ids.push(entry.id);
    }
    this.lastFired = fired.slice();
    return ids;
  }

  private attach(id: string, spec: TriggerSpec, seq: number): void {
    const entry = spec.kind === 'FIXED' ? FixedEntry.of(id, seq, spec) : TrailingEntry.of(id, seq, spec);
    this.byId.set(id, entry);
    this.laneOf(entry).add(entry);
  }

  private detach(entry: Entry): void {
    this.byId.delete(entry.id);
    this.laneOf(entry).remove(entry);
  }

  private laneOf(entry: Entry): PriceLane {
    const lanes = this.lanesBySymbol.get(entry.symbol) ?? this.lanesOf(entry.symbol);
    return entry.source === 'MARK_PRICE' ? lanes.mark : lanes.contract;
  }

  private lanesOf(symbol: string): SymbolLanes {
    const lanes: SymbolLanes = { contract: new PriceLane(), mark: new PriceLane() };
    this.lanesBySymbol.set(symbol, lanes);
    return lanes;
  }
}

function bySeq(a: Entry, b: Entry): number {
  return a.seq - b.seq;
}

function checkSpec(id: string, spec: TriggerSpec): void {
  if (spec.kind === 'FIXED') {
    invariant(isSafeInteger(spec.stopTicks), 'TRIGGER_SPEC', `trigger ${id}: stop ${spec.stopTicks} is not integer ticks`);
    return;
  }
  invariant(isSafeInteger(spec.activeTicks) && spec.activeTicks >= 0, 'TRIGGER_SPEC', `trigger ${id}: activation ${spec.activeTicks} is not ticks >= 0`);
  const callback = spec.callback;
  if (callback.type === 'RATE') {
    const rate = callback.rateE8;
    invariant(isSafeInteger(rate) && rate > 0 && rate < RATE_SCALE, 'TRIGGER_SPEC', `trigger ${id}: callback rate ${rate}e-8 is not in (0, 1)`);
  } else {
    invariant(isSafeInteger(callback.ticks) && callback.ticks > 0, 'TRIGGER_SPEC', `trigger ${id}: callback ${callback.ticks} is not ticks > 0`);
  }
}
