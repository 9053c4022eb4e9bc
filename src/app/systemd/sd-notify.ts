import type { Logger } from '../../core/logger.js';
import type { Environment } from '../../settings/secrets.js';
import type { NotifyTransport } from './transport.js';
import { systemdNotifyTransport } from './transport.js';

export interface SdNotifierOptions {
  /** This process's id, compared with WATCHDOG_PID (default process.pid). */
  readonly pid?: number;
  /** How messages reach the socket (default: systemd-notify as a child, see systemd/transport.ts). */
  readonly transport?: (socket: string, env: Environment) => NotifyTransport;
}

/**
 * The sd_notify protocol towards systemd (Type=notify): READY=1 once started, WATCHDOG=1 keep-alives,
 * STOPPING=1 on shutdown, STATUS=… for `systemctl status`. Without $NOTIFY_SOCKET (a terminal, Docker)
 * every call does nothing. Messages go out one at a time, in call order; a failed one is logged,
 * never thrown, and never stops the daemon.
 */
export class SdNotifier {
  private queue: Promise<void> = Promise.resolve();
  private watchdogQueued = false;
  private failing = false;

  private constructor(
    private readonly transport: NotifyTransport | undefined,
    private readonly watchdogMs: number | undefined,
    private readonly logger: Logger,
  ) {}

  /** Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (and PATH, to find systemd-notify). */
  static fromEnv(env: Environment, logger: Logger, options: SdNotifierOptions = {}): SdNotifier {
    const socket = env['NOTIFY_SOCKET']?.trim() ?? '';
    if (socket === '') return new SdNotifier(undefined, undefined, logger);
    if (!socket.startsWith('/') && !socket.startsWith('@')) {
      logger.warn({ notifySocket: socket }, 'NOTIFY_SOCKET is neither a path nor an abstract @name: systemd notifications are off');
      return new SdNotifier(undefined, undefined, logger);
    }
    const transport = options.transport?.(socket, env) ?? systemdNotifyTransport({ socket, ...(env['PATH'] === undefined ? {} : { path: env['PATH'] }) });
    return new SdNotifier(transport, watchdogInterval(env, options.pid ?? process.pid), logger);
  }

  /** True when $NOTIFY_SOCKET was set: the process runs under a service manager that listens. */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  /** READY=1: start-up (reconciliation included) is complete. */
  ready(status?: string): Promise<void> {
    return this.send(['READY=1', ...statusLine(status)]);
  }

  /** WATCHDOG=1; a ping still waiting behind another message is not queued twice. */
  watchdog(): Promise<void> {
    if (this.transport === undefined || this.watchdogQueued) return this.queue;
    this.watchdogQueued = true;
    return this.send(['WATCHDOG=1'], () => {
      this.watchdogQueued = false;
    });
  }

  /** STOPPING=1: shutdown has begun (systemd then waits up to TimeoutStopSec). */
  stopping(status?: string): Promise<void> {
    return this.send(['STOPPING=1', ...statusLine(status)]);
  }

  /** STATUS=…: one line shown by `systemctl status`. */
  status(text: string): Promise<void> {
    return this.send(statusLine(text));
  }

  /**
   * How often to send WATCHDOG=1: half of WATCHDOG_USEC, as sd_watchdog_enabled(3) advises. Undefined
   * when systemd asked for no watchdog, or asked another process (WATCHDOG_PID) for it.
   */
  watchdogIntervalMs(): number | undefined {
    return this.watchdogMs;
  }

  private send(assignments: readonly string[], beforeSend?: () => void): Promise<void> {
    const transport = this.transport;
    if (transport === undefined || assignments.length === 0) return this.queue;
    this.queue = this.queue.then(async () => {
      beforeSend?.();
      const sent = await transport.send(assignments);
      if (sent.ok) {
        if (this.failing) this.logger.info({}, 'systemd notifications delivered again');
        this.failing = false;
        return;
      }
      // The first failure is a warning; repeats (a watchdog ping every few seconds) are debug.
      const fields = { message: assignments[0], reason: sent.error.message };
      if (this.failing) this.logger.debug(fields, 'systemd notification failed');
      else this.logger.warn(fields, 'systemd notification failed');
      this.failing = true;
    });
    return this.queue;
  }
}

function statusLine(text: string | undefined): string[] {
  // A newline would start another assignment: STATUS is one line.
  return text === undefined ? [] : [`STATUS=${text.replace(/[\r\n]+/g, ' ').trim()}`];
}

function watchdogInterval(env: Environment, pid: number): number | undefined {
  const usec = env['WATCHDOG_USEC']?.trim() ?? '';
  if (!/^\d+$/.test(usec) || Number(usec) === 0) return undefined;
  const target = env['WATCHDOG_PID']?.trim() ?? '';
  if (target !== '' && target !== String(pid)) return undefined;
  return Math.max(1, Math.floor(Number(usec) / 2000));
}
