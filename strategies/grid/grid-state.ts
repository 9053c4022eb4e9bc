import { z } from 'zod';
import { dec } from 'stratd/strategy';
import type { KeyValueStore } from 'stratd/strategy';
import type { Cell } from './cells.js';
import type { GridParams } from './params.js';

/** What survives a restart: each cell's direction, holding and order key, the key sequence, whether stopped. */
const STATE_KEY = 'grid';

const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);

const storedCell = z.object({
  direction: z.enum(['long', 'short', 'off']),
  held: decimalText,
  order: z.object({ key: z.string(), side: z.enum(['BUY', 'SELL']), quantity: decimalText, opening: z.boolean() }).optional(),
});

const storedGrid = z.object({
  version: z.literal(1),
  fingerprint: z.string(),
  seq: z.number().int().nonnegative(),
  stopped: z.boolean(),
  cells: z.array(storedCell),
});

export interface SavedGrid {
  readonly fingerprint: string;
  readonly seq: number;
  readonly stopped: boolean;
  readonly cells: ReadonlyArray<z.output<typeof storedCell>>;
}

/** The grid's shape: a saved state of another shape belongs to another grid. */
export function fingerprintOf(params: GridParams): string {
  return [params.lower.toFixed(), params.upper.toFixed(), params.levels, params.spacing, params.mode].join('|');
}

/** The saved state, or undefined when there is none or it is unreadable. */
export function loadGrid(store: KeyValueStore): SavedGrid | undefined {
  const parsed = storedGrid.safeParse(store.get(STATE_KEY));
  return parsed.success ? parsed.data : undefined;
}

export function saveGrid(store: KeyValueStore, state: { fingerprint: string; seq: number; stopped: boolean; cells: readonly Cell[] }): void {
  const cells = state.cells.map((c) => ({
    direction: c.direction,
    held: c.held.toFixed(),
    ...(c.order === undefined ? {} : { order: { key: c.order.key, side: c.order.side, quantity: c.order.quantity.toFixed(), opening: c.order.opening } }),
  }));
  store.set(STATE_KEY, { version: 1, fingerprint: state.fingerprint, seq: state.seq, stopped: state.stopped, cells });
}

/** Puts saved cells onto freshly built ones (same levels: the fingerprint matched). */
export function restoreCells(cells: Cell[], saved: SavedGrid): void {
  for (const cell of cells) {
    const stored = saved.cells[cell.index];
    if (stored === undefined) continue;
    cell.direction = stored.direction;
    cell.held = dec(stored.held);
    cell.order = stored.order === undefined ? undefined : { key: stored.order.key, side: stored.order.side, quantity: dec(stored.order.quantity), opening: stored.order.opening };
  }
}
