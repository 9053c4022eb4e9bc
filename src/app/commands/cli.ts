import { Command, CommanderError } from 'commander';
import { ConfigError } from '../../settings/config-error.js';
import type { CallOutput } from './call.js';
import { registerFollowerCommands } from './follower.js';
import { registerBacktestCommand } from './backtest.js';
import { registerCheckStrategyCommand } from './check-strategy.js';
import { registerDownloadCommand } from './download.js';
import { registerDataCommands } from '../data/data-command.js';
import { registerControlCommands } from './control.js';
import { registerParityCommand } from './parity-command.js';
import { registerRecordCommand } from './record-command.js';
import { registerSweepCommand } from './sweep.js';
import { registerMonteCarloCommand } from './monte-carlo/command.js';
import { registerWalkForwardCommand } from './walk-forward/command.js';
import { registerValidateCommand } from './validate-command.js';
import { DEFAULT_SIM_CONFIG } from '../default-configs.js';
import { describeFailure, installScrubbedStderr } from '../logging/scrubbed-stderr.js';

/** Exit codes: 0 success, 1 an error reply or failed operation, 2 a user mistake (config, arguments). */
const EXIT_USAGE = 2;

function print(output: CallOutput): void {
  if (output.stdout !== '') process.stdout.write(output.stdout);
  if (output.stderr !== '') process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}

installScrubbedStderr(process.env);

/** What every command module writes to and how it reports its exit code. */
const commandIo = {
  env: process.env,
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
  setExitCode: (code: number) => {
    process.exitCode = code;
  },
};

const program = new Command()
  .name('stratd')
  .description('Strategy-automation daemon for perpetual futures')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

program
  .command('call')
  .description('sign and send any request with the configured credentials and print the JSON reply')
  .argument('<method>', 'GET, POST, PUT, DELETE (PATCH with --catalog)')
  .argument('<path>', 'e.g. /api/v2/futures/open-orders')
  .argument('[params...]', 'key=value parameters, sent in the query (GET/DELETE) or the body (v1 form, v2 JSON)')
  .option('--json <body>', 'a JSON body, sent and signed exactly as written; key=value pairs then go in the query')
  .option('--base-url <url>', 'service URL (else STRATD_BASE_URL / STRATD_CATALOG_URL, else the config)')
  .option('--catalog', 'call the product/user catalog service with its Bearer token')
  .option('--public', 'send unsigned (for public paths the endpoint table does not know)')
  .option('--config <file>', 'YAML config with exchange/catalog sections')
  .action(async (method: string, path: string, params: string[], flags: { json?: string; baseUrl?: string; catalog?: boolean; public?: boolean; config?: string }) => {
    // As for every command: its implementation (here the exchange client and its wire schemas) is imported
    // when it runs, so `--help` and the other commands start without it (the register* modules are light).
    const { catalogTarget, exchangeClientFor, readConnections } = await import('./call-setup.js');
    const { callCatalog, callExchange } = await import('./call.js');
    const connections = readConnections(flags.config);
    if (!connections.ok) throw connections.error;
    const args = { method, path, params, ...(flags.json === undefined ? {} : { json: flags.json }), public: flags.public === true };
    if (flags.catalog === true) {
      const target = catalogTarget(connections.value, flags.baseUrl, process.env);
      if (!target.ok) throw target.error;
      const { createGotHttp } = await import('../../venue/got-http.js');
      print(await callCatalog(createGotHttp(), target.value.baseUrl, target.value.token, args, target.value.timeoutMs));
      return;
    }
    const client = exchangeClientFor(connections.value, flags.baseUrl, process.env);
    if (!client.ok) throw client.error;
    print(await callExchange(client.value, args));
  });

program
  .command('run')
  .description('run the daemon: strategies, risk engine and executor against the configured exchange (paper: the embedded simulator)')
  .option('--config <file>', 'daemon config (default config/default.yml: paper trading, two example strategies)')
  .option('--state-dir <dir>', 'journal and strategy state (else STRATD_STATE_DIR, else the config, else ./state)')
  .option(
    '--time-scale <factor>',
    'paper mode only (refused live): run market time <factor> times faster than real time (at most 1000), e.g. 50 runs a day of market in about 29 min; the daemon, its jobs and the embedded simulator share the accelerated clock (`npm run soak`)',
  )
  .action(async (flags: { config?: string; stateDir?: string; timeScale?: string }) => {
    const { runDaemon } = await import('./run.js');
    await runDaemon(flags);
  });

registerBacktestCommand(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });

registerSweepCommand(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });
registerWalkForwardCommand(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });

registerMonteCarloCommand(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });
registerCheckStrategyCommand(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });

registerParityCommand(program, commandIo);

registerControlCommands(program, { ...commandIo, terminal: { isTTY: process.stdout.isTTY === true, rows: () => process.stdout.rows } });

registerRecordCommand(program, commandIo);

registerDownloadCommand(program, commandIo);

registerDataCommands(program, commandIo);

registerValidateCommand(program, commandIo);

registerFollowerCommands(program, { ...commandIo, defaultSimConfig: DEFAULT_SIM_CONFIG });

program
  .command('sim')
  .description('run the simulated exchange: REST, user data stream, catalog, admin faults and metrics on loopback')
  .option('--port <n>', 'listen on this port (0 picks a free one; default from the config, 8901)')
  .option('--seed <n>', 'market seed (default from the config)')
  .option('--config <file>', 'sim config (default config/sim.yml)')
  .option('--json', 'print one JSON line with URLs and credentials once listening')
  .option('--fault <name=value>', 'set a fault, e.g. --fault http5xxRate=0.1 (repeatable)', (value: string, all: string[] = []) => [...all, value])
  .option('--history <duration>', 'generate this much market before now (e.g. 6h), so klines and funding of a past range exist to download')
  .action(async (flags: { port?: string; seed?: string; config?: string; json?: boolean; fault?: string[]; history?: string }) => {
    const { runSim } = await import('./sim.js');
    await runSim(flags, (text) => process.stdout.write(text));
  });

// The program's arguments keep their order for its commands, so `sweep merge … --out` reaches merge
// rather than sweep's own --out (sweep sets its options positional). Set last: commands created before
// copy it from the program, and the others (follower, strategies…) keep options after their subcommands.
program.enablePositionalOptions();

try {
  await program.parseAsync(process.argv);
} catch (error: unknown) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
  } else if (error instanceof ConfigError) {
    process.stderr.write(`stratd: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
  } else {
    // Not rethrown: node would print the stack to fd 2 itself, past the scrubber.
    process.stderr.write(describeFailure(error));
    process.exitCode = 1;
  }
}
