import type { Subscription } from 'rxjs';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { UserStreamEvent, UserStreamSessionOptions } from '../../../src/venue/stream/user-stream-session.js';
import { UserStreamSession } from '../../../src/venue/stream/user-stream-session.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { waitFor } from '../../support/wait-for.js';

/** A session on the simulator's trader account, recording every event it emits. */
export class RecordedSession {
  readonly session: UserStreamSession;
  /** The client the session calls for its listen key: its requests in flight are the keepalives. */
  readonly client: ExchangeClient;
  readonly events: UserStreamEvent[] = [];
  private readonly subscription: Subscription;

  constructor(s: RunningSim, extra: Partial<UserStreamSessionOptions> = {}) {
    const multipliers = new Map(s.sim.engine.instruments.map((i) => [i.symbol, dec(i.contractMultiplier)]));
    this.client = s.client('trader');
    this.session = new UserStreamSession({
      userStream: this.client.userStream,
      streamUrl: s.sim.address.streamUrl,
      time: s.clock,
      logger: silentLogger,
      // Jitter at the middle of its range: every backoff delay is exactly initialMs × 2^n.
      random: () => 0.5,
      contractMultiplier: (symbol) => multipliers.get(symbol),
      ...extra,
    });
    this.subscription = this.session.events$.subscribe((event) => this.events.push(event));
  }

  of<T extends UserStreamEvent['type']>(type: T): Array<Extract<UserStreamEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<UserStreamEvent, { type: T }> => e.type === type);
  }

  epochs(): number[] {
    return this.of('stream.connected').map((e) => e.epoch);
  }

  async stop(): Promise<void> {
    await this.session.stop();
    this.subscription.unsubscribe();
  }
}

export { waitFor };

/**
 * Advances virtual time in heartbeat steps, letting each pong arrive before the next step (a pong comes
 * over real I/O at the virtual time its ping went out), and any listen-key keepalive a step started finish:
 * on a loaded machine a keepalive still on the wire while virtual minutes pass would let the key expire.
 */
export async function runWithHeartbeat(s: RunningSim, r: RecordedSession, totalMs: number, stepMs = 20_000): Promise<void> {
  const end = s.clock.now() + totalMs;
  while (s.clock.now() + stepMs <= end) {
    s.clock.advanceBy(stepMs);
    const at = s.clock.now();
    await waitFor(() => (r.session.lastPongAt ?? 0) >= at || r.session.state !== 'open', `a pong at ${at}`);
    await waitFor(() => r.client.rest.inFlight === 0, `the keepalives sent by ${at}`);
  }
  s.clock.advanceTo(end);
}

/**
 * Advances virtual time step by step, letting each (re)connect attempt finish over real I/O, until `done`
 * holds; fails after `maxSteps`.
 */
export async function advanceUntil(s: RunningSim, r: RecordedSession, done: () => boolean, what: string, stepMs = 500, maxSteps = 400): Promise<void> {
  for (let step = 0; !done(); step += 1) {
    if (step >= maxSteps) throw new Error(`no ${what} after ${maxSteps} steps of ${stepMs} ms`);
    s.clock.advanceBy(stepMs);
    await waitFor(() => r.session.state !== 'connecting', 'the connect attempt to finish');
  }
}
