import { ok } from '../../core/result.js';
import type { Denial } from '../../model/denials.js';
import type { Instrument } from '../../model/instrument.js';
import { statusAllows } from '../../model/instrument.js';
import type { Checked } from './denial.js';
import { denial, deny } from './denial.js';
import type { RiskContext } from './risk-context.js';

/** The instrument of a symbol the strategy may trade. */
export function tradableInstrument(ctx: RiskContext, symbol: string): Checked<Instrument> {
  const instrument = ctx.cache.instrument(symbol);
  if (instrument === undefined) {
    if (ctx.cache.instruments().length === 0) return deny('NOT_READY', 'instruments are not loaded yet');
    return deny('UNKNOWN_SYMBOL', `unknown symbol ${symbol}`);
  }
  if (!ctx.strategy.symbols.includes(symbol)) return deny('NOT_ALLOWED_SYMBOL', `${symbol} is not among the symbols of ${ctx.label}`);
  return ok(instrument);
}

/** Whether an order of this direction may go at all: halted strategy, unwritable journal, kill switch, symbol status. */
export function checkGate(ctx: RiskContext, instrument: Instrument, opening: boolean): Denial | undefined {
  if (opening && ctx.halted) return denial('STRATEGY_HALTED', `${ctx.label} is halted: only closing orders and cancels go through`);
  if (opening && ctx.journalUnavailable !== undefined) return denial('JOURNAL_UNAVAILABLE', `${ctx.journalUnavailable}: only closing orders and cancels go through`);
  if (opening && ctx.killSwitchEngaged) return denial('KILL_SWITCH', `kill switch engaged (${ctx.killSwitch.reason}): only closing orders and cancels go through`);
  const protection = opening ? ctx.protectionRefusal() : undefined;
  if (protection !== undefined) return denial('PROTECTION', protection);
  if (!statusAllows(instrument.status, opening)) {
    return denial('SYMBOL_STATUS', `${instrument.symbol} is ${instrument.status}: no ${opening ? 'opening' : 'closing'} orders`);
  }
  return undefined;
}
