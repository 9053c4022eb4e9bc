import type { Decimal } from '../../core/decimal.js';
import { dec, parseDecimal } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import type { SimReject, SimResult } from '../engine/types.js';
import type { ParamSource } from './param-source.js';
import { rejects } from './rejects.js';

/** List `limit`: default 20, 1 to 1000 (document 000, API-NOTES §2). */
export const LIST_LIMIT = { default: 20, min: 1, max: 1000 } as const;

/**
 * Reads typed parameters and keeps the FIRST refusal, so a route reads everything in the order the
 * exchange checks it and asks once at the end. After a refusal the readers return placeholders
 * (required text '', the first allowed choice, zero), which `finish` never lets out.
 */
export class ParamReader {
  private problem: SimReject | undefined;

  constructor(private readonly source: ParamSource) {}

  get failure(): SimReject | undefined {
    return this.problem;
  }

  /** Records a refusal unless an earlier one is already recorded. */
  fail(reject: SimReject): void {
    this.problem ??= reject;
  }

  /** `build()` when nothing was refused, else the first refusal. */
  finish<T>(build: () => T): SimResult<T> {
    return this.problem === undefined ? ok(build()) : err(this.problem);
  }

  has(name: string): boolean {
    return this.source.value(name).kind !== 'absent';
  }

  text(name: string): string | undefined {
    const value = this.source.value(name);
    if (value.kind === 'malformed') this.fail(rejects.invalid(name));
    return value.kind === 'text' ? value.text : undefined;
  }

  /** The first of several names that is present (aliases: `coin`/`asset`, `origClientOrderId`/`clientOrderId`). */
  textOf(names: readonly string[]): string | undefined {
    for (const name of names) {
      const text = this.text(name);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  requiredText(name: string, missing: () => SimReject = () => rejects.missing(name)): string {
    const text = this.text(name);
    if (text === undefined) this.fail(missing());
    return text ?? '';
  }

  /** A decimal amount; `min` 'positive' or 'nonNegative' refuses smaller values with -1130. */
  decimal(name: string, min: 'any' | 'nonNegative' | 'positive' = 'nonNegative'): Decimal | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    const value = parseDecimal(text.trim());
    const inRange = value !== undefined && (min === 'any' || (min === 'positive' ? value.gt(0) : value.gte(0)));
    if (!inRange) {
      this.fail(rejects.invalid(name));
      return undefined;
    }
    return value;
  }

  requiredDecimal(name: string, min: 'any' | 'nonNegative' | 'positive' = 'positive'): Decimal {
    if (!this.has(name)) {
      this.fail(rejects.missing(name));
      return dec(0);
    }
    return this.decimal(name, min) ?? dec(0);
  }

  /** A whole number (INT or epoch ms). */
  integer(name: string): number | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    const value = /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!Number.isSafeInteger(value)) {
      this.fail(rejects.invalid(name));
      return undefined;
    }
    return value;
  }

  /** A required whole number of at least `min` (leverage). */
  requiredInteger(name: string, min = Number.MIN_SAFE_INTEGER): number {
    if (!this.has(name)) {
      this.fail(rejects.missing(name));
      return 0;
    }
    const value = this.integer(name);
    if (value !== undefined && value < min) this.fail(rejects.invalid(name));
    return value ?? 0;
  }

  /** A 64-bit id (LONG): its digits, kept as text. */
  id(name: string): string | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text.trim())) {
      this.fail(rejects.invalid(name));
      return undefined;
    }
    return text.trim();
  }

  requiredId(name: string): string {
    if (!this.has(name)) {
      this.fail(rejects.missing(name));
      return '';
    }
    return this.id(name) ?? '';
  }

  /** One value of an enum, after mapping `aliases`; anything else is refused with `bad` (-1130 unless told). */
  choice<T extends string>(
    name: string,
    allowed: readonly T[],
    bad: () => SimReject = () => rejects.invalid(name),
    aliases: Readonly<Record<string, T>> = {},
  ): T | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    const mapped = Object.prototype.hasOwnProperty.call(aliases, text) ? aliases[text] : allowed.find((v) => v === text);
    if (mapped === undefined) this.fail(bad());
    return mapped;
  }

  requiredChoice<T extends string>(name: string, allowed: readonly [T, ...T[]], bad?: () => SimReject, aliases?: Readonly<Record<string, T>>): T {
    if (!this.has(name)) {
      this.fail(rejects.missing(name));
      return allowed[0];
    }
    return this.choice(name, allowed, bad, aliases) ?? allowed[0];
  }

  /** List size: default 20, 1 to 1000. */
  limit(name = 'limit'): number {
    const value = this.integer(name);
    if (value === undefined) return LIST_LIMIT.default;
    if (value < LIST_LIMIT.min || value > LIST_LIMIT.max) this.fail(rejects.invalid(name));
    return value;
  }
}
