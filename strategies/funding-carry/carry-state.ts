import type { Decimal, PositionSide } from 'stratd/strategy';

/** The resting POST_ONLY entry order of a symbol. */
export interface Entry {
  readonly clientOrderId: string;
  readonly positionSide: PositionSide;
  readonly price: Decimal;
  cancelling: boolean;
}

/** What the strategy has on its way for one symbol: at most one entry and one exit at a time. */
export interface CarryState {
  entry: Entry | undefined;
  /** The market close in flight. */
  exit: string | undefined;
  /** When an entry last filled (or was refused): the next one waits addIntervalMs from here. */
  lastEntryAt: number;
}

export function newCarryState(): CarryState {
  return { entry: undefined, exit: undefined, lastEntryAt: Number.NEGATIVE_INFINITY };
}

/** The order is done (finished, refused or gone): forget it; with `waitFrom`, an entry starts the wait. */
export function forget(states: Iterable<CarryState>, clientOrderId: string, waitFrom?: number): void {
  for (const state of states) {
    if (state.entry?.clientOrderId === clientOrderId) {
      state.entry = undefined;
      if (waitFrom !== undefined) state.lastEntryAt = waitFrom;
    }
    if (state.exit === clientOrderId) state.exit = undefined;
  }
}

/** A cancel that did not go through: it may be tried again. */
export function cancelRefused(states: Iterable<CarryState>, clientOrderId: string): void {
  for (const state of states) if (state.entry?.clientOrderId === clientOrderId) state.entry.cancelling = false;
}
