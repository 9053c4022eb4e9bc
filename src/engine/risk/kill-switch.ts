import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { KillSwitchChanged } from '../../model/kernel-events.js';

/** An operator's override of today's daily-loss halt: who said why, and when. */
export interface DailyLossOverride {
  readonly reason: string;
  readonly at: number;
  /** The day's PnL when it was given (the loss baseline itself never moves). */
  readonly dayPnl: string;
}

export interface KillSwitchState {
  readonly engaged: boolean;
  readonly reason: string;
  /** When it was engaged; undefined while released. */
  readonly since: number | undefined;
  /** The daily loss limit holds it: only the daily reset or an override lifts it. */
  readonly dailyLoss: boolean;
  /** Today's override of the daily loss limit, if an operator gave one (cleared by the daily reset). */
  readonly override: DailyLossOverride | undefined;
}

/** A resume that was refused: the daily loss limit holds the switch and no override was given. */
export interface ResumeRefused {
  readonly code: 'DAILY_LOSS_HALT';
  readonly message: string;
  readonly retryable: false;
}

/** What a resume did: the change to publish (undefined when nothing changed) and whether it overrode the daily loss limit. */
export interface Resumed {
  readonly change: KillSwitchChanged | undefined;
  readonly overridden: boolean;
}

interface Hold {
  readonly reason: string;
  readonly since: number;
}

/** Today's PnL as the loss test reads it: compared first (no decimal made while it is above the limit), its value on a breach. */
export interface DayFigure {
  value(): Decimal;
  /** `value() > x`. */
  isAbove(x: Decimal): boolean;
}

/**
 * The kill switch: while engaged, opening intents are denied (the kernel cancels open orders when it
 * engages). Two holds: the operator's (`engage`, released by `resume`) and the daily loss limit's
 * (released by the new day, or by a resume with an explicit override). The loss is always measured
 * from the day's start: a resume never moves that baseline. After an override the limit does not
 * engage again until the next day (the operator took that day's risk, on the record).
 */
export class KillSwitch {
  private manual: Hold | undefined;
  private dailyLoss: Hold | undefined;
  private override: DailyLossOverride | undefined;
  /** Why it was last released ('' before it ever was). */
  private releasedReason = '';
  /**
   * The daily loss limit last asked with (by identity: a limit asked first replaces this zero), and it
   * negated. Decimals from the start, never undefined: the first asks run before V8 records feedback, so
   * code optimized on decimals here would deoptimize on each new run's first ask ("not a JavaScript object").
   */
  private lossLimit = dec(0);
  private negatedLossLimit = dec(0);

  get state(): KillSwitchState {
    const holds = [this.dailyLoss, this.manual].filter((h): h is Hold => h !== undefined);
    const first = holds[0];
    if (first === undefined) return { engaged: false, reason: this.releasedReason, since: undefined, dailyLoss: false, override: this.override };
    return {
      engaged: true,
      reason: holds.map((h) => h.reason).join('; '),
      since: Math.min(...holds.map((h) => h.since)),
      dailyLoss: this.dailyLoss !== undefined,
      override: this.override,
    };
  }

  /** Engages by hand; undefined when it already was engaged (the hand's hold is kept all the same). */
  engage(reason: string, time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    const was = this.engaged;
    this.manual ??= { reason, since: time };
    return was ? undefined : { type: 'risk.killSwitch', time, engaged: true, reason, dayPnl };
  }

  /**
   * Releases the operator's hold. The daily loss limit's hold stays (the refusal says so) unless
   * `override` gives the operator's reason: then it is lifted for the rest of the day.
   */
  resume(time: number, dayPnl: Decimal, override?: { readonly reason: string }): Result<Resumed, ResumeRefused> {
    const was = this.engaged;
    let overridden = false;
    if (this.dailyLoss !== undefined) {
      if (override === undefined) {
        // The operator's own hold goes (the next daily reset then releases the switch); the limit's stays.
        this.manual = undefined;
        return err({
          code: 'DAILY_LOSS_HALT',
          message: `the daily loss limit halted trading (${this.dailyLoss.reason}): it lasts until the daily reset, unless resumed with an override and a reason`,
          retryable: false,
        });
      }
      this.dailyLoss = undefined;
      this.override = { reason: override.reason, at: time, dayPnl: dayPnl.toFixed() };
      overridden = true;
    }
    this.manual = undefined;
    const reason = overridden ? `daily loss limit overridden by hand: ${override?.reason ?? ''}` : 'reset by hand';
    return ok({ change: was ? this.release(reason, time, dayPnl) : undefined, overridden });
  }

  /** The daily job: a new loss budget; releases the daily loss limit's hold and ends any override. */
  newDay(time: number, dayPnl: Decimal): KillSwitchChanged | undefined {
    const was = this.engaged;
    this.dailyLoss = undefined;
    this.override = undefined;
    return was && !this.engaged ? this.release('new trading day', time, dayPnl) : undefined;
  }

  /** Engages when today's loss (from the day's start) reaches `limit` (a positive quote amount), unless overridden today. */
  checkLoss(limit: Decimal | undefined, time: number, day: DayFigure): KillSwitchChanged | undefined {
    if (limit === undefined || this.dailyLoss !== undefined || this.override !== undefined) return undefined;
    // Asked on every event that moves the day's PnL (each mark price with a position open): the loss
    // −dayPnl stays below the limit while dayPnl is above −limit, a decimal made once per limit.
    if (this.lossLimit !== limit) {
      this.lossLimit = limit;
      this.negatedLossLimit = limit.neg();
    }
    if (day.isAbove(this.negatedLossLimit)) return undefined;
    const dayPnl = day.value();
    const loss = dayPnl.neg();
    const reason = `daily loss ${loss.toDecimalPlaces(8).toFixed()} reached the limit ${limit.toFixed()}`;
    const was = this.engaged;
    this.dailyLoss = { reason, since: time };
    return was ? undefined : { type: 'risk.killSwitch', time, engaged: true, reason, dayPnl };
  }

  /** Whether a hold is on (what `state.engaged` says, without building the state). */
  get engaged(): boolean {
    return this.manual !== undefined || this.dailyLoss !== undefined;
  }

  private release(reason: string, time: number, dayPnl: Decimal): KillSwitchChanged {
    this.manual = undefined;
    this.releasedReason = reason;
    return { type: 'risk.killSwitch', time, engaged: false, reason, dayPnl };
  }
}
