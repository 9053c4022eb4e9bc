import type { TimeSource } from '../../core/clock.js';
import { MAX_TIME_SCALE, ScaledTime } from '../../core/scaled-time.js';
import { systemTime } from '../../core/system-time.js';
import { crashPointsFromEnv } from '../daemon/crash-points.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { Daemon } from '../daemon/daemon.js';
import { createLogger } from '../logging/logger.js';
import { SdNotifier } from '../systemd/sd-notify.js';
import { startWatchdogPings } from '../systemd/watchdog.js';
import { installSignalHandlers } from '../daemon/shutdown.js';
import { prepareRun } from './prepare-run.js';
import type { RunFlags } from './prepare-run.js';

export { DEFAULT_DAEMON_CONFIG, prepareRun } from './prepare-run.js';
export type { RunFlags } from './prepare-run.js';

/** The `--time-scale` factor, or a ConfigError (exit 2) for a bad value or a live config. */
export function timeScaleOf(text: string | undefined, mode: DaemonConfig['venue']['mode']): number | undefined {
  if (text === undefined) return undefined;
  const factor = Number(text);
  if (text.trim() === '' || !Number.isFinite(factor) || factor <= 0 || factor > MAX_TIME_SCALE) {
    throw new ConfigError(`--time-scale must be a number above 0 and at most ${MAX_TIME_SCALE}, got "${text}"`);
  }
  if (mode !== 'paper') {
    throw new ConfigError('--time-scale accelerates the embedded simulator\'s market: paper mode only, and this config trades live (mode: live)');
  }
  return factor;
}

/** Every secret the config resolved: blanked wherever one would appear in a log line. */
function configuredSecrets(config: DaemonConfig): string[] {
  const { credentials } = config.venue;
  return [
    credentials.apiKey,
    credentials.apiSecret,
    ...(config.follower === undefined ? [] : [config.follower.credentials.apiKey, config.follower.credentials.apiSecret]),
    ...(config.catalog?.kind === 'service' ? [config.catalog.token] : []),
    ...(config.notify?.sinks.flatMap((sink) => [sink.url, sink.secret]) ?? []),
  ];
}

/**
 * `stratd run`: starts the daemon and runs until SIGTERM/SIGINT; the first signal stops it cleanly
 * (exit 0 within the shutdown timeout), a second one exits at once. A config mistake throws the
 * ConfigError (exit 2); a start-up failure is logged and exits 1.
 */
export async function runDaemon(flags: RunFlags): Promise<void> {
  const prepared = await prepareRun(flags, process.env);
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const factor = timeScaleOf(flags.timeScale, config.venue.mode);
  const crashPoints = crashPointsFromEnv(process.env);
  if (!crashPoints.ok) throw crashPoints.error;
  const logger = createLogger({ level: config.log.level, secrets: configuredSecrets(config) });
  // Accelerated time: the daemon, its jobs and the embedded simulator all run on the scaled clock.
  const time: TimeSource = factor === undefined ? systemTime : new ScaledTime(factor);
  if (factor !== undefined) logger.warn({ timeScale: factor }, `accelerated time: market time runs ${factor}× faster than real time (paper only)`);
  const started = await Daemon.start({
    config,
    strategies,
    time,
    logger,
    reread: () => prepareRun(flags, process.env),
    ...(factor === undefined ? {} : { jobsOnTimeSource: true }),
    ...(crashPoints.value === undefined ? {} : { crashPoints: crashPoints.value }),
  });
  if (!started.ok) {
    logger.fatal({ reason: started.error.message }, 'stratd could not start');
    process.exitCode = 1;
    return;
  }
  const daemon = started.value;
  // systemd (Type=notify): READY once start-up reconciliation is done, watchdog pings from the event loop.
  const notifier = SdNotifier.fromEnv(process.env, logger.child({ component: 'systemd' }));
  await notifier.ready(`running ${strategies.length} strategies; health ${daemon.health.url}`);
  const pings = startWatchdogPings(notifier, systemTime.scheduler);
  installSignalHandlers({
    onStop: async () => {
      pings.stop();
      const said = notifier.stopping();
      await daemon.stop();
      await said;
    },
    timeoutMs: config.shutdown.timeoutMs,
    exit: (code) => {
      logger.flush();
      process.exit(code);
    },
    logger,
  });
}
