import { spawn } from 'node:child_process';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';

/** Delivers one sd_notify message (VAR=VALUE lines, none containing a newline) to $NOTIFY_SOCKET. */
export interface NotifyTransport {
  send(assignments: readonly string[]): Promise<Result<void, Error>>;
}

export interface SystemdNotifyOptions {
  /** $NOTIFY_SOCKET: a path, or an abstract name starting with '@'. */
  readonly socket: string;
  /** Default `systemd-notify`, found on `path`. */
  readonly command?: string;
  /** PATH of the child (default /usr/local/bin:/usr/bin:/bin). */
  readonly path?: string;
  /** A child still running after this is killed (default 10 s; its own barrier gives up after 5 s). */
  readonly timeoutMs?: number;
}

const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
const MAX_STDERR = 500;

/**
 * Node has no unix datagram sockets, so each message is sent by systemd's own `systemd-notify`, run
 * as a child with NOTIFY_SOCKET in its environment. It waits (a BARRIER=1 round trip) until the service
 * manager has processed the message, so the message is attributed to the unit even though the sender
 * is not the main process; the unit needs NotifyAccess=all.
 */
export function systemdNotifyTransport(options: SystemdNotifyOptions): NotifyTransport {
  const command = options.command ?? 'systemd-notify';
  const env = { NOTIFY_SOCKET: options.socket, PATH: options.path ?? DEFAULT_PATH };
  const timeout = options.timeoutMs ?? 10_000;
  return {
    send: (assignments) =>
      new Promise((resolve) => {
        let stderr = '';
        // `--` keeps an assignment from ever being read as an option.
        const child = spawn(command, ['--', ...assignments], { env, stdio: ['ignore', 'ignore', 'pipe'] });
        // Not spawn's own `timeout`: its timer outlives a child that failed to start.
        const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
        timer.unref();
        let settled = false;
        const settle = (result: Result<void, Error>): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk: string) => {
          if (stderr.length < MAX_STDERR) stderr = (stderr + chunk).slice(0, MAX_STDERR);
        });
        child.once('error', (error) => settle(err(new Error(`cannot run ${command}: ${error.message}`))));
        child.once('close', (code, signal) => {
          if (code === 0) return settle(ok(undefined));
          const how = signal === null ? `exited with ${String(code)}` : `was killed (${signal})`;
          const detail = stderr.trim();
          settle(err(new Error(`${command} ${how}${detail === '' ? '' : `: ${detail}`}`)));
        });
      }),
  };
}
