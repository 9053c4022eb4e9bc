const INT64_MAX = 9_223_372_036_854_775_807n;

/** A leader id: a 64-bit integer of at least 1, as its canonical digits; undefined otherwise. */
export function leaderIdOf(text: string): string | undefined {
  if (!/^\d{1,19}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= 1n && value <= INT64_MAX ? value.toString() : undefined;
}
