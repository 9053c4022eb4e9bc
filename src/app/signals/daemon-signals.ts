import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import type { Kernel } from '../../engine/kernel.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { KeyValueStore } from '../../model/journal.js';
import type { SignalsSettings } from '../../settings/daemon-config/signals.js';
import type { Environment } from '../../settings/secrets.js';
import type { SignalRoute } from '../control/server.js';
import { SignalDispatch } from './dispatch.js';
import { signalEndpoint } from './endpoint.js';
import { SIGNAL_JOURNAL_NAMESPACE, SignalJournal } from './journal.js';
import { ensureSignalSecret } from './secret.js';

export interface DaemonSignalsOptions {
  readonly settings: SignalsSettings | undefined;
  readonly stateDir: string;
  readonly env: Environment;
  readonly keyValue: (namespace: string) => KeyValueStore;
  readonly kernel: Kernel;
  readonly strategies: readonly StrategyInstance[];
  readonly time: TimeSource;
  readonly registry: Registry;
  readonly logger: Logger;
}

/** The daemon's POST /signals route when `signals:` is configured (undefined otherwise), its secret ensured. */
export interface DaemonSignals {
  readonly route: SignalRoute;
  readonly journal: SignalJournal;
}

export function daemonSignals(options: DaemonSignalsOptions): Result<DaemonSignals | undefined, string> {
  const { settings } = options;
  if (settings === undefined) return ok(undefined);
  const secret = ensureSignalSecret(options.stateDir, options.env);
  if (!secret.ok) return secret;
  const counter = new Counter({ name: 'stratd_signals_total', help: 'External signals by outcome (placed, pending, denied, failed, nothing, dry-run, unauthorized, stale, invalid, unknown-strategy, repeated, not-ready)', labelNames: ['outcome'], registers: [options.registry] });
  const journal = new SignalJournal(options.keyValue(SIGNAL_JOURNAL_NAMESPACE), settings.keepKeysFor);
  const route = signalEndpoint({
      settings,
      secret: secret.value,
      clock: options.time.clock,
      journal,
      dispatch: new SignalDispatch(options.kernel, options.strategies, options.time),
      logger: options.logger,
      counted: (outcome) => counter.inc({ outcome }),
    });
  return ok({ route, journal });
}
