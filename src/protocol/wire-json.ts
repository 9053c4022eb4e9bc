import { isSafeNumber, parse as parseLossless } from 'lossless-json';

const LONG_INTEGER = /[:[,]\s*-?\d{16,}\s*[,}\]]/;
/** A number in a value's place (after `:`, `[` or `,`); `g` for replace. */
const NUMBERS = /([:[,]\s*)(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*[,}\]])/g;

/**
 * JSON.parse that keeps integers beyond 2^53 as their exact digit strings (64-bit ids sent as numbers
 * would otherwise lose digits). Replies without such a literal are parsed by JSON.parse alone; one with
 * them has its unsafe numbers quoted in one native regex pass, then JSON.parse reads it (no JavaScript JSON
 * parser over the body). Should a match lie inside a JSON string, the quotes put in end that string
 * before a number, which no JSON allows: JSON.parse refuses it, and the lossless parser reads the
 * original text instead.
 */
export function parseWireJson(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text) as unknown;
  try {
    return JSON.parse(text.replace(NUMBERS, quoteUnsafe)) as unknown;
  } catch {
    return parseLossless(text, null, (digits: string) => (isSafeNumber(digits) ? Number(digits) : digits));
  }
}

/** A number a double does not hold exactly (as the lossless parser judges it) keeps its text. */
function quoteUnsafe(match: string, before: string, digits: string): string {
  // At most 15 digits and no exponent: always exact.
  if (digits.length <= 15 && !/[eE]/.test(digits)) return match;
  return isSafeNumber(digits) ? match : `${before}"${digits}"`;
}
