import { Prng } from '../../market-stream/prng.js';
import type { FaultSettings } from '../../config/fault-settings.js';

export type FaultOutcome =
  | { readonly kind: 'answer' }
  /** Answer this 5xx status without executing. */
  | { readonly kind: 'http5xx'; readonly status: number }
  /** Neither execute nor answer. */
  | { readonly kind: 'timeout' }
  /** Execute, then never answer. */
  | { readonly kind: 'lost-reply' }
  /** Execute, then answer a corrupted body (see garble): the two draws pick the corruption. */
  | { readonly kind: 'garbage'; readonly kindDraw: number; readonly cutDraw: number };

export interface FaultPlan {
  /** Delay before the request reaches the exchange, and before its reply leaves. */
  readonly delayInMs: number;
  readonly delayOutMs: number;
  readonly outcome: FaultOutcome;
}

const SERVER_ERRORS = [500, 502, 503] as const;

/**
 * Seeded fault decisions, one plan per request. Each kind draws from its own named stream and every
 * request draws the same count, so a seed and the same request sequence reproduce the same faults.
 */
export class FaultDice {
  private readonly jitter: Prng;
  private readonly http5xx: Prng;
  private readonly http5xxStatus: Prng;
  private readonly timeout: Prng;
  private readonly lostReply: Prng;
  private readonly garbage: Prng;
  private readonly garbageShape: Prng;

  constructor(seed: number) {
    this.jitter = new Prng(seed, 'sim-server/latency-jitter');
    this.http5xx = new Prng(seed, 'sim-server/http5xx');
    this.http5xxStatus = new Prng(seed, 'sim-server/http5xx-status');
    this.timeout = new Prng(seed, 'sim-server/timeout');
    this.lostReply = new Prng(seed, 'sim-server/lost-reply');
    this.garbage = new Prng(seed, 'sim-server/garbage');
    this.garbageShape = new Prng(seed, 'sim-server/garbage-shape');
  }

  plan(faults: FaultSettings): FaultPlan {
    const jitterDraw = this.jitter.uniform();
    const http5xxDraw = this.http5xx.uniform();
    const statusDraw = this.http5xxStatus.uniform();
    const timeoutDraw = this.timeout.uniform();
    const lostDraw = this.lostReply.uniform();
    const garbageDraw = this.garbage.uniform();
    const kindDraw = this.garbageShape.uniform();
    const cutDraw = this.garbageShape.uniform();
    const total = faults.latencyMs + Math.floor(jitterDraw * (faults.latencyJitterMs + 1));
    const delayInMs = Math.floor(total / 2);
    return { delayInMs, delayOutMs: total - delayInMs, outcome: outcomeOf() };

    function outcomeOf(): FaultOutcome {
      if (http5xxDraw < faults.http5xxRate) {
        return { kind: 'http5xx', status: SERVER_ERRORS[Math.floor(statusDraw * SERVER_ERRORS.length)] ?? 500 };
      }
      if (timeoutDraw < faults.timeoutRate) return { kind: 'timeout' };
      if (lostDraw < faults.lostReplyRate) return { kind: 'lost-reply' };
      if (garbageDraw < faults.garbageRate) return { kind: 'garbage', kindDraw, cutDraw };
      return { kind: 'answer' };
    }
  }
}
