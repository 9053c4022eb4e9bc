import type { Decimal } from '../../core/decimal.js';
import type { Fill } from '../../model/orders.js';
import type { Notification } from './notification.js';

/** The text of each notification: one title line, then details; plain text (no markup to escape). */

function message(event: Notification['event'], time: number, title: string, details: readonly string[], data: Notification['data']): Notification {
  return { event, time, title, text: [title, ...details].join('\n'), data };
}

export function fillMessage(time: number, fill: Fill): Notification {
  const title = `Fill: ${fill.side} ${fill.qty.toFixed()} ${fill.symbol} @ ${fill.price.toFixed()}`;
  const details = [
    `${fill.isMaker ? 'maker' : 'taker'}, fee ${fill.fee.toFixed()} ${fill.feeAsset}${fill.realizedPnl.isZero() ? '' : `, realized PnL ${fill.realizedPnl.toFixed()}`}`,
    `order ${fill.clientOrderId === '' ? fill.orderId : fill.clientOrderId} (${fill.positionSide}), trade ${fill.tradeId}`,
  ];
  return message('fill', time, title, details, {
    symbol: fill.symbol,
    side: fill.side,
    positionSide: fill.positionSide,
    price: fill.price.toFixed(),
    qty: fill.qty.toFixed(),
    fee: fill.fee.toFixed(),
    feeAsset: fill.feeAsset,
    maker: fill.isMaker,
    realizedPnl: fill.realizedPnl.toFixed(),
    orderId: fill.orderId,
    clientOrderId: fill.clientOrderId,
    tradeId: fill.tradeId,
  });
}

export function killSwitchMessage(time: number, engaged: boolean, reason: string, dayPnl: Decimal): Notification {
  const title = engaged ? `Kill switch ENGAGED: ${reason}` : 'Kill switch released: opening orders allowed again';
  const details = [engaged ? 'open orders are being cancelled; opening intents are denied until resume or the daily reset' : `after: ${reason}`, `PnL today: ${dayPnl.toFixed()}`];
  return message('killSwitch', time, title, details, { engaged, reason, dayPnl: dayPnl.toFixed() });
}

export function strategyStoppedMessage(time: number, strategyId: string, reason: string, failed: boolean): Notification {
  const title = failed ? `Strategy ${strategyId} FAILED` : `Strategy ${strategyId} stopped`;
  return message(failed ? 'strategyFailed' : 'strategyStopped', time, title, [reason], { strategy: strategyId, reason, failed });
}

export function daemonStartMessage(time: number, mode: string, strategies: readonly string[]): Notification {
  const title = `stratd started (${mode})`;
  return message('daemonStart', time, title, [strategies.length === 0 ? 'no strategies' : `strategies: ${strategies.join(', ')}`], { mode, strategies: strategies.join(',') });
}

export function daemonStopMessage(time: number, mode: string, cancelOpenOrders: boolean): Notification {
  const title = `stratd stopping (${mode})`;
  return message('daemonStop', time, title, [cancelOpenOrders ? 'open orders are being cancelled' : 'open orders stay on the exchange'], { mode, cancelOpenOrders });
}

export function reconnectStormMessage(time: number, count: number, withinMs: number, lastReason: string): Notification {
  const minutes = Math.round(withinMs / 60_000);
  const window = minutes >= 1 ? `${minutes} min` : `${Math.round(withinMs / 1000)} s`;
  const title = `User stream reconnect storm: ${count} disconnects within ${window}`;
  return message('reconnectStorm', time, title, [`last reason: ${lastReason}`], { disconnects: count, withinMs, lastReason });
}

/** What the daily summary adds up between two daily resets. */
export interface DayFigures {
  readonly since: number;
  readonly fills: number;
  readonly fillsBySymbol: ReadonlyMap<string, number>;
  readonly feesByAsset: ReadonlyMap<string, Decimal>;
  readonly realizedPnl: Decimal;
  readonly killSwitchEngagements: number;
  readonly strategyFailures: number;
  readonly disconnects: number;
}

export function dailySummaryMessage(time: number, day: DayFigures): Notification {
  const hours = Math.max(0, Math.round((time - day.since) / 3_600_000));
  const title = `Daily summary (last ${hours} h): ${day.fills} fills, realized PnL ${day.realizedPnl.toFixed()}`;
  const fees = [...day.feesByAsset].map(([asset, fee]) => `${fee.toFixed()} ${asset}`).join(', ');
  const bySymbol = [...day.fillsBySymbol].map(([symbol, n]) => `${symbol} ${n}`).join(', ');
  const details = [
    ...(bySymbol === '' ? [] : [`fills: ${bySymbol}`]),
    `fees: ${fees === '' ? 'none' : fees}`,
    `kill switch engaged ${day.killSwitchEngagements}x, strategy failures ${day.strategyFailures}, user-stream disconnects ${day.disconnects}`,
  ];
  return message('dailySummary', time, title, details, {
    since: new Date(day.since).toISOString(),
    fills: day.fills,
    realizedPnl: day.realizedPnl.toFixed(),
    fees,
    killSwitchEngagements: day.killSwitchEngagements,
    strategyFailures: day.strategyFailures,
    disconnects: day.disconnects,
  });
}
