import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { KillSwitchChanged } from '../../model/kernel-events.js';

export interface KillSwitchState {
  readonly engaged: boolean;
  readonly reason: string;
  /** When it was engaged; undefined while released. */
  readonly since: number | undefined;
}

/**
 * The kill switch: while engaged, opening intents are denied (the kernel cancels open orders when it
 * engages). Engaged by the daily loss limit or by hand; a new day releases only what the daily loss
 * engaged, `reset` releases either.
 */
export class KillSwitch {
  private current: KillSwitchState = { engaged: false, reason: '', since: undefined };
  private byDailyLoss = false;
  /** The day PnL the daily loss is measured from: 0 from the day's start, lower after a manual reset below it. */
  private lossAnchor = dec(0);

  get state(): KillSwitchState {
    return this.current;
  }

  /** Engages by hand (or by the daily loss); undefined when it already was engaged. */
  engage(reason: string, time: number, dayPnl: Decimal, byDailyLoss = false): KillSwitchChanged | undefined {
    if (this.current.engaged) {
      // A hand on an engaged switch keeps it engaged past the new day.
      if (!byDailyLoss) this.byDailyLoss = false;
      return undefined;
    }
    this.current = { engaged: true, reason, since: time };
    this.byDailyLoss = byDailyLoss;
    return { type: 'risk.killSwitch', time, engaged: true, reason, dayPnl };
  }

  /** Manual resume: releases, and the daily loss limit counts afresh from today's PnL so far. */
  reset(time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    this.lossAnchor = dayPnl.lt(0) ? dayPnl : dec(0);
    return this.release('reset by hand', time, dayPnl);
  }

  /** The daily job: a new loss budget; releases the switch if the daily loss engaged it. */
  newDay(time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    this.lossAnchor = dec(0);
    return this.byDailyLoss ? this.release('new trading day', time, dayPnl) : undefined;
  }

  /** Engages when today's loss (from the anchor) reaches `limit` (a positive quote amount). */
  checkLoss(limit: Decimal | undefined, time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    if (limit === undefined || this.current.engaged) return undefined;
    const loss = this.lossAnchor.sub(dayPnl);
    if (loss.lt(limit)) return undefined;
    return this.engage(`daily loss ${loss.toDecimalPlaces(8).toFixed()} reached the limit ${limit.toFixed()}`, time, dayPnl, true);
  }

  private release(reason: string, time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    if (!this.current.engaged) return undefined;
    this.current = { engaged: false, reason, since: undefined };
    this.byDailyLoss = false;
    return { type: 'risk.killSwitch', time, engaged: false, reason, dayPnl };
  }
}
