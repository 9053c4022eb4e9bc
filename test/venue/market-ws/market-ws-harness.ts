import type { Subscription } from 'rxjs';
import { silentLogger } from '../../../src/core/logger.js';
import type { MarketEvent } from '../../../src/model/market-events.js';
import type { MarketWsSessionOptions } from '../../../src/venue/market-ws/session.js';
import { MarketWsSession } from '../../../src/venue/market-ws/session.js';
import type { WsChannel } from '../../../src/venue/market-ws/ws-channels.js';
import { wsChannelFor } from '../../../src/venue/market-ws/ws-channels.js';
import type { PollChannel } from '../../../src/venue/sources/poll-channel.js';
import { SharedTrackers } from '../../../src/venue/sources/shared-trackers.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';

/** A market socket session on the simulator, on its virtual clock, recording every event it emits. */
export class RecordedMarketSession {
  readonly session: MarketWsSession;
  readonly channels: WsChannel[];
  readonly events: MarketEvent[] = [];
  private readonly subscription: Subscription;

  constructor(s: RunningSim, polls: readonly PollChannel[], extra: Partial<MarketWsSessionOptions> = {}) {
    const shared = new SharedTrackers();
    const tokens = new Map(s.sim.engine.instruments.map((i) => [i.symbol, s.sim.marketData.indexTokenFor(i.symbol)]));
    this.channels = polls.flatMap((p) => wsChannelFor(p, { clock: s.clock, shared, indexTokenOf: (symbol) => tokens.get(symbol) }) ?? []);
    this.session = new MarketWsSession({ streamUrl: s.sim.address.streamUrl, time: s.clock, logger: silentLogger, channels: this.channels, random: () => 0.5, ...extra });
    this.subscription = this.session.events$.subscribe(({ event }) => this.events.push(event));
  }

  of<T extends MarketEvent['type']>(type: T): Array<Extract<MarketEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<MarketEvent, { type: T }> => e.type === type);
  }

  stop(): void {
    this.session.stop();
    this.subscription.unsubscribe();
  }
}

/** Real time passes (loopback I/O) until `done` holds or `limitMs` ran out; says which. */
export async function settle(done: () => boolean, limitMs = 2000): Promise<boolean> {
  const giveUpAt = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}
