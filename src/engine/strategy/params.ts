import { z } from 'zod';
import { parseDecimal } from '../../core/decimal.js';
import type { Decimal } from '../../core/decimal.js';

/** Param schema helpers for strategies: decimals from YAML numbers or strings, never floats. */
export function decimalParam(options: { readonly positive?: boolean; readonly min?: Decimal.Value; readonly max?: Decimal.Value } = {}): z.ZodType<Decimal, string | number> {
  return z.union([z.string(), z.number()]).transform((raw, ctx): Decimal => {
    const value = parseDecimal(String(raw));
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a decimal number, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    if (options.positive === true && !value.gt(0)) ctx.addIssue({ code: 'custom', message: `must be greater than 0, got ${value.toFixed()}` });
    if (options.min !== undefined && value.lt(options.min)) ctx.addIssue({ code: 'custom', message: `must be at least ${String(options.min)}` });
    if (options.max !== undefined && value.gt(options.max)) ctx.addIssue({ code: 'custom', message: `must be at most ${String(options.max)}` });
    return value;
  });
}
