import fc from 'fast-check';
import { Decimal } from '../../src/core/decimal.js';

/**
 * Generators of bad wire input for the hardening suite (issue 8): arbitrary JSON, valid samples mutated
 * (a field of the wrong type, null, missing, huge, deep, NaN-like text, 64-bit ids as numbers), the text of
 * a reply truncated or corrupted, and text that is not JSON at all. Plus the checks every property shares.
 */

/** One step from a JSON value to a child: an object key or an array index. */
export type PathStep = string | number;
export type JsonPath = readonly PathStep[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every node of a JSON value (the root too), depth first. */
export function pathsOf(value: unknown, at: JsonPath = []): JsonPath[] {
  const out: JsonPath[] = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...pathsOf(item, [...at, i])));
  else if (isRecord(value)) for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...at, key]));
  return out;
}

/** A JSON copy of a sample (samples are plain JSON; `undefined` members disappear, as on the wire). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function getAt(value: unknown, path: JsonPath): unknown {
  let node = value;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isRecord(node) && typeof step === 'string') node = node[step];
    else return undefined;
  }
  return node;
}

/** `value` with the node at `path` replaced by `replacement` (`DELETE` removes it). Defines keys as own data properties, `__proto__` included. */
export const DELETE: unique symbol = Symbol('delete');
export function setAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return replacement === DELETE ? undefined : replacement;
  if (Array.isArray(value) && typeof step === 'number') {
    const copy = [...value];
    if (replacement === DELETE && rest.length === 0) copy.splice(step, 1);
    else copy[step] = setAt(copy[step], rest, replacement);
    return copy;
  }
  if (isRecord(value) && typeof step === 'string') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    if (replacement === DELETE && rest.length === 0) delete copy[step];
    else Object.defineProperty(copy, step, { value: setAt(copy[step], rest, replacement), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

// ---- bad values

/** Text a decimal or integer field must refuse (or read exactly): NaN/Infinity spellings, overflow, odd digits. */
export const NUMBER_LIKE_TEXT: readonly string[] = [
  'NaN', 'nan', 'Infinity', '-Infinity', '+Infinity', 'inf', '1e999999999', '-1e999999999', '1e-999999999', '1e9007199254740993',
  '0x1F', '0b101', '0o17', '1_000', ' 12', '12 ', '1,5', '1.2.3', '--1', '+-1', '.', '-', 'e5', '1e', '1e+', '-0', '+0', '00012',
  '٣', '１２', '1\u00a0000', '12\n', '\t7', '9'.repeat(400), `0.${'0'.repeat(400)}1`, `${'9'.repeat(40)}.5`, '18446744073709551616',
  '-9223372036854775809', '1e400', '-1e400', '1e-8999999999999999', '-1e-8999999999999999', '1e8999999999999999', '1e31', '1e-31', 'true', 'null', 'undefined', '[]', '{}', '',
];

/** Keys that could trip a parser that trusts object shapes. */
export const NASTY_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'toJSON', '', ' ', 'code', 'data', 'e', 'eventType', 'pong', 'k'.repeat(10_000)];

/** An object whose own keys shadow Object.prototype (String(it) or `${it}` throws). */
export function shadowingObject(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['__proto__', 'toString', 'valueOf', 'constructor', 'toJSON']) Object.defineProperty(out, key, { value: 1, enumerable: true, writable: true, configurable: true });
  return out;
}

function nest(depth: number, leaf: unknown): unknown {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = i % 2 === 0 ? [node] : { a: node };
  return node;
}

/** Large values (kept cheap enough to appear in every property). */
const LARGE_VALUES: readonly unknown[] = ['x'.repeat(10_000), '7'.repeat(10_000), `1.${'3'.repeat(10_000)}`, new Array<number>(1_000).fill(1), nest(100, '1')];

/** Oversized values, built once (handed out as shared instances; nothing mutates them in place). */
const OVERSIZED_VALUES: readonly unknown[] = [
  ...[100_000, 1_000_000].flatMap((n) => ['x'.repeat(n), '7'.repeat(n), `1.${'3'.repeat(n)}`]),
  new Array<number>(100_000).fill(1),
  Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
  nest(1_000, '1'),
];

/** Replacement values for any node: wrong types, null, NaN-like text, large and deep values, odd numbers (`oversized`: 100 kB to 1 MB ones too). */
export function badValue(oversized = false): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constant(null), weight: 4 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 6 },
    { arbitrary: fc.constantFrom(...NUMBER_LIKE_TEXT), weight: 6 },
    { arbitrary: fc.double(), weight: 3 },
    { arbitrary: fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 2 ** 53 + 1, Number.MAX_VALUE, Number.MIN_VALUE, 1e21, -1, 0.1, 2120518481434695937), weight: 3 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constantFrom('', [], {}), weight: 2 },
    { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 2 },
    { arbitrary: fc.constant(null).map(() => shadowingObject()), weight: 1 },
    { arbitrary: fc.constantFrom(...LARGE_VALUES), weight: 2 },
    { arbitrary: fc.constantFrom(...(oversized ? OVERSIZED_VALUES : LARGE_VALUES)), weight: oversized ? 20 : 1 },
  );
}

/** What a mutation does to one node of a sample. */
type Mutation =
  | { readonly kind: 'replace'; readonly pick: number; readonly value: unknown }
  | { readonly kind: 'delete'; readonly pick: number }
  | { readonly kind: 'number'; readonly pick: number }
  | { readonly kind: 'text'; readonly pick: number }
  | { readonly kind: 'wrap'; readonly pick: number }
  | { readonly kind: 'extra-key'; readonly pick: number; readonly key: string; readonly value: unknown };

function mutation(oversized: boolean): fc.Arbitrary<Mutation> {
  const pick = fc.nat();
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('replace' as const), pick, value: badValue(oversized) }), weight: oversized ? 40 : 8 },
    { arbitrary: fc.record({ kind: fc.constant('delete' as const), pick }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('number' as const), pick }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('text' as const), pick }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('wrap' as const), pick }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('extra-key' as const), pick, key: fc.constantFrom(...NASTY_KEYS), value: badValue() }), weight: 2 },
  );
}

/** Applies `m` at one of `paths` (the sample's own nodes: a huge value inserted by an earlier mutation is not walked). */
function apply(value: unknown, paths: readonly JsonPath[], m: Mutation): unknown {
  const path = paths[m.pick % paths.length] ?? [];
  const node = getAt(value, path);
  switch (m.kind) {
    case 'replace':
      return setAt(value, path, m.value);
    case 'delete':
      return path.length === 0 ? undefined : setAt(value, path, DELETE);
    case 'number':
      // Decimal text or a 64-bit id sent as a JSON number (precision lost at the value level).
      return typeof node === 'string' && node.trim() !== '' && !Number.isNaN(Number(node)) ? setAt(value, path, Number(node)) : setAt(value, path, 12.5);
    case 'text':
      return setAt(value, path, typeof node === 'number' || typeof node === 'boolean' ? String(node) : JSON.stringify(node ?? null));
    case 'wrap':
      return setAt(value, path, [node]);
    case 'extra-key':
      return isRecord(node) ? setAt(value, [...path, m.key], m.value) : setAt(value, path, { [m.key]: m.value });
  }
}

/** A valid sample with one to three nodes mutated (`oversized`: mostly replaced by 100 kB to 1 MB values). */
export function mutated(sample: unknown, oversized = false): fc.Arbitrary<unknown> {
  const paths = pathsOf(sample);
  return fc.array(mutation(oversized), { minLength: 1, maxLength: 3 }).map((ms) => ms.reduce((value, m) => apply(value, paths, m), jsonCopy(sample)));
}

/** A JSON value or `fc.anything()` (objects with odd keys and prototypes, holes, -0, NaN). */
export function arbitraryValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true, withBoxedValues: true, withSparseArray: true }),
  );
}

// ---- bad text

/** Every 16+-digit quoted id written as a JSON number instead (a valid live variant: must read the same). */
export function idsAsNumbers(text: string): string {
  return text.replace(/"(-?\d{16,})"/g, '$1');
}

/** Oversized text, built once: deep nesting (with a 64-bit id inside, for the lossless reader), a long string, a long array. */
const OVERSIZED_TEXTS: readonly string[] = [
  '['.repeat(100_000) + ']'.repeat(100_000),
  ...[10_000, 100_000].map((n) => `${'['.repeat(n)}12345678901234567890${']'.repeat(n)}`),
  ...[100_000, 1_000_000].map((n) => `"${'x'.repeat(n)}"`),
  ...[10_000, 100_000].map((n) => `[${new Array<string>(n).fill('{"e":"x"}').join(',')}]`),
];

/** The same kinds at a size every property can afford. */
const LARGE_TEXTS: readonly string[] = ['['.repeat(1_000) + ']'.repeat(1_000), `${'['.repeat(1_000)}12345678901234567890${']'.repeat(1_000)}`, `"${'x'.repeat(10_000)}"`, `[${new Array<string>(1_000).fill('{"e":"x"}').join(',')}]`];

/** A value nested `depth` deep, as JSON text (JSON.stringify itself would overflow the stack building it). */
function deepText(depth: number): string {
  return '['.repeat(depth) + '{"a":1}' + ']'.repeat(depth);
}

/** Frames and replies whose fields hold a value nested 10,000 and 100,000 deep: code that walks or prints it recursively overflows. */
export const DEEP_FIELD_TEXTS: readonly string[] = [10_000, 100_000].flatMap((depth) => {
  const deep = deepText(depth);
  return [
    `{"pong":${deep}}`, `{"code":${deep},"desc":${deep}}`, `{"eventType":${deep}}`, `[{"e":${deep}}]`, `[{"e":"ticketInfo","E":${deep}}]`,
    `{"code":200,"msg":${deep},"data":${deep}}`, `{"code":-1131,"msg":${deep}}`, `[${deep}]`, `{"listenKey":${deep}}`,
  ];
});

/** Text that is not JSON, or JSON of the wrong kind entirely (`oversized`: 100 kB to 2 MB texts). */
export function junkText(oversized = false): fc.Arbitrary<string> {
  if (oversized) return fc.constantFrom(...OVERSIZED_TEXTS, ...DEEP_FIELD_TEXTS);
  return fc.oneof(
    fc.constantFrom(
      '', ' ', '\n', '\uFEFF', '\uFEFF{}', 'null', 'true', '0', '-1', '"text"', '[]', '{}', 'NaN', 'Infinity', 'undefined', '{"a":1}{"a":2}', '{"code":', '{"code":200,"data":',
      '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', '502 Bad Gateway', 'upstream connect error or disconnect/reset before headers',
      '\u0000\u0001\u0002', '{"code":NaN}', "{'code':200}", '{"code":200,}', '[1,2,]', '{"a":1e999}', '{"a":-1e999}', `[${'1'.repeat(400)}]`, `{"a":${'9'.repeat(400)}}`,
      `{"code":"\\ud800","msg":"\\u0000"}`, '{"__proto__":{"polluted":1},"code":0}', '{"constructor":{"prototype":{"x":1}}}',
    ),
    fc.string({ maxLength: 200, unit: 'binary' }),
    fc.string({ maxLength: 200, unit: 'grapheme' }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(...LARGE_TEXTS),
  );
}


/** Byte-level damage to a reply's text: a cut, a character changed, inserted or removed, junk before or after. */
export function damaged(text: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, text.length) });
  const char = fc.constantFrom('"', '{', '}', '[', ']', ',', ':', '\\', '\u0000', 'x', '9', '-', 'e', '.', ' ', '\uFFFD', '\uD800');
  return fc.oneof(
    at.map((i) => text.slice(0, i)),
    fc.tuple(at, char).map(([i, c]) => text.slice(0, i) + c + text.slice(i + 1)),
    fc.tuple(at, char).map(([i, c]) => text.slice(0, i) + c + text.slice(i)),
    at.map((i) => text.slice(0, i) + text.slice(i + 1)),
    junkText().map((junk) => junk.slice(0, 1000) + text),
    junkText().map((junk) => text + junk.slice(0, 1000)),
  );
}

/**
 * The text of a reply or frame built from a valid sample: valid with ids as numbers, mutated and
 * serialized, mutated and cut, damaged bytes, or junk.
 */
export function badText(sample: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(sample);
  const serialized = mutated(sample).map((v) => JSON.stringify(v) ?? '');
  return fc.oneof(
    { arbitrary: serialized, weight: 6 },
    { arbitrary: serialized.chain((t) => fc.nat({ max: t.length }).map((i) => t.slice(0, i))), weight: 2 },
    { arbitrary: serialized.map(idsAsNumbers), weight: 1 },
    { arbitrary: damaged(text), weight: 4 },
    { arbitrary: junkText(), weight: 2 },
  );
}

/** Oversized replies: a valid sample with 100 kB to 1 MB values in it, or 100 kB to 2 MB of junk. */
export function oversizedText(sample: unknown): fc.Arbitrary<string> {
  return fc.oneof(
    mutated(sample, true).map((v) => JSON.stringify(v) ?? ''),
    junkText(true),
  );
}

// ---- shared checks

/** Error messages stay readable: an oversized reply must not become an oversized log line. */
export const MAX_MESSAGE_LENGTH = 2_000;

/** Decimals a wire value may hold: zero, or a magnitude within [1e-30, 1e30] (1e-9000000000000000 printed in full is petabytes). */
const MAX_WIRE_MAGNITUDE = new Decimal('1e30');
const MIN_WIRE_MAGNITUDE = new Decimal('1e-30');

/**
 * Numbers and decimals in an accepted value are finite (nothing NaN- or Infinity-like got through), and
 * decimals are of a sane magnitude.
 */
export function nonFinitePath(value: unknown, at = '', seen = new Set<unknown>()): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at || '(root)';
  if (Decimal.isDecimal(value)) return value.isFinite() && (value.isZero() || (value.abs().lte(MAX_WIRE_MAGNITUDE) && value.abs().gte(MIN_WIRE_MAGNITUDE))) ? undefined : at || '(root)';
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, `${at}.${key}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Integers of an accepted value (epoch times, counts, small codes) are safe integers: a 400-digit "time"
 * must not become Infinity or a number that silently lost digits. `code` fields are the transport's business.
 */
export function unsafeIntegerPath(value: unknown, at = '', seen = new Set<unknown>()): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value) || Decimal.isDecimal(value)) return undefined;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && key !== 'code' && Number.isInteger(item) && !Number.isSafeInteger(item)) return `${at}.${key}`;
    const found = unsafeIntegerPath(item, `${at}.${key}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Keys of 64-bit ids in parsed REST rows and stream frames (before and after the model's renaming). */
const ID_KEYS: ReadonlySet<string> = new Set(['id', 'orderId', 'accountId', 'userId', 'exchangeId', 'riskLimitId', 'leaderUserId', 'executedOrderId', 'matchOrderId', 'matchAccountId', 'i', 'o']);

/** A 64-bit id of an accepted value is at most 20 digits (a 10,000-digit "orderId" is garbage, not an id). */
export function oversizedIdPath(value: unknown, at = '', seen = new Set<unknown>()): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value) || Decimal.isDecimal(value)) return undefined;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && ID_KEYS.has(key) && /^-?\d+$/.test(item) && item.replace('-', '').length > 20) return `${at}.${key}`;
    const found = oversizedIdPath(item, `${at}.${key}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** fast-check's run parameters for a property of `numRuns` cases (seed from FC_SEED to replay a failure). */
export function runs<T>(numRuns: number): fc.Parameters<T> {
  const seed = process.env['FC_SEED'];
  // FC_SCALE (e.g. 0.1) shortens every property while debugging; the suite's counts are the numRuns given.
  const scale = Number(process.env['FC_SCALE'] ?? '1');
  return { numRuns: Math.max(1, Math.round(numRuns * scale)), ...(seed === undefined ? {} : { seed: Number(seed) }) };
}
