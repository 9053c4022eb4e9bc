import { Decimal } from '../core/decimal.js';
import type { ProtectionSpec } from '../model/protections.js';

/**
 * Protections back as written in the config (decimals as text, durations as `…ms`): what `risk.protections`
 * reads into the same specs again. Sweeps send the global risk to their worker threads this way.
 */
export function protectionsToInput(specs: readonly ProtectionSpec[]): Array<Record<string, unknown>> {
  return specs.map((spec) => {
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(spec) as Array<[string, unknown]>) {
      if (key === 'resumeAfterMs') input['resumeAfter'] = `${String(value)}ms`;
      else if (key === 'windowMs') input['window'] = `${String(value)}ms`;
      else input[key] = value instanceof Decimal ? value.toFixed() : value;
    }
    return input;
  });
}
