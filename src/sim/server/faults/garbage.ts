/**
 * The garbage fault: a REST body or a user-stream frame replaced by a corrupted one. Every kind is
 * something a client cannot read as the real answer: JSON cut short, the same JSON with every value of
 * the wrong type, an oversized payload of the wrong shape, or text that is not JSON at all.
 */
export type GarbageKind = 'truncated' | 'wrong-types' | 'oversized' | 'not-json';

const KINDS: readonly GarbageKind[] = ['truncated', 'wrong-types', 'oversized', 'not-json'];

/** About 1 MiB: far beyond any real reply, well within what a client can receive. */
const OVERSIZED_CHARS = 1024 * 1024;

const NOT_JSON: readonly string[] = [
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
  'upstream connect error or disconnect/reset before headers. reset reason: connection termination',
  '\u0000\u0001\u0002\ufffd\ufffd{"code":',
  "{'code': 200, 'msg': 'success'}",
];

/** The corrupted form of `text`: `kindDraw` picks the kind, `cutDraw` where to cut (or which junk); both uniform in [0, 1). */
export function garble(text: string, kindDraw: number, cutDraw: number): { readonly kind: GarbageKind; readonly text: string } {
  const kind = KINDS[Math.floor(kindDraw * KINDS.length)] ?? 'not-json';
  switch (kind) {
    case 'truncated':
      // At least one character: an empty body is a valid reply of some routes (an unknown symbol's mark price).
      if (text.length < 2) break;
      return { kind, text: text.slice(0, 1 + Math.floor(cutDraw * (text.length - 1))) };
    case 'wrong-types': {
      const value = parseOrUndefined(text);
      if (value === undefined) break;
      return { kind, text: JSON.stringify(wrongTypes(value)) };
    }
    case 'oversized': {
      const copies = Math.max(1, Math.ceil(OVERSIZED_CHARS / (text.length + 1)));
      return { kind, text: `[${new Array<string>(copies).fill(text === '' ? 'null' : text).join(',')}]` };
    }
    case 'not-json':
      break;
  }
  return { kind: 'not-json', text: NOT_JSON[Math.floor(cutDraw * NOT_JSON.length)] ?? '' };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Every leaf of the wrong JSON type: text becomes an array, a number an object, a boolean text. */
function wrongTypes(value: unknown): unknown {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return { value };
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(wrongTypes);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wrongTypes(item)]));
  return value;
}
