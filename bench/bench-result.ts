/** One benchmark's printed figures: measured, never asserted. */
export interface BenchResult {
  readonly name: string;
  readonly figures: Readonly<Record<string, number | string>>;
  readonly target?: string;
}

/**
 * One figure of issue 18's table next to its reference measured in the same run: `met` says whether it
 * reached its target on this machine now (printed and written to --json; no test asserts it).
 */
export interface BenchCheck {
  readonly bench: string;
  readonly figure: string;
  /** undefined: the bench did not produce the figure in this run. */
  readonly value: number | undefined;
  readonly unit: string;
  readonly reference: string;
  readonly referenceValue: number | undefined;
  readonly target: string;
  readonly met: boolean;
}
