/** Durations as text ("500ms", "30m"), without a schema: cheap to import. */

export const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/**
 * "500ms", "20s", "1.5s", "30m", "1h", "1d" as whole milliseconds; undefined when the text is not such
 * a duration or does not come to a whole number of milliseconds.
 */
export function parseDuration(text: string): number | undefined {
  const match = PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [, amount, unit] = match;
  if (amount === undefined || unit === undefined) return undefined;
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** "1h", "30m", "20s", "1.5s" or "500ms" for a whole number of milliseconds (the inverse of parseDuration). */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [['d', UNIT_MS.d], ['h', UNIT_MS.h], ['m', UNIT_MS.m], ['s', UNIT_MS.s]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
