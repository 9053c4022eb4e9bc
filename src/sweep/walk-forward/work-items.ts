import { InvariantError } from '../../core/errors.js';
import type { SweepCombination } from '../types.js';
import type { WalkForwardWindow } from './windows.js';

/**
 * A walk-forward as deterministic work items for the sweep runner (and any slicing of it, `--shard I/N`):
 * - in-sample items, window × combination: item `w·C + c` backtests grid combination `c` on window `w`'s
 *   in-sample part. They depend on nothing, so any subset may run anywhere; the same inputs give the same list.
 * - out-of-sample items, one per window: item `w` backtests the combination chosen on window `w`'s
 *   in-sample part on its out-of-sample part, with the equity curve (the stitched curve is made of them).
 *   They follow from the in-sample rows alone.
 */
export function inSampleItems(windows: readonly WalkForwardWindow[], combinations: readonly SweepCombination[]): SweepCombination[] {
  return windows.flatMap((window) =>
    combinations.map((combination, c) => ({ index: window.index * combinations.length + c, choice: combination.choice, span: window.inSample })),
  );
}

/** The in-sample item's window and grid combination (0-based). */
export function inSampleItemOf(index: number, combinations: number): { readonly window: number; readonly combination: number } {
  return { window: Math.floor(index / combinations), combination: index % combinations };
}

/** Per window (in order), the grid combination chosen on its in-sample part. */
export function outOfSampleItems(windows: readonly WalkForwardWindow[], chosen: readonly SweepCombination[]): SweepCombination[] {
  if (chosen.length !== windows.length) throw new InvariantError('WALK_FORWARD_CHOICES', `${chosen.length} choices for ${windows.length} windows`);
  return windows.map((window, w) => ({ index: window.index, choice: chosen[w]!.choice, span: window.outOfSample, curve: true }));
}
