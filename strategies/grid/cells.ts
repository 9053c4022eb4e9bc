import { dec, Decimal } from 'stratd/strategy';
import type { PositionSide, Side } from 'stratd/strategy';

/** long cells buy at their lower level and sell at the upper one; short cells the other way round. */
export type CellDirection = 'long' | 'short' | 'off';

/** The one order a cell has at a time (resting, or on its way). */
export interface CellOrder {
  readonly key: string;
  readonly side: Side;
  readonly quantity: Decimal;
  /** Opens the cell's position (a buy of a long cell), else closes what the cell holds. */
  readonly opening: boolean;
}

/**
 * The span between two adjacent levels: one leg of the grid. It holds nothing and waits to open at its
 * entry level, or holds contracts and waits to close them one level further.
 */
export interface Cell {
  readonly index: number;
  readonly buyPrice: Decimal;
  readonly sellPrice: Decimal;
  direction: CellDirection;
  /** Contracts this cell bought (long) or sold (short) and has not closed yet. */
  held: Decimal;
  order: CellOrder | undefined;
  /** After a denial or a refusal the cell waits until then. */
  retryAt: number;
  /** Its closing leg just filled: it re-arms its opening leg before other cells take the room under maxPosition. */
  rearm: boolean;
}

export interface WantedOrder {
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly opening: boolean;
}

export function positionSideOf(direction: 'long' | 'short'): PositionSide {
  return direction === 'long' ? 'LONG' : 'SHORT';
}

/** Builds the cells between the levels; in neutral mode the start price decides each cell's direction. */
export function buildCells(levels: readonly Decimal[], mode: 'long' | 'short' | 'neutral', reference: Decimal): Cell[] {
  const cells: Cell[] = [];
  for (let i = 0; i + 1 < levels.length; i++) {
    const buyPrice = levels[i]!;
    const sellPrice = levels[i + 1]!;
    let direction: CellDirection = mode === 'neutral' ? 'off' : mode;
    if (mode === 'neutral') direction = sellPrice.lte(reference) ? 'long' : buyPrice.gte(reference) ? 'short' : 'off';
    cells.push({ index: i, buyPrice, sellPrice, direction, held: dec(0), order: undefined, retryAt: 0, rearm: false });
  }
  return cells;
}

/**
 * What a cell without an order wants now. Holding: the closing leg one level away, whatever the price
 * (a price already beyond it fills at once). Flat: the opening leg, only while it would rest (a long
 * cell's buy below the reference, a short cell's sell above it), or at once after a round trip.
 */
export function wantedOrder(cell: Cell, reference: Decimal, quantity: Decimal): WantedOrder | undefined {
  if (cell.direction === 'off') return undefined;
  const positionSide = positionSideOf(cell.direction);
  const long = cell.direction === 'long';
  if (cell.held.gt(0)) {
    return { side: long ? 'SELL' : 'BUY', positionSide, price: long ? cell.sellPrice : cell.buyPrice, quantity: cell.held, opening: false };
  }
  const entry = long ? cell.buyPrice : cell.sellPrice;
  // A cell whose closing leg just filled knows the price is a level away from its entry (the reference
  // may still be the book from before that fill).
  if (!cell.rearm && (long ? !entry.lt(reference) : !entry.gt(reference))) return undefined;
  return { side: long ? 'BUY' : 'SELL', positionSide, price: entry, quantity, opening: true };
}

/** A cell's order finished with `filled` contracts executed: what the cell holds now. */
export function settleOrder(cell: Cell, filled: Decimal): void {
  const order = cell.order;
  if (order === undefined) return;
  cell.held = order.opening ? cell.held.plus(filled) : Decimal.max(dec(0), cell.held.minus(filled));
  cell.rearm = !order.opening && cell.held.isZero();
  cell.order = undefined;
}

/** Contracts a direction holds or would hold once its resting opening orders fill. */
export function exposureOf(cells: readonly Cell[], direction: 'long' | 'short'): Decimal {
  let total = dec(0);
  for (const cell of cells) {
    if (cell.direction !== direction) continue;
    total = total.plus(cell.held);
    if (cell.order?.opening === true) total = total.plus(cell.order.quantity);
  }
  return total;
}

/** Contracts a direction's closing orders (resting or on their way) would close. */
export function closingOf(cells: readonly Cell[], direction: 'long' | 'short'): Decimal {
  let total = dec(0);
  for (const cell of cells) if (cell.direction === direction && cell.order?.opening === false) total = total.plus(cell.order.quantity);
  return total;
}

/** Which cell is armed first: re-arming ones, then the nearest to the reference. */
export function armingOrder(a: Cell, b: Cell, reference: Decimal): number {
  if (a.rearm !== b.rearm) return a.rearm ? -1 : 1;
  return distanceOf(a, reference).comparedTo(distanceOf(b, reference));
}

/** Distance of the cell's next order from the reference. */
export function distanceOf(cell: Cell, reference: Decimal): Decimal {
  const closing = cell.held.gt(0);
  const atSell = cell.direction === 'long' ? closing : !closing;
  return (atSell ? cell.sellPrice : cell.buyPrice).minus(reference).abs();
}
