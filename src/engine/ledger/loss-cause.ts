import type { PositionLossCause } from '../../model/ledger.js';

/**
 * What a foreign closing order was, from its client order id: the simulator (and, by the same
 * convention, the exchange's forced orders) names liquidation orders `liquidation-…` and
 * auto-deleverage ones `adl-…`. Anything else is not known to be forced.
 */
export function lossCauseOf(clientOrderId: string): PositionLossCause | undefined {
  const id = clientOrderId.toLowerCase();
  if (id.startsWith('liquidation') || id.startsWith('liq-') || id.startsWith('autoclose')) return 'liquidation';
  if (id.startsWith('adl')) return 'adl';
  return undefined;
}
