/** One benchmark's printed figures: measured, never asserted. */
export interface BenchResult {
  readonly name: string;
  readonly figures: Readonly<Record<string, number | string>>;
  readonly target?: string;
}
