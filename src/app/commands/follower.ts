import type { Command } from 'commander';
import type { TimeSource } from '../../core/clock.js';
import type { Result } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import type { ExchangeClient } from '../../venue/exchange-client.js';
import type { VenueError } from '../../venue/venue-error.js';
import { CONFIG_SET_OPTIONS, completeConfig, decimalFlag, parseConfigFlags } from '../follower/config-args.js';
import type { ConfigSetFlags } from '../follower/config-args.js';
import { jsonLine } from '../follower/output.js';
import type { FollowerConnectionFlags } from '../follower/setup.js';
import type { CommandIo } from './command-io.js';

/** Standard output: one JSON line per item. Standard error: one readable line per failure, and notes for a person. Exit code 1 after an error reply or a refused request (usage mistakes throw ConfigError: exit 2). */
export interface FollowerCommandDeps extends CommandIo {
  /** Default: the wall clock. */
  readonly time?: TimeSource;
  readonly cwd?: string;
  /** The simulator YAML of a paper daemon config without sim.config (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

/** No copy-trading follow relation for the signed account (document 001). */
const NOT_FOLLOWING = -32045;

/**
 * `stratd follower leaders|positions|history|config get|config set|tpsl|unfollow`: the copy-trading
 * follower endpoints through the client's validated methods.
 */
export function registerFollowerCommands(program: Command, deps: FollowerCommandDeps): Command {
  const follower = program
    .command('follower')
    .description('copy-trading follower: leaders, copied positions and history, follow settings, TP/SL, unfollow')
    .option('--config <file>', 'daemon config whose follower section names the credentials')
    .option('--base-url <url>', 'exchange URL (else STRATD_BASE_URL, else the config); keys from STRATD_FOLLOWER_API_KEY/SECRET without --config');

  const run = async (command: Command, body: (client: ExchangeClient) => Promise<void>): Promise<void> => {
    const flags = command.optsWithGlobals<FollowerConnectionFlags>();
    // The client (got, the wire schemas) loads only when a follower command runs, not for every CLI start.
    const { followerClient } = await import('../follower/setup.js');
    const client = followerClient(flags, {
      env: deps.env,
      time: deps.time ?? (await import('../../core/system-time.js')).systemTime,
      ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }),
      ...(deps.defaultSimConfig === undefined ? {} : { defaultSimConfig: deps.defaultSimConfig }),
    });
    if (!client.ok) throw client.error;
    return body(client.value);
  };
  /** True for a success; a failure is reported as one line and exit code 1. */
  const succeeded = <T>(reply: Result<T, VenueError>): reply is { readonly ok: true; readonly value: T } => {
    if (reply.ok) return true;
    deps.err(`stratd follower: ${reply.error.message}\n`);
    deps.setExitCode(1);
    return false;
  };
  const value = <T>(reply: Result<T, VenueError>): T | undefined => (succeeded(reply) ? reply.value : undefined);
  const lines = (items: readonly unknown[] | undefined, none: string): void => {
    if (items === undefined) return;
    if (items.length === 0) deps.err(`${none}\n`);
    for (const item of items) deps.out(jsonLine(item));
  };

  follower
    .command('leaders')
    .description('the leaders this account follows')
    .action((_opts: object, command: Command) => run(command, async (client) => lines(value(await client.follower.leaders()), 'no leaders followed')));

  follower
    .command('positions')
    .description('copied positions now open')
    .action((_opts: object, command: Command) => run(command, async (client) => lines(value(await client.follower.currentPositions()), 'no copied positions open')));

  follower
    .command('history')
    .description('closed copied positions, one page (page count and total on stderr)')
    .option('--page <n>', 'page number from 1', '1')
    .option('--size <n>', 'rows per page, 1 to 100', '10')
    .action((opts: { page: string; size: string }, command: Command) =>
      run(command, async (client) => {
        const page = value(await client.follower.history({ page: integerFlag('page', opts.page), size: integerFlag('size', opts.size) }));
        if (page === undefined) return;
        lines(page.list, 'no closed copied positions on this page');
        deps.err(`page ${opts.page} of ${page.pages} (${page.total} rows)\n`);
      }),
    );

  const config = follower.command('config').description('read or change the follow settings for a leader');
  config
    .command('get')
    .argument('<leaderUserId>', 'leader id')
    .action((leaderUserId: string, _opts: object, command: Command) =>
      run(command, async (client) => {
        const current = value(await client.follower.getConfig(leaderUserId));
        if (current !== undefined) deps.out(jsonLine(current));
      }),
    );

  const set = config
    .command('set')
    .description('follow a leader or change its settings: unnamed settings keep their current values (a new follow needs the amounts, leverage and max invest rate)')
    .argument('<leaderUserId>', 'leader id');
  for (const [flags, description] of CONFIG_SET_OPTIONS) set.option(flags, description);
  set.action((leaderUserId: string, opts: ConfigSetFlags, command: Command) =>
    run(command, async (client) => {
      const given = parseConfigFlags(opts);
      const current = await client.follower.getConfig(leaderUserId);
      if (!current.ok && !(current.error.kind === 'rejected' && current.error.code === NOT_FOLLOWING)) {
        succeeded(current);
        return;
      }
      const update = completeConfig(leaderUserId, given, current.ok ? current.value : undefined);
      if (!update.ok) throw update.error;
      if (!succeeded(await client.follower.setConfig(update.value))) return;
      const after = value(await client.follower.getConfig(leaderUserId));
      if (after !== undefined) deps.out(jsonLine(after));
    }),
  );

  follower
    .command('tpsl')
    .description('set take-profit / stop-loss rates on a copied position')
    .argument('<leaderUserId>', 'leader id')
    .argument('<symbol>', 'symbol id, e.g. BTC-SWAP-USDT')
    .argument('<side>', 'long or short')
    .option('--stop-profit-rate <rate>', '0 (none) or at least 0.01')
    .option('--stop-loss-rate <rate>', '0 (none) or at least 0.01')
    .option('--stop-loss-delay <seconds>', 'whole seconds')
    .action((leaderUserId: string, symbol: string, side: string, opts: { stopProfitRate?: string; stopLossRate?: string; stopLossDelay?: string }, command: Command) =>
      run(command, async (client) => {
        const isLong = sideFlag(side);
        if (opts.stopProfitRate === undefined && opts.stopLossRate === undefined && opts.stopLossDelay === undefined) {
          throw new ConfigError('give --stop-profit-rate, --stop-loss-rate or --stop-loss-delay', { path: 'tpsl' });
        }
        const change = {
          leaderUserId,
          symbolId: symbol,
          isLong,
          ...(opts.stopProfitRate === undefined ? {} : { stopProfitRate: decimalFlag('stopProfitRate', opts.stopProfitRate) }),
          ...(opts.stopLossRate === undefined ? {} : { stopLossRate: decimalFlag('stopLossRate', opts.stopLossRate) }),
          ...(opts.stopLossDelay === undefined ? {} : { stopLossDelay: integerFlag('stop-loss-delay', opts.stopLossDelay, 0) }),
        };
        if (succeeded(await client.follower.setPositionStopProfitLoss(change))) deps.out(jsonLine({ status: 'ok', ...change }));
      }),
    );

  follower
    .command('unfollow')
    .description('stop following a leader (refused while copied positions are open)')
    .argument('<leaderUserId>', 'leader id')
    .action((leaderUserId: string, _opts: object, command: Command) =>
      run(command, async (client) => {
        if (succeeded(await client.follower.unfollow(leaderUserId))) deps.out(jsonLine({ status: 'ok', unfollowed: leaderUserId }));
      }),
    );

  return follower;
}

function integerFlag(name: string, text: string, min = 1): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min) throw new ConfigError(`--${name} ${text}: a whole number of at least ${min}`, { path: `--${name}` });
  return Number(text);
}

function sideFlag(text: string): 0 | 1 {
  const side = text.trim().toLowerCase();
  if (side === 'long' || side === '1') return 1;
  if (side === 'short' || side === '0') return 0;
  throw new ConfigError(`side ${text}: long or short`, { path: 'side' });
}
