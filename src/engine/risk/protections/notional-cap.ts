import type { Decimal } from '../../../core/decimal.js';
import type { NotionalCapSpec } from '../../../model/protections.js';
import type { Entry } from './protection.js';
import { BaseProtection } from './protection.js';
import type { ScopeView } from './scope-view.js';

const text = (d: Decimal): string => d.toDecimalPlaces(8).toFixed();

/** Gross (sum of |notional|) and net (|long − short|) notional of the scope's positions at mark. */
export class NotionalCap extends BaseProtection<NotionalCapSpec> {
  override readonly standing = true;

  override breach(view: ScopeView): string | undefined {
    const gross = view.gross();
    const net = view.net().abs();
    if (this.spec.maxGross !== undefined && gross.gt(this.spec.maxGross)) return `gross notional ${text(gross)} is above ${this.spec.maxGross.toFixed()}`;
    if (this.spec.maxNet !== undefined && net.gt(this.spec.maxNet)) return `net notional ${text(net)} is above ${this.spec.maxNet.toFixed()}`;
    return undefined;
  }

  override admit(view: ScopeView, entry: Entry): string | undefined {
    if (entry.notional === undefined) return `no price of ${entry.symbol} known to value the entry`;
    const gross = view.gross().add(entry.notional);
    if (this.spec.maxGross !== undefined && gross.gt(this.spec.maxGross)) return `this entry would bring gross notional to ${text(gross)} (max ${this.spec.maxGross.toFixed()})`;
    if (this.spec.maxNet === undefined) return undefined;
    const before = view.net();
    const after = entry.positionSide === 'LONG' ? before.add(entry.notional) : before.sub(entry.notional);
    // An entry that brings the net exposure back towards zero is never refused.
    if (after.abs().gt(this.spec.maxNet) && after.abs().gt(before.abs())) return `this entry would bring net notional to ${text(after.abs())} (max ${this.spec.maxNet.toFixed()})`;
    return undefined;
  }
}
