import type { Decimal } from '../../core/decimal.js';
import { dec, parseDecimal } from '../../core/decimal.js';
import type { SimReject } from '../engine/types.js';
import { followerRejects } from './follower/rejects.js';
import { leaderIdOf } from './leader/id.js';

/**
 * Reads the fields of a follower PUT body (JSON). Decimals arrive as strings (the docs, the project's
 * client) or numbers; integers as numbers or their text; 64-bit ids as bare numbers, or as digit
 * strings when the server's lossless parser kept them exact. The first problem wins: absent, null,
 * empty or wrongly typed is -1102; a well-typed leader id below 1 is -1130.
 */
export class JsonBodyReader {
  private problem: SimReject | undefined;
  private readonly body: Readonly<Record<string, unknown>>;

  constructor(json: unknown) {
    this.body = isRecord(json) ? json : {};
  }

  get failure(): SimReject | undefined {
    return this.problem;
  }

  private fail(reject: SimReject): void {
    this.problem ??= reject;
  }

  private raw(name: string): unknown {
    const v = this.body[name];
    return v === null || v === '' ? undefined : v;
  }

  requiredLeaderId(name: string): string {
    const v = this.raw(name);
    const text = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' && /^-?\d+$/.test(v) ? v : undefined;
    if (text === undefined) {
      this.fail(followerRejects.missing(name));
      return '';
    }
    const id = leaderIdOf(text);
    if (id === undefined) this.fail(followerRejects.invalid(name));
    return id ?? '';
  }

  requiredDecimal(name: string): Decimal {
    const v = this.optionalDecimal(name);
    if (v === undefined) this.fail(followerRejects.missing(name));
    return v ?? ZERO;
  }

  optionalDecimal(name: string): Decimal | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const parsed = typeof v === 'string' ? parseDecimal(v) : typeof v === 'number' && Number.isFinite(v) ? parseDecimal(String(v)) : undefined;
    if (parsed === undefined) this.fail(followerRejects.missing(name));
    return parsed;
  }

  requiredInteger(name: string): number {
    const v = this.optionalInteger(name);
    if (v === undefined) this.fail(followerRejects.missing(name));
    return v ?? 0;
  }

  optionalInteger(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : undefined;
    if (n === undefined || !Number.isSafeInteger(n)) {
      this.fail(followerRejects.missing(name));
      return undefined;
    }
    return n;
  }

  /** A string field; blank text is kept (its meaning is a rule's business), only absence and null fail. */
  requiredString(name: string): string {
    const v = this.body[name];
    if (typeof v !== 'string') {
      this.fail(followerRejects.missing(name));
      return '';
    }
    return v;
  }

  requiredBoolean(name: string): boolean {
    const v = this.raw(name);
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    this.fail(followerRejects.missing(name));
    return false;
  }
}

const ZERO = dec(0);

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
