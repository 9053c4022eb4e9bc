import { InvariantError } from '../core/errors.js';
import type { JsonValue } from '../model/catalog-mirror.js';

/**
 * Canonical JSON text: object keys sorted, undefined members dropped, no blanks. Two values with the
 * same content give the same text, so the text itself is the comparison key.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvariantError('NOT_JSON', `a non-finite number is not JSON: ${value}`);
    return JSON.stringify(value);
  }
  if (isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const member = value[key];
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

function isArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}
