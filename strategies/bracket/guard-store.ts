import { z } from 'zod';
import { parseDecimal } from 'stratd/strategy';
import type { Decimal, KeyValueStore, PositionSide } from 'stratd/strategy';
import type { StopKind } from './stop-targets.js';

/** What survives a restart: per guarded position, the keys of its stops and the best price seen. */
const STATE_KEY = 'guards';

const storedGuard = z.object({
  symbol: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  stopLoss: z.string().optional(),
  takeProfit: z.string().optional(),
  best: z.string().optional(),
});

export interface SavedGuard {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly keys: Partial<Record<StopKind, string>>;
  readonly best: Decimal | undefined;
}

export function loadGuards(store: KeyValueStore): SavedGuard[] {
  const parsed = z.array(storedGuard).safeParse(store.get(STATE_KEY));
  if (!parsed.success) return [];
  return parsed.data.map((g) => ({
    symbol: g.symbol,
    side: g.side,
    keys: { ...(g.stopLoss === undefined ? {} : { STOP_LOSS: g.stopLoss }), ...(g.takeProfit === undefined ? {} : { TAKE_PROFIT: g.takeProfit }) },
    best: g.best === undefined ? undefined : parseDecimal(g.best),
  }));
}

export function saveGuards(store: KeyValueStore, guards: readonly SavedGuard[]): void {
  store.set(
    STATE_KEY,
    guards.map((g) => ({
      symbol: g.symbol,
      side: g.side,
      ...(g.keys.STOP_LOSS === undefined ? {} : { stopLoss: g.keys.STOP_LOSS }),
      ...(g.keys.TAKE_PROFIT === undefined ? {} : { takeProfit: g.keys.TAKE_PROFIT }),
      ...(g.best === undefined ? {} : { best: g.best.toFixed() }),
    })),
  );
}

/** Keys never repeat, across restarts too. */
export function nextKey(store: KeyValueStore, prefix: string): string {
  const next = Number(store.get('seq') ?? 0) + 1;
  store.set('seq', next);
  return `${prefix}${next}`;
}
