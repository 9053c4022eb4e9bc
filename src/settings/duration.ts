import { z } from 'zod';
import { formatDuration, parseDuration, UNIT_MS } from './duration-text.js';

export { formatDuration, parseDuration } from './duration-text.js';

/** A config field holding a duration as text; its output is milliseconds within [min, max]. */
export function durationMs(bounds: { readonly min?: number; readonly max?: number } = {}): z.ZodType<number, string> {
  const min = bounds.min ?? 1;
  const max = bounds.max ?? 7 * UNIT_MS.d;
  return z.string({ error: 'a duration such as 500ms, 20s, 30m or 1h' }).transform((text, ctx): number => {
    const ms = parseDuration(text);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration: write a number and a unit, such as 500ms, 20s, 30m or 1h` });
      return z.NEVER;
    }
    if (ms < min || ms > max) {
      ctx.addIssue({ code: 'custom', message: `${text} is out of range: from ${formatDuration(min)} to ${formatDuration(max)}` });
      return z.NEVER;
    }
    return ms;
  });
}

const OFF_DURATIONS = new WeakSet<object>();

/** Whether a schema is one of durationOrOffMs's (the published JSON Schema describes them). */
export function isDurationOrOff(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && OFF_DURATIONS.has(schema);
}

/** A duration as durationMs reads it, or `0` / `off` for none (output 0). */
export function durationOrOffMs(bounds: { readonly min?: number; readonly max?: number } = {}): z.ZodType<number, string | number> {
  const duration = durationMs(bounds);
  const schema = z.union([z.string(), z.number()], { error: 'a duration such as 30s, 1m or 1h, or 0 / off for none' }).transform((value, ctx): number => {
    if (value === 0 || value === 'off' || value === '0') return 0;
    if (typeof value === 'number') {
      ctx.addIssue({ code: 'custom', message: `${value} has no unit: write a duration such as 30s, 1m or 1h, or 0 / off for none` });
      return z.NEVER;
    }
    const parsed = duration.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });
  OFF_DURATIONS.add(schema);
  return schema;
}
