import type { Decimal } from '../../../core/decimal.js';
import type { PositionSide } from '../../../model/instrument.js';
import type { ProtectionSpec } from '../../../model/protections.js';
import type { ScopeView } from './scope-view.js';

/** An opening order about to be approved, as the caps see it. */
export interface Entry {
  readonly symbol: string;
  readonly positionSide: PositionSide;
  /** Quote notional the order adds to its side (positive); undefined when no price of the symbol is known. */
  readonly notional: Decimal | undefined;
}

/** A closing fill of the scope: `pnl` is its realized PnL after fees. */
export interface Exit {
  readonly orderId: string;
  readonly time: number;
  readonly pnl: Decimal;
}

/**
 * One protection: a condition watched per scope. Each method answers why it must trip (or deny), or
 * undefined. State it keeps is per scope key ('global' or a strategy id).
 */
export interface Protection {
  readonly spec: ProtectionSpec;
  /** Whether the condition is a standing one (caps): a trip without a resume time ends when it clears. */
  readonly standing: boolean;
  /** After account or market changes: the condition holds now. */
  breach(view: ScopeView): string | undefined;
  /** Before an opening order: it would breach (a denial's message). */
  admit(view: ScopeView, entry: Entry): string | undefined;
  /** An exit of the scope. */
  onExit(scopeKey: string, exit: Exit): string | undefined;
  /** The scope's trip ended: start over (a new peak, an empty streak). */
  reset(view: ScopeView): void;
}

/** Defaults for protections that do not use every hook. */
export abstract class BaseProtection<S extends ProtectionSpec> implements Protection {
  readonly standing: boolean = false;

  constructor(readonly spec: S) {}

  breach(_view: ScopeView): string | undefined {
    return undefined;
  }

  admit(_view: ScopeView, _entry: Entry): string | undefined {
    return undefined;
  }

  onExit(_scopeKey: string, _exit: Exit): string | undefined {
    return undefined;
  }

  reset(_view: ScopeView): void {
    // nothing kept
  }
}

export function pct(value: Decimal): string {
  return value.toDecimalPlaces(4).toFixed();
}
