import { createHash } from 'node:crypto';
import type { FillRecord } from './types.js';

/**
 * The fields of a fill that another run of the same orders on the same market must reproduce: no
 * engine-assigned ids (order, trade), which depend on whatever else the exchange did meanwhile.
 */
export function fillKey(fill: FillRecord): string {
  return [
    fill.time,
    fill.strategy,
    fill.symbol,
    fill.clientOrderId,
    fill.side,
    fill.positionSide,
    fill.price.toFixed(),
    fill.qty.toFixed(),
    fill.fee.toFixed(),
    fill.isMaker ? 'maker' : 'taker',
    fill.realizedPnl.toFixed(),
  ].join(',');
}

/** sha256 (hex) of the fill sequence: one `fillKey` per line, in execution order. */
export function fillSequenceHash(fills: readonly FillRecord[]): string {
  const hash = createHash('sha256');
  for (const fill of fills) hash.update(`${fillKey(fill)}\n`);
  return hash.digest('hex');
}
