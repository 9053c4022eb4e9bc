/** An epoch-milliseconds time as ISO 8601 UTC text (for files and reports; never reads the clock). */
export function iso(time: number): string {
  return new Date(time).toISOString();
}
