import { z } from 'zod';
import type { KeyValueStore } from '../../../model/journal.js';
import type { ProtectionTrip } from '../../../model/protections.js';
import { PROTECTION_ACTIONS } from '../../../model/protections.js';

const storedTrip = z.object({
  protection: z.string(),
  scopeKey: z.string(),
  action: z.enum(PROTECTION_ACTIONS as ['block-entries', 'reduce-only', 'flatten', 'pause']),
  reason: z.string(),
  since: z.number(),
  resumeAt: z.number().nullable(),
});

const keyOf = (protection: string, scopeKey: string): string => `${protection}|${scopeKey}`;

/**
 * The tripped protections, journaled: each trip is written when it trips and deleted when it resumes,
 * so a restart finds it tripped until its resume time. Trips of protections no longer configured, or
 * unreadable, are dropped at load.
 */
export class TripBook {
  private readonly trips = new Map<string, ProtectionTrip>();

  constructor(
    private readonly store: KeyValueStore | undefined,
    configured: ReadonlySet<string>,
  ) {
    if (store === undefined) return;
    for (const key of store.keys()) {
      const parsed = storedTrip.safeParse(store.get(key));
      if (!parsed.success || !configured.has(parsed.data.protection) || key !== keyOf(parsed.data.protection, parsed.data.scopeKey)) {
        store.delete(key);
        continue;
      }
      const { resumeAt, ...rest } = parsed.data;
      this.trips.set(key, { ...rest, resumeAt: resumeAt ?? undefined });
    }
  }

  get(protection: string, scopeKey: string): ProtectionTrip | undefined {
    return this.trips.get(keyOf(protection, scopeKey));
  }

  set(trip: ProtectionTrip): void {
    const key = keyOf(trip.protection, trip.scopeKey);
    this.trips.set(key, trip);
    this.store?.set(key, { ...trip, resumeAt: trip.resumeAt ?? null });
  }

  delete(protection: string, scopeKey: string): void {
    const key = keyOf(protection, scopeKey);
    if (!this.trips.delete(key)) return;
    this.store?.delete(key);
  }

  all(): readonly ProtectionTrip[] {
    return [...this.trips.values()];
  }
}
