import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import type { Denial, DenialCode } from '../../model/denials.js';

/** A risk check's outcome: the value, or why the intent is refused. */
export type Checked<T> = Result<T, Denial>;

export function denial(code: DenialCode, message: string): Denial {
  return { code, message };
}

export function deny(code: DenialCode, message: string): { readonly ok: false; readonly error: Denial } {
  return err(denial(code, message));
}
