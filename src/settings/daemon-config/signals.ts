import { z } from 'zod';
import { durationMs } from '../duration.js';

/**
 * `signals:` of the daemon's YAML: the external-signal endpoint (`POST /signals` on the health server).
 * Absent: no endpoint. Signals are signed with the daemon's signal secret (STRATD_SIGNAL_SECRET, else
 * `<stateDir>/signal.secret`, written at the first start); see the README's "External signals".
 */
export const signalsSchema = z.strictObject({
  /** How far a signal's timestamp may be from the daemon's clock, either way: older ones are replays. */
  replayWindow: durationMs({ min: 1000, max: 3_600_000 }).default(60_000),
  /**
   * Also accept the secret as a `token` in the body or the URL instead of a signature (TradingView
   * alerts cannot sign): weaker — whoever sees one alert can send others within the replay window.
   */
  allowToken: z.boolean().default(false),
  /** Every signal is only risk-checked, never sent (a signal can ask for a dry run itself too). */
  dryRun: z.boolean().default(false),
  /** How long a request waits for the fate of the signal's orders (risk, journal, exchange) before it is answered 202. */
  answerWithin: durationMs({ min: 100, max: 60_000 }).default(5_000),
  /** How long an idempotency key (and its answer) is kept. */
  keepKeysFor: durationMs({ min: 60_000, max: 90 * 86_400_000 }).default(7 * 86_400_000),
});

export type SignalsSettings = z.output<typeof signalsSchema>;
