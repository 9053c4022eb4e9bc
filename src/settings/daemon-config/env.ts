import type { Environment } from '../secrets.js';

/** A `${NAME}` reference whose variable is unset or empty, and where it was written. */
export interface MissingVariable {
  readonly name: string;
  readonly path: ReadonlyArray<string | number>;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** True when the text is exactly one `${NAME}` reference (how a secret may be written in the YAML). */
export function isVariableReference(value: unknown): boolean {
  return typeof value === 'string' && WHOLE_REFERENCE.test(value.trim());
}

/**
 * Replaces `${NAME}` (and `${NAME:-default}`) in every string value with the variable's value. An unset
 * or empty variable without a default is reported with its path and replaced by "".
 */
export function interpolateEnv(value: unknown, env: Environment): { readonly value: unknown; readonly missing: readonly MissingVariable[] } {
  const missing: MissingVariable[] = [];
  const walk = (node: unknown, path: ReadonlyArray<string | number>): unknown => {
    if (typeof node === 'string') {
      return node.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
        const found = env[name];
        if (found !== undefined && found !== '') return found;
        if (fallback !== undefined) return fallback;
        missing.push({ name, path });
        return '';
      });
    }
    if (Array.isArray(node)) return node.map((item: unknown, i) => walk(item, [...path, i]));
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]));
    }
    return node;
  };
  return { value: walk(value, []), missing };
}
