import { dec } from '../../core/decimal.js';
import type { Decimal } from '../../core/decimal.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { Fill } from '../../model/orders.js';
import type { NotifySettings } from '../../settings/daemon-config/notify.js';
import type { DayFigures } from './message-text.js';
import { dailySummaryMessage, fillMessage, killSwitchMessage, reconnectStormMessage, strategyStoppedMessage } from './message-text.js';
import type { Notification } from './notification.js';
import { positionLostMessage } from './position-lost-message.js';

/** Fills remembered to drop the same trade seen twice (stream, then a REST resync). */
const RECENT_TRADES = 2000;

/**
 * Which bus events become notifications: every new fill, the kill switch when it changes, a strategy
 * that stopped or failed, a storm of user-stream disconnects, and the day's figures when the daily
 * reset job has run. Stateful (last kill-switch state, recent trades, the disconnect window, the day).
 */
export class EventSelection {
  private killSwitchEngaged: boolean;
  private readonly recentTrades = new Set<string>();
  private disconnects: number[] = [];
  private day: MutableDay;
  private stopping = false;

  constructor(
    private readonly storm: NotifySettings['reconnectStorm'],
    startedAt: number,
    /** The kill switch at start (a halt may outlive a restart): only a change is news. */
    killSwitchEngaged: boolean,
  ) {
    this.day = newDay(startedAt);
    this.killSwitchEngaged = killSwitchEngaged;
  }

  /** From now on a strategy stopping is the daemon's shutdown, which its own message announces. */
  daemonStopping(): void {
    this.stopping = true;
  }

  select(event: BusEvent): readonly Notification[] {
    switch (event.type) {
      case 'account.fill':
        return this.fill(event.time, event.fill);
      case 'risk.killSwitch': {
        if (event.engaged === this.killSwitchEngaged) return [];
        this.killSwitchEngaged = event.engaged;
        if (event.engaged) this.day.killSwitchEngagements++;
        return [killSwitchMessage(event.time, event.engaged, event.reason, event.dayPnl)];
      }
      case 'strategy.stopped':
        if (event.failed) this.day.strategyFailures++;
        if (this.stopping && !event.failed) return [];
        return [strategyStoppedMessage(event.time, event.strategyId, event.reason, event.failed)];
      case 'stream.disconnected':
        return this.disconnected(event.time, event.reason);
      case 'ledger.positionLost':
        return [positionLostMessage(event)];
      case 'job.finished': {
        if (event.job !== 'dailyReset' || !event.ok) return [];
        const summary = dailySummaryMessage(event.time, this.day);
        this.day = newDay(event.time);
        return [summary];
      }
      default:
        return [];
    }
  }

  private fill(time: number, fill: Fill): readonly Notification[] {
    const key = `${fill.symbol}/${fill.tradeId}`;
    if (this.recentTrades.has(key)) return [];
    this.recentTrades.add(key);
    if (this.recentTrades.size > RECENT_TRADES) {
      const oldest = this.recentTrades.values().next();
      if (oldest.done !== true) this.recentTrades.delete(oldest.value);
    }
    const day = this.day;
    day.fills++;
    day.fillsBySymbol.set(fill.symbol, (day.fillsBySymbol.get(fill.symbol) ?? 0) + 1);
    if (!fill.fee.isZero()) day.feesByAsset.set(fill.feeAsset, (day.feesByAsset.get(fill.feeAsset) ?? dec(0)).add(fill.fee));
    day.realizedPnl = day.realizedPnl.add(fill.realizedPnl);
    return [fillMessage(time, fill)];
  }

  /** One message when `count` disconnects fall within the window; the next needs `count` more. */
  private disconnected(time: number, reason: string): readonly Notification[] {
    this.day.disconnects++;
    this.disconnects = [...this.disconnects.filter((t) => t > time - this.storm.withinMs), time];
    if (this.disconnects.length < this.storm.count) return [];
    const count = this.disconnects.length;
    this.disconnects = [];
    return [reconnectStormMessage(time, count, this.storm.withinMs, reason)];
  }
}

interface MutableDay extends DayFigures {
  fills: number;
  readonly fillsBySymbol: Map<string, number>;
  readonly feesByAsset: Map<string, Decimal>;
  realizedPnl: Decimal;
  killSwitchEngagements: number;
  strategyFailures: number;
  disconnects: number;
}

function newDay(since: number): MutableDay {
  return { since, fills: 0, fillsBySymbol: new Map(), feesByAsset: new Map(), realizedPnl: dec(0), killSwitchEngagements: 0, strategyFailures: 0, disconnects: 0 };
}
