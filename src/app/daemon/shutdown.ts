import type { Logger } from '../../core/logger.js';

type StopSignal = 'SIGINT' | 'SIGTERM';

/** Where signals come from: `process`, or an EventEmitter in tests. */
export interface SignalSource {
  on(event: StopSignal, listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: StopSignal, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface SignalHandlerOptions {
  /** Stops the daemon cleanly (strategies, orders, journal, stream). */
  readonly onStop: () => Promise<void>;
  /** After this, the stop is abandoned and the process exits 1. */
  readonly timeoutMs: number;
  readonly exit: (code: number) => void;
  readonly logger: Logger;
  /** Default: process. */
  readonly signals?: SignalSource;
}

/** The conventional exit code of a process ended by a signal: 128 + its number. */
const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * First SIGTERM/SIGINT: runs onStop, then exit(0); exit(1) when it throws or outlasts timeoutMs. A second
 * signal meanwhile exits at once (130 or 143). Returns a disposer that removes the handlers.
 */
export function installSignalHandlers(options: SignalHandlerOptions): () => void {
  const signals = options.signals ?? process;
  let state: 'running' | 'stopping' | 'done' = 'running';
  let timer: NodeJS.Timeout | undefined;

  const finish = (code: number): void => {
    if (state === 'done') return;
    state = 'done';
    if (timer !== undefined) clearTimeout(timer);
    options.exit(code);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    const name: StopSignal = signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    if (state === 'done') return;
    if (state === 'stopping') {
      options.logger.warn({ signal: name }, 'second signal: exiting at once');
      finish(SIGNAL_EXIT[name]);
      return;
    }
    state = 'stopping';
    options.logger.info({ signal: name, timeoutMs: options.timeoutMs }, 'stopping');
    timer = setTimeout(() => {
      options.logger.error({ timeoutMs: options.timeoutMs }, 'clean stop took too long: exiting');
      finish(1);
    }, options.timeoutMs);
    let stopping: Promise<void>;
    try {
      stopping = options.onStop();
    } catch (error: unknown) {
      stopping = Promise.reject(error);
    }
    stopping.then(
      () => {
        if (state === 'stopping') options.logger.info({}, 'stopped cleanly');
        finish(0);
      },
      (error: unknown) => {
        if (state === 'stopping') options.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'clean stop failed');
        finish(1);
      },
    );
  };

  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);
  return () => {
    signals.off('SIGINT', onSignal);
    signals.off('SIGTERM', onSignal);
    if (timer !== undefined) clearTimeout(timer);
  };
}
