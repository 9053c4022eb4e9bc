/** A positive whole number from the environment variable `name` (a bench's size or rounds), or `fallback` when unset. */
export function positiveIntegerSetting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return n;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
