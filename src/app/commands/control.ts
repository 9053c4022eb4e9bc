import type { Command } from 'commander';
import type { SchedulerLike } from 'rxjs';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import type { ControlFlags } from '../control/client.js';
import { jsonLine } from '../follower/output.js';
import type { CommandIo } from './command-io.js';

/** Standard output: the status summary, or one JSON line per reply. Standard error: one readable line per failure. Exit code 1 when the daemon is unreachable or refuses (usage mistakes throw ConfigError: exit 2). */
export interface ControlCommandDeps extends CommandIo {
  readonly cwd?: string;
  /** Standard output's terminal, if it is one (`status --watch` redraws in place there). */
  readonly terminal?: { readonly isTTY: boolean; readonly rows: () => number | undefined };
  /** How `status --watch` waits between frames; default: the system scheduler. */
  readonly scheduler?: SchedulerLike;
}

const URL_FLAG = ['--url <url>', 'the daemon\'s health/control server (default: from --config, else http://127.0.0.1:9464)'] as const;
const CONFIG_FLAG = ['--config <file>', 'the daemon\'s config: where the server listens, and the state directory whose control.token is sent (STRATD_HEALTH_TOKEN wins)'] as const;

/**
 * `stratd status|halt|resume|reload|strategies stop ID|strategies start ID`: talks to a running
 * daemon's control endpoint (GET /status, POST /control/…).
 */
export function registerControlCommands(program: Command, deps: ControlCommandDeps): Command {
  // The control client, the status formatter and their schemas load when a control command runs, not for every CLI start.
  const call = async (name: string, flags: ControlFlags, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const { controlAddress, controlCall, replyError } = await import('../control/client.js');
    const address = await controlAddress(flags, deps.env, deps.cwd);
    if (!address.ok) throw address.error;
    const reply = await controlCall(address.value, method, path, body);
    const fail = (message: string): undefined => {
      deps.err(`stratd ${name}: ${message}\n`);
      deps.setExitCode(1);
      return undefined;
    };
    if (!reply.ok) return fail(reply.error);
    if (reply.value.status !== 200) return fail(replyError(reply.value));
    return reply.value.body;
  };
  const print = (body: unknown): void => {
    if (body !== undefined) deps.out(jsonLine(body));
  };

  program
    .command('status')
    .description('the running daemon: strategies, positions, open orders, PnL today, kill switch, last errors')
    .option(...URL_FLAG)
    .option(...CONFIG_FLAG)
    .option('--json', 'the whole status as one JSON line')
    .option('--watch', 'refresh every --interval: in place on a terminal (Ctrl-C quits); otherwise one snapshot after another, separated by a blank line')
    .option('--interval <duration>', 'with --watch: how often, such as 2s (default) or 500ms')
    .option('--count <n>', 'with --watch: stop after n refreshes')
    .action(async (flags: ControlFlags & { json?: boolean; watch?: boolean; interval?: string; count?: string }) => {
      if (flags.watch === true) {
        await watch(flags);
        return;
      }
      if (flags.interval !== undefined || flags.count !== undefined) throw new ConfigError(`${flags.interval === undefined ? '--count' : '--interval'} goes with --watch`, { path: flags.interval === undefined ? '--count' : '--interval' });
      const body = await call('status', flags, 'GET', '/status');
      if (body === undefined) return;
      const summary = flags.json === true ? undefined : (await import('./status.js')).formatStatus(body);
      deps.out(summary ?? jsonLine(body));
    });

  const watch = async (flags: ControlFlags & { json?: boolean; interval?: string; count?: string }): Promise<void> => {
    if (flags.json === true) throw new ConfigError('--watch draws the status for a person: without --json (stratd status --json in a loop gives JSON lines)', { path: '--json' });
    const { watchCount, watchInterval, watchStatus } = await import('./status-watch.js');
    const { controlAddress, controlCall, replyError } = await import('../control/client.js');
    const intervalMs = watchInterval(flags.interval);
    if (!intervalMs.ok) throw intervalMs.error;
    const count = watchCount(flags.count);
    if (!count.ok) throw count.error;
    const address = await controlAddress(flags, deps.env, deps.cwd);
    if (!address.ok) throw address.error;
    const stop = new AbortController();
    const onInterrupt = (): void => stop.abort();
    process.once('SIGINT', onInterrupt);
    const scheduler = deps.scheduler ?? (await import('../../core/system-time.js')).systemTime.scheduler;
    try {
      const code = await watchStatus({
        fetch: async () => {
          const reply = await controlCall(address.value, 'GET', '/status');
          if (!reply.ok) return reply;
          return reply.value.status === 200 ? ok(reply.value.body) : err(replyError(reply.value));
        },
        screen: { write: deps.out, isTTY: deps.terminal?.isTTY ?? false, ...(deps.terminal === undefined ? {} : { rows: deps.terminal.rows }) },
        intervalMs: intervalMs.value,
        sleep: (ms, signal) => pause(scheduler, ms, signal),
        signal: stop.signal,
        ...(count.value === undefined ? {} : { count: count.value }),
        now: () => scheduler.now(),
      });
      if (code !== 0) deps.setExitCode(code);
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  };

  program
    .command('halt')
    .description('engage the kill switch: cancel every open order and deny opening orders until resume (closing stays allowed)')
    .option('--reason <text>', 'why (shown in status and logs)')
    .option(...URL_FLAG)
    .option(...CONFIG_FLAG)
    .action(async (flags: ControlFlags & { reason?: string }) => print(await call('halt', flags, 'POST', '/control/halt', flags.reason === undefined ? {} : { reason: flags.reason })));

  program
    .command('resume')
    .description('release the kill switch (a daily-loss halt lasts until the daily reset unless overridden)')
    .option('--override-daily-loss', 'also lift a halt of the daily loss limit, for the rest of the day (logged and counted; needs --reason)')
    .option('--reason <text>', 'why the daily loss limit is overridden')
    .option(...URL_FLAG)
    .option(...CONFIG_FLAG)
    .action(async (flags: ControlFlags & { overrideDailyLoss?: boolean; reason?: string }) => {
      if (flags.overrideDailyLoss !== true && flags.reason !== undefined) throw new ConfigError('--reason goes with --override-daily-loss (a plain resume needs none)', { path: '--reason' });
      const reason = flags.reason?.trim() ?? '';
      if (flags.overrideDailyLoss === true && reason.length < 3) throw new ConfigError('--override-daily-loss needs --reason "why" (it is logged)', { path: '--reason' });
      print(await call('resume', flags, 'POST', '/control/resume', flags.overrideDailyLoss === true ? { overrideDailyLoss: reason } : {}));
    });

  program
    .command('reload')
    .description('re-read the config (as SIGHUP does): strategy params, risk limits and log level change; the rest needs a restart')
    .option(...URL_FLAG)
    .option(...CONFIG_FLAG)
    .action(async (flags: ControlFlags) => {
      const body = await call('reload', flags, 'POST', '/control/reload');
      print(body);
      const { isRecord } = await import('../control/client.js');
      const report = isRecord(body) ? body['reload'] : undefined;
      if (isRecord(report) && report['ok'] === false) deps.setExitCode(1);
    });

  const strategies = program
    .command('strategies')
    .description('stop or start one strategy instance of the running daemon')
    .option(...URL_FLAG)
    .option(...CONFIG_FLAG);
  for (const verb of ['stop', 'start'] as const) {
    strategies
      .command(verb)
      .description(verb === 'stop' ? 'stop an instance (its clean-up runs; its orders stay unless it cancels them)' : 'start a stopped or failed instance again')
      .argument('<id>', 'strategy id from the config, e.g. quoter-btc')
      .action(async (id: string, _opts: object, command: Command) => {
        const flags = command.optsWithGlobals<ControlFlags>();
        print(await call(`strategies ${verb}`, flags, 'POST', `/control/strategies/${encodeURIComponent(id)}/${verb}`));
      });
  }
  return program;
}

/** Resolves after `ms` on `scheduler`, or at once when `signal` aborts (Ctrl-C during the wait). */
function pause(scheduler: SchedulerLike, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      timer.unsubscribe();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = scheduler.schedule(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
