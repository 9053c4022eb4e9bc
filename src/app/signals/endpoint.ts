import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { SignalsSettings } from '../../settings/daemon-config/signals.js';
import { AuthThrottle } from '../control/auth-throttle.js';
import type { SignalRoute } from '../control/server.js';
import type { SignalAuthMode } from './auth.js';
import { authenticateSignal, withinReplayWindow } from './auth.js';
import type { SignalBody } from './body.js';
import { bodyToken, parseSignalBody, toSignal } from './body.js';
import type { SignalDispatch, SignalOrder } from './dispatch.js';
import type { SignalAnswer, SignalJournal } from './journal.js';


/** Outcomes counted by the endpoint (`stratd_signals_total{outcome}`). */
export type SignalOutcome = 'placed' | 'pending' | 'denied' | 'failed' | 'nothing' | 'dry-run' | 'unauthorized' | 'stale' | 'invalid' | 'unknown-strategy' | 'repeated' | 'not-ready';

export interface SignalEndpointOptions {
  readonly settings: SignalsSettings;
  readonly secret: string;
  readonly clock: Clock;
  readonly journal: SignalJournal;
  readonly dispatch: SignalDispatch;
  readonly logger: Logger;
  readonly counted?: (outcome: SignalOutcome) => void;
}

/**
 * POST /signals: authenticate (signature, or the token where allowed; failures back off per address),
 * validate, refuse stale timestamps (replays), answer a repeated idempotency key from the journal, then
 * dry-run or trade through the signal strategy; the answer is journaled before it is sent.
 */
export function signalEndpoint(options: SignalEndpointOptions): SignalRoute {
  const { settings, clock, journal, dispatch, logger } = options;
  const throttle = new AuthThrottle({ clock });
  const inFlight = new Map<string, Promise<SignalAnswer>>();
  const count = (outcome: SignalOutcome): void => options.counted?.(outcome);

  return async ({ rawBody, caller, ...proof }) => {
    const wait = throttle.waitMs(caller.address);
    if (wait > 0) {
      count('unauthorized');
      return { status: 429, body: { error: `too many refused signals from ${caller.address}: retry in ${Math.ceil(wait / 1000)} s` }, headers: { 'retry-after': String(Math.ceil(wait / 1000)) } };
    }
    const token = bodyToken(rawBody);
    const auth = authenticateSignal({ ...proof, ...(token === undefined ? {} : { bodyToken: token }) }, rawBody, options.secret, settings.allowToken);
    if (!auth.ok) {
      throttle.failed(caller.address);
      logger.warn({ caller, code: auth.error.code }, 'signal refused: not authenticated');
      count('unauthorized');
      return { status: 401, body: { error: auth.error.message, code: auth.error.code } };
    }
    throttle.succeeded(caller.address);
    const parsed = parseSignalBody(rawBody);
    if (!parsed.ok) {
      count('invalid');
      return { status: 400, body: { error: parsed.error, code: 'INVALID_SIGNAL' } };
    }
    const body = parsed.value;
    const sentAt = auth.value.timestamp ?? body.timestamp;
    if (sentAt === undefined) {
      count('invalid');
      return { status: 400, body: { error: 'timestamp: required with a token (epoch milliseconds or an ISO time, e.g. TradingView {{timenow}})', code: 'INVALID_SIGNAL' } };
    }
    const now = clock.now();
    if (!withinReplayWindow(sentAt, now, settings.replayWindow)) {
      logger.warn({ caller, id: body.id, strategy: body.strategy, sentAt, now }, 'signal refused: timestamp outside the replay window');
      count('stale');
      return { status: 401, body: { error: `timestamp ${sentAt} is more than ${settings.replayWindow} ms from the daemon's clock (${now}): a replay, or a clock to fix`, code: 'STALE' } };
    }
    const seen = journal.find(body.strategy, body.id);
    if (seen !== undefined) {
      count('repeated');
      return { ...seen.answer, headers: { 'idempotent-replay': 'true' } };
    }
    const flight = `${body.strategy}\n${body.id}`;
    const running = inFlight.get(flight);
    if (running !== undefined) {
      count('repeated');
      return { ...(await running), headers: { 'idempotent-replay': 'true' } };
    }
    const handled = handle(body, sentAt, auth.value.mode, now);
    inFlight.set(flight, handled);
    try {
      return await handled;
    } finally {
      inFlight.delete(flight);
    }
  };

  async function handle(body: SignalBody, sentAt: number, mode: SignalAuthMode, receivedAt: number): Promise<SignalAnswer> {
    const strategy = dispatch.strategy(body.strategy);
    const signal = toSignal(body, sentAt);
    const dryRun = settings.dryRun || body.dryRun;
    let answer: SignalAnswer;
    let outcome: SignalOutcome;
    if (strategy === undefined) {
      outcome = 'unknown-strategy';
      answer = { status: 404, body: { id: body.id, strategy: body.strategy, outcome, error: `no strategy ${body.strategy} of module signal runs here` } };
    } else if (!strategy.symbols.includes(body.symbol)) {
      outcome = 'invalid';
      answer = { status: 422, body: { id: body.id, strategy: body.strategy, outcome, error: `strategy ${body.strategy} does not trade ${body.symbol} (its symbols: ${strategy.symbols.join(', ')})` } };
    } else if (dispatch.notReady(strategy.id) !== undefined) {
      // Not journaled: the sender may send the same key again once the strategy runs.
      count('not-ready');
      return { status: 503, body: { id: body.id, strategy: body.strategy, outcome: 'not-ready', error: `${dispatch.notReady(strategy.id) ?? ''}: send again once it runs` } };
    } else {
      const orders = dryRun ? dispatch.dryRun(strategy, signal) : await dispatch.submit(strategy, signal, settings.answerWithin);
      outcome = dryRun ? 'dry-run' : outcomeOf(orders);
      answer = { status: statusOf(outcome), body: { id: body.id, strategy: body.strategy, outcome, dryRun, orders } };
    }
    const { token: _token, ...kept } = body;
    journal.record({ strategy: body.strategy, key: body.id, receivedAt, mode, dryRun, signal: plain(kept), answer }, receivedAt);
    logger.info({ id: body.id, strategy: body.strategy, action: body.action, symbol: body.symbol, mode, dryRun, outcome }, 'signal');
    count(outcome);
    return answer;
  }
}

function outcomeOf(orders: readonly SignalOrder[]): SignalOutcome {
  if (orders.length === 0) return 'nothing';
  if (orders.some((o) => o.state === 'denied')) return 'denied';
  if (orders.some((o) => o.state === 'failed')) return 'failed';
  if (orders.some((o) => o.state === 'pending')) return 'pending';
  return 'placed';
}

function statusOf(outcome: SignalOutcome): number {
  switch (outcome) {
    case 'pending':
      return 202;
    case 'denied':
    case 'failed':
      return 422;
    default:
      return 200;
  }
}

/** The validated body as JSON (decimals as text). */
function plain(body: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'toFixed' in v ? String(v) : v]));
}
