import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { NEVER } from '../../app/daemon/daemon-harness.js';

/**
 * The chaos and crash runs' daemon config: `mode: live` against the test's simulator, every example strategy
 * (config/default.yml's two and each config of the strategy library, each id once), the union of their
 * market feeds, and global risk limits wide enough for all of them at once. Jobs never fire on their own
 * (node-cron runs on the wall clock); listen-key keepalive is therefore never sent, so the simulator's
 * short listen-key lifetime expires keys under the daemon, as the chaos asks.
 */
const EXAMPLES = ['default.yml', 'strategies/market-maker.yml', 'strategies/grid.yml', 'strategies/bracket.yml', 'strategies/trend.yml', 'strategies/funding-carry.yml'];

type Yaml = Record<string, unknown>;

function isRecord(value: unknown): value is Yaml {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(value: unknown, what: string): Yaml[] {
  if (!Array.isArray(value) || !value.every(isRecord)) throw new Error(`${what} is not a list of mappings`);
  return value;
}

/** Every example strategy (first definition of an id wins) and one market entry per symbol with every feed any example polls. */
export function exampleStrategiesAndMarket(): { readonly strategies: Yaml[]; readonly market: Yaml[] } {
  const strategies = new Map<string, Yaml>();
  const market = new Map<string, Yaml>();
  for (const file of EXAMPLES) {
    const doc: unknown = parse(readFileSync(join(process.cwd(), 'config', file), 'utf8'));
    if (!isRecord(doc)) throw new Error(`config/${file} is not a mapping`);
    for (const strategy of listOf(doc['strategies'], `config/${file} strategies`)) {
      const id = String(strategy['id']);
      if (!strategies.has(id)) strategies.set(id, strategy);
    }
    for (const entry of listOf(doc['market'], `config/${file} market`)) {
      const symbol = String(entry['symbol']);
      market.set(symbol, { ...entry, ...market.get(symbol) });
    }
  }
  return { strategies: [...strategies.values()], market: [...market.values()] };
}

export interface ChaosConfigOptions {
  readonly stateDir: string;
  /** Real time after which an unanswered request is "unknown". */
  readonly timeoutMs: number;
  /** Default 0: any free port. */
  readonly healthPort?: number;
}

/** The YAML text; the exchange section reads the simulator's URLs and key from `${TEST_*}` variables (see liveEnv). */
export function chaosYaml(options: ChaosConfigOptions): string {
  const { strategies, market: examples } = exampleStrategiesAndMarket();
  // Market data by the public market socket (polling only as its fallback); funding and open interest have no topic.
  const market = examples.map((entry) =>
    Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, isRecord(value) && key !== 'fundingRate' && key !== 'openInterest' ? { ...value, via: 'ws' } : value])),
  );
  const config = {
    mode: 'live',
    stateDir: options.stateDir,
    exchange: {
      baseUrl: '${TEST_SIM_BASE_URL}',
      streamUrl: '${TEST_SIM_STREAM_URL}',
      apiKey: '${TEST_API_KEY}',
      apiSecret: '${TEST_API_SECRET}',
      recvWindowMs: 5000,
      timeoutMs: options.timeoutMs,
    },
    market,
    userStream: { pingEvery: '20s', pongTimeout: '2m', backoff: { initial: '500ms', max: '4s' } },
    jobs: { listenKeyKeepalive: NEVER, exchangeInfoRefresh: NEVER, reconcile: NEVER, dailyReset: NEVER },
    risk: { dailyLossLimit: 100_000, maxOpenOrders: 200, maxOrdersPerMinute: 1200, priceBandPct: 5 },
    strategies,
    orphans: 'adopt',
    shutdown: { cancelOpenOrders: true, timeout: '10s' },
    health: { host: '127.0.0.1', port: options.healthPort ?? 0 },
    log: { level: 'silent' },
  };
  return stringify(config);
}
