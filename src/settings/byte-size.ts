const UNIT_BYTES = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 } as const;
const PATTERN = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;

/**
 * "100MB", "512kb", "1.5GB", "4096" (bytes) as whole bytes, binary units (1 MB = 1024² bytes);
 * undefined when the text is not such a size or comes to less than one byte.
 */
export function parseByteSize(text: string): number | undefined {
  const match = PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [, amount, unit] = match;
  if (amount === undefined) return undefined;
  const bytes = Math.floor(Number(amount) * UNIT_BYTES[(unit ?? 'b').toLowerCase() as keyof typeof UNIT_BYTES]);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}
