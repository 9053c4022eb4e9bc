import type { Clock } from '../../core/clock.js';

/**
 * At most one warning per subject per interval: a reply that keeps carrying a bad row (polled every
 * second) is told once a minute, not once a second. The next warning says how many it stood for.
 */
export class WarningThrottle {
  private readonly last = new Map<string, { readonly at: number; suppressed: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  /** Whether to warn about `subject` now, and how many warnings about it were held back since the last one. */
  admit(subject: string): { readonly suppressed: number } | undefined {
    const now = this.clock.now();
    const last = this.last.get(subject);
    if (last !== undefined && now - last.at < this.intervalMs) {
      last.suppressed += 1;
      return undefined;
    }
    this.last.set(subject, { at: now, suppressed: 0 });
    return { suppressed: last?.suppressed ?? 0 };
  }
}
