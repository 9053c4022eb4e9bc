import type { Observable } from 'rxjs';
import { map } from 'rxjs';
import { EventBus } from '../../core/event-bus.js';
import type { TimeSource } from '../../core/clock.js';
import { stopwatchOf } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { MarketApi } from '../api/market.js';
import type { ChannelStats } from './channel-runner.js';
import { ChannelRunner, ReplyArrival } from './channel-runner.js';
import { sourceFor } from './channel-sources.js';
import { IndexTokens } from './index-tokens.js';
import type { PollChannel } from './poll-channel.js';
import type { SharedChannelState } from './shared-trackers.js';
import { channelKey, channelProblem } from './poll-channel.js';

export type { ChannelName, PollChannel } from './poll-channel.js';
export type { ChannelStats } from './channel-runner.js';

export interface MarketPollerOptions {
  /** The client's public market API (ExchangeClient.market): its governor accounts every request's weight. */
  readonly market: MarketApi;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly channels: readonly PollChannel[];
  /** Index token of a contract (exchangeInfo `indexToken`); without it the index channel reads exchangeInfo once. */
  readonly indexTokenOf?: (symbol: string) => string | undefined;
  /** How long past its close time a kline may still change before it is delivered closed anyway (default 2000). */
  readonly klineCloseGraceMs?: number;
  /** Trade dedupers and kline trackers shared with the market socket, when one carries some channels. */
  readonly shared?: SharedChannelState;
}

export interface PollerStats {
  readonly polls: number;
  readonly failures: number;
  readonly events: number;
  readonly channels: readonly ChannelStats[];
}

/** A polled market event and when the reply that carried it arrived (stopwatch ms: `TimeSource.stopwatch`). */
export interface ArrivedMarketEvent {
  readonly event: MarketEvent;
  readonly arrivedAt: number;
}

/**
 * Market data by REST polling: every configured symbol channel on its own interval, mapped to model
 * MarketEvents on `events$`. Polls of one channel never overlap; trades and klines are de-duplicated.
 */
export class MarketPoller {
  /** A plain bus: a polled event goes to the kernel without an rxjs Subject's dispatch. */
  private readonly arrived = new EventBus<ArrivedMarketEvent>();
  private readonly runners: readonly ChannelRunner[];
  /** Each event with its reply's arrival time, for latency figures (tick-to-order). */
  readonly arrivals$: Observable<ArrivedMarketEvent> = this.arrived.observable;
  readonly events$: Observable<MarketEvent> = this.arrived.observable.pipe(map((arrived) => arrived.event));

  /** Throws RangeError on a channel list that is wrong before anything is sent (bad interval, duplicate). */
  constructor(options: MarketPollerOptions) {
    const keys = new Set<string>();
    for (const channel of options.channels) {
      const problem = channelProblem(channel);
      if (problem !== undefined) throw new RangeError(problem);
      const key = channelKey(channel);
      if (keys.has(key)) throw new RangeError(`${key}: configured twice`);
      keys.add(key);
    }
    const deps = {
      market: options.market,
      clock: options.time.clock,
      indexTokens: new IndexTokens(options.market, options.indexTokenOf),
      klineCloseGraceMs: options.klineCloseGraceMs ?? 2000,
      ...(options.shared === undefined ? {} : { shared: options.shared }),
    };
    const logger = options.logger.child({ component: 'market-poller' });
    const stopwatch = stopwatchOf(options.time);
    this.runners = options.channels.map((channel) => {
      const arrival = new ReplyArrival(stopwatch);
      const source = sourceFor(channel, { ...deps, market: options.market.traced(arrival.trace) });
      return new ChannelRunner(channel, source, options.time, logger, (event, arrivedAt) => this.arrived.next({ event, arrivedAt }), arrival);
    });
  }

  /** `arrivals$` to a plain listener; the answer removes it. */
  listenArrivals(listener: (arrived: ArrivedMarketEvent) => void): () => void {
    return this.arrived.listen(listener);
  }

  /** Starts every channel, or those `only` picks (its first poll at once, on the scheduler). */
  start(only?: (key: string) => boolean): void {
    for (const runner of this.runners) if (only === undefined || only(runner.key)) runner.start();
  }

  /** Starts or stops one channel (the market socket's fallback); false for an unknown key. */
  setPolling(key: string, on: boolean): boolean {
    const runner = this.runners.find((r) => r.key === key);
    if (runner === undefined) return false;
    if (on) runner.start();
    else runner.stop();
    return true;
  }

  /** One poll of each channel `which` picks, now and outside their schedules; resolves when every reply is in and emitted. */
  async pollOnce(which: (key: string, channel: PollChannel) => boolean): Promise<void> {
    await Promise.all(this.runners.filter((r) => which(r.key, r.channel)).map((r) => r.pollOnce()));
  }

  /** Stops scheduling; replies still out are dropped. `events$` stays open for a later start(). */
  stop(): void {
    for (const runner of this.runners) runner.stop();
  }

  stats(): PollerStats {
    const channels = this.runners.map((r) => r.stats());
    return {
      polls: sum(channels, (c) => c.polls),
      failures: sum(channels, (c) => c.failures),
      events: sum(channels, (c) => c.events),
      channels,
    };
  }
}

function sum(channels: readonly ChannelStats[], pick: (c: ChannelStats) => number): number {
  return channels.reduce((total, c) => total + pick(c), 0);
}
