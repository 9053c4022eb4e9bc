import { parse as parseLossless, isSafeNumber } from 'lossless-json';

const LONG_INTEGER = /[:[,]\s*-?\d{16,}\s*[,}\]]/;

/**
 * JSON.parse that keeps integers beyond 2^53 as their exact digit strings (64-bit ids sent as
 * numbers would otherwise lose digits). The slow path only runs when such a literal is present.
 */
export function parseWireJson(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text) as unknown;
  return parseLossless(text, null, (digits: string) => (isSafeNumber(digits) ? Number(digits) : digits));
}
