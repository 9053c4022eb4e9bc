import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Logger } from '../../../src/core/logger.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { Environment } from '../../../src/settings/secrets.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import type { HttpPort } from '../../../src/venue/http-port.js';
import type { TimeSource } from '../../../src/core/clock.js';
import { simConfig } from '../../sim/e2e/sim-harness.js';

/** The simulator's YAML the paper configs point at (absolute). */
export const SIM_YML = fileURLToPath(new URL('../../../config/sim.yml', import.meta.url));

const DEFAULT_YML = fileURLToPath(new URL('../../../config/default.yml', import.meta.url));

/**
 * config/default.yml as shipped, with only what a test must change (simulator path, state dir,
 * health port, log level), then the test's own edit: the first `from` becomes `to`.
 */
export function defaultYaml(stateDir: string, edit: { readonly from: string; readonly to: string } = { from: '', to: '' }): string {
  let text = readFileSync(DEFAULT_YML, 'utf8');
  const replace = (from: RegExp | string, to: string): void => {
    if (typeof from === 'string' ? !text.includes(from) : !from.test(text)) throw new Error(`config/default.yml no longer has ${String(from)}`);
    text = text.replace(from, to);
  };
  replace(/^stateDir: .*$/m, `stateDir: ${stateDir}`);
  replace(/^(\s+)config: \.\/sim\.yml.*$/m, `$1config: ${SIM_YML}`);
  replace(/^health: .*$/m, 'health: { host: 127.0.0.1, port: 0 }');
  replace(/^log: .*$/m, 'log: { level: silent }');
  replace(edit.from, edit.to);
  return text;
}

/** Both USDT-M symbols polled every second: book ticker (mid for limit prices) and mark price (risk checks). */
const MARKET_YAML = `market:
  - symbol: BTC-SWAP-USDT
    bookTicker: { every: 1s }
    markPrice: { every: 1s }
  - symbol: ETH-SWAP-USDT
    bookTicker: { every: 1s }
    markPrice: { every: 1s }
`;

/**
 * The heartbeat is generous: virtual time runs ahead of loopback I/O, and a pong that arrives a few
 * virtual seconds late must not count as lost. Reconnects start after half a second.
 */
const USER_STREAM_YAML = 'userStream: { pingEvery: 20s, pongTimeout: 2m, backoff: { initial: 500ms, max: 4s } }\n';

/**
 * node-cron runs on the wall clock: a slot during a test (a reconcile every 5 minutes) would add an
 * unplanned reconciliation. The tests' jobs fire on 29 February only; tests run jobs by hand.
 */
export const NEVER = '0 0 29 2 *';
const JOBS_YAML = `jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}" }\n`;

/** config/default.yml's shape for a test: paper mode on config/sim.yml, health on any free port, state in `stateDir`. */
export function paperYaml(stateDir: string, extraMarket = ''): string {
  return `mode: paper
stateDir: ${stateDir}
sim:
  config: ${SIM_YML}
  key: trader
  port: 0
${MARKET_YAML}${extraMarket}${USER_STREAM_YAML}${JOBS_YAML}orphans: adopt
shutdown: { cancelOpenOrders: true, timeout: 10s }
health: { host: 127.0.0.1, port: 0 }
log: { level: silent }
`;
}

export interface LiveOptions {
  /** Default false: a stopped daemon leaves its orders (restart tests). */
  readonly cancelOpenOrders?: boolean;
  /** Real time after which a request without a reply is "unknown"; default 3000 (lost-reply tests: 1000). */
  readonly timeoutMs?: number;
  /** Default 0: any free port. */
  readonly healthPort?: number;
}

/**
 * A live config: the exchange section reads its URLs and keys from the environment (`liveEnv`), as a
 * real deployment would; here they point at a simulator the test runs. The wide recvWindow absorbs
 * virtual time running during I/O.
 */
export function liveYaml(stateDir: string, options: LiveOptions = {}): string {
  return `mode: live
stateDir: ${stateDir}
exchange:
  baseUrl: \${TEST_SIM_BASE_URL}
  streamUrl: \${TEST_SIM_STREAM_URL}
  apiKey: \${TEST_API_KEY}
  apiSecret: \${TEST_API_SECRET}
  recvWindowMs: 60000
  timeoutMs: ${options.timeoutMs ?? 3000}
${MARKET_YAML}${USER_STREAM_YAML}${JOBS_YAML}orphans: adopt
shutdown: { cancelOpenOrders: ${String(options.cancelOpenOrders ?? false)}, timeout: 10s }
health: { host: 127.0.0.1, port: ${options.healthPort ?? 0} }
log: { level: silent }
`;
}

/** The environment `liveYaml` reads: the simulator's URLs and its trader key. */
export function liveEnv(s: RunningSim): Environment {
  const trader = s.config.keys.find((k) => k.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  return { TEST_SIM_BASE_URL: s.sim.address.baseUrl, TEST_SIM_STREAM_URL: s.sim.address.streamUrl, TEST_API_KEY: trader.apiKey, TEST_API_SECRET: trader.secret };
}

export function writeConfig(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Loads `file` through `stratd run`'s own preparation, adds `extra` strategies and starts the daemon on `time` (logging to `logger`). */
/** `http`: the exchange client's network port (its caller closes it), e.g. one whose deadlines run on `time`. */
export async function startDaemon(file: string, time: TimeSource, extra: readonly StrategyInstance[] = [], env: Environment = {}, logger: Logger = silentLogger, http?: HttpPort): Promise<Daemon> {
  const prepared = await prepareRun({ config: file }, env);
  if (!prepared.ok) throw prepared.error;
  const started = await Daemon.start({ config: prepared.value.config, strategies: [...prepared.value.strategies, ...extra], time, logger, env, hangup: null, ...(http === undefined ? {} : { http }) });
  if (!started.ok) throw started.error;
  return started.value;
}

/** The test's own client of a paper daemon's embedded simulator, with the trader key of config/sim.yml. */
export function embeddedTrader(daemon: Daemon, clock: VirtualClock): ExchangeClient {
  const sim = daemon.venue.sim;
  if (sim === undefined) throw new Error('paper mode runs an embedded simulator');
  const key = simConfig().keys.find((k) => k.name === 'trader');
  if (key === undefined) throw new Error('config/sim.yml has no trader key');
  return new ExchangeClient({ baseUrl: sim.address.baseUrl, credentials: { apiKey: key.apiKey, apiSecret: key.secret }, time: clock, timeoutMs: 3000, recvWindowMs: 60_000 });
}
