import { Presets, SingleBar } from 'cli-progress';
import pino from 'pino';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { systemTime } from '../../core/system-time.js';
import type { DownloadProgress } from '../../recording/download/downloader.js';
import { download } from '../../recording/download/downloader.js';
import type { DownloadChannel } from '../../recording/download/plan.js';
import { DOWNLOAD_INTERVAL_MS } from '../../recording/download/plan.js';
import { ConfigError } from '../../settings/config-error.js';
import type { KlineInterval } from '../../protocol/market-params.js';
import { exchangeClientFor, readConnections } from './call-setup.js';
import { createLogger } from '../logging/logger.js';
import type { CommandIo } from './command-io.js';

export interface DownloadCommandDeps extends CommandIo {
  /** Where the progress bar draws (standard error) and whether it is a terminal: no bar otherwise. */
  readonly progressStream?: NodeJS.WritableStream;
  readonly tty?: boolean;
  readonly time?: TimeSource;
  readonly logger?: Logger;
  /** Stops the download between two requests (default: SIGINT/SIGTERM). */
  readonly signal?: AbortSignal;
}

export interface DownloadFlags {
  readonly symbols: string[];
  readonly from: string;
  readonly to: string;
  readonly out: string;
  readonly interval: string;
  readonly mark: boolean;
  readonly index: boolean;
  readonly funding: boolean;
  readonly trades: boolean;
  readonly pageSize?: string;
  readonly force?: boolean;
  readonly baseUrl?: string;
  readonly config?: string;
  readonly logLevel: string;
}

/** Exit code of a download stopped by a signal or an abort: rerunning resumes it. */
export const EXIT_INTERRUPTED = 130;

async function runDownload(flags: DownloadFlags, deps: DownloadCommandDeps): Promise<void> {
  const connections = readConnections(flags.config);
  if (!connections.ok) throw connections.error;
  const client = exchangeClientFor(connections.value, flags.baseUrl, deps.env);
  if (!client.ok) throw client.error;
  const interval = flags.interval.trim();
  if (!(interval in DOWNLOAD_INTERVAL_MS)) throw new ConfigError(`--interval ${flags.interval}: one of ${Object.keys(DOWNLOAD_INTERVAL_MS).join(', ')}`, { path: '--interval' });
  const channels: DownloadChannel[] = ['contract'];
  if (flags.mark) channels.push('mark');
  if (flags.index) channels.push('index');
  if (flags.funding) channels.push('funding');
  if (flags.trades) channels.push('trades');
  const pageSize = flags.pageSize === undefined ? undefined : pageSizeFlag(flags.pageSize);
  const symbols = flags.symbols.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const logger = deps.logger ?? createLogger({ level: flags.logLevel, pretty: false, destination: pino.destination(2) });
  const signals = deps.signal === undefined ? abortOnSignals() : undefined;
  const signal = deps.signal ?? signals?.signal;
  const time = deps.time ?? systemTime;
  const progress = new DownloadProgressDisplay(deps.tty ?? process.stderr.isTTY === true, deps.progressStream ?? process.stderr, deps.err, () => time.clock.now());
  try {
    const result = await download({
      api: client.value.market,
      request: { symbols, from: timeFlag('from', flags.from), to: timeFlag('to', flags.to), interval: interval as KlineInterval, channels, ...(pageSize === undefined ? {} : { pageSize }) },
      out: flags.out,
      force: flags.force === true,
      time,
      logger,
      onProgress: (p) => progress.update(p),
      ...(signal === undefined ? {} : { signal }),
    });
    progress.stop();
    if (!result.ok) {
      if (result.error.userMistake) throw new ConfigError(result.error.message, {});
      deps.err(`stratd download: ${result.error.message}\n`);
      deps.setExitCode(1);
      return;
    }
    const outcome = result.value;
    if (outcome.kind === 'interrupted') {
      deps.err(`stratd download: interrupted; what was fetched is kept in ${outcome.parts}: rerun the same command to continue\n`);
      deps.setExitCode(EXIT_INTERRUPTED);
      return;
    }
    const { plan } = outcome;
    deps.out(
      `wrote ${outcome.out}: ${outcome.events} events, ${plan.symbols.join(', ')}, ${plan.interval} bars ${new Date(plan.firstOpen).toISOString()} → ${new Date(plan.lastOpen + plan.intervalMs).toISOString()} (${plan.channels.join(', ')})\n`,
    );
  } finally {
    progress.stop();
    signals?.dispose();
  }
}

/** The progress bar on a terminal (stderr), else a line every 10 s of pages. */
class DownloadProgressDisplay {
  private bar: SingleBar | undefined;
  private lastLine = 0;

  constructor(
    private readonly tty: boolean,
    private readonly stream: NodeJS.WritableStream,
    private readonly line: (text: string) => void,
    private readonly now: () => number,
  ) {}

  update(p: DownloadProgress): void {
    const payload = { what: `${p.symbol} ${p.channel}`, rows: p.rows.toLocaleString('en-US'), resumed: p.resumed ? ' (resumed)' : '' };
    if (this.tty) {
      if (this.bar === undefined) {
        this.bar = new SingleBar({ stream: this.stream, format: 'download {bar} {percentage}% | {what} | {rows} rows{resumed} | ETA {eta_formatted}', hideCursor: true, etaBuffer: 20 }, Presets.shades_classic);
        this.bar.start(p.total, p.done, payload);
      } else this.bar.update(p.done, payload);
      return;
    }
    const now = this.now();
    if (now - this.lastLine < 10_000 && p.done < p.total) return;
    this.lastLine = now;
    this.line(`download: ${((p.done / Math.max(1, p.total)) * 100).toFixed(1)}% | ${payload.what} | ${payload.rows} rows${payload.resumed}\n`);
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}

function abortOnSignals(): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

function pageSizeFlag(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > 2000) throw new ConfigError(`--page-size ${text}: rows per request, 1 to 2000`, { path: '--page-size' });
  return Number(text);
}

/** ISO 8601 time or epoch milliseconds. */
function timeFlag(name: string, text: string): number {
  const trimmed = text.trim();
  const time = /^\d+$/.test(trimmed) ? Number(trimmed) : /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(time) || time < 0) throw new ConfigError(`--${name} ${text}: an ISO time (2026-01-01T00:00:00Z) or epoch milliseconds`, { path: `--${name}` });
  return time;
}

/** The work of the command registered in download.ts, loaded only when it runs. */
export async function downloadAction(flags: DownloadFlags, deps: DownloadCommandDeps): Promise<void> {
  await runDownload(flags, deps);
}
