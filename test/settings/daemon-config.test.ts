import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { DaemonConfig, LoadDaemonConfigOptions } from '../../src/settings/daemon-config/daemon-config.js';
import type { ConfigError } from '../../src/settings/config-error.js';

const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const TRADER_KEY = 'simTraderKey0000000000000000000000000000000000000000000000000001';
const COPY_KEY = 'simCopyTradingKey00000000000000000000000000000000000000000000004';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(text: string): string {
  counter += 1;
  const file = join(dir, `config-${counter}.yml`);
  writeFileSync(file, text);
  return file;
}

function load(text: string, options: Partial<LoadDaemonConfigOptions> = {}): DaemonConfig {
  const result = loadDaemonConfig(write(text), { env: {}, defaultSimConfig: SIM_YML, cwd: dir, ...options });
  if (!result.ok) throw new Error(`expected a valid config, got ${result.error.message}`);
  return result.value;
}

function failure(text: string, options: Partial<LoadDaemonConfigOptions> = {}): { error: ConfigError; file: string } {
  const file = write(text);
  const result = loadDaemonConfig(file, { env: {}, defaultSimConfig: SIM_YML, cwd: dir, ...options });
  if (result.ok) throw new Error('expected a config error');
  return { error: result.error, file };
}

const MARKET = `market:
  - symbol: BTC-SWAP-USDT
    depth: { every: 1s, limit: 20 }
    trades: { every: 1s }
    klines: { every: 5s, intervals: [1m, 5m] }
    bookTicker: { every: 1s }
    ticker24h: { every: 30s }
    markPrice: { every: 2s }
    index: { every: 5s }
    fundingRate: { every: 1m }
    openInterest: { every: 1m }
  - symbol: ETH-SWAP-USDT
    depth: { every: 500ms }
`;

const FULL = `mode: paper
stateDir: ./state-here
sim:
  config: ${SIM_YML}
  key: trader
  port: 0
  tickMs: 100
${MARKET}userStream: { pingEvery: 20s, pongTimeout: 10s, backoff: { initial: 500ms, max: 30s } }
jobs:
  listenKeyKeepalive: "*/30 * * * *"
  exchangeInfoRefresh: "0 * * * *"
  reconcile: "*/5 * * * *"
  dailyReset: "0 0 * * *"
  catalogSync: "*/15 * * * * *"
risk: { dailyLossLimit: "500", maxPosition: 100, maxNotional: "250000.5", maxLeverage: 10, maxOpenOrders: 50, maxOrdersPerMinute: 120, priceBandPct: 5 }
strategies:
  - id: mm-btc
    module: quote-around-mid
    symbols: [BTC-SWAP-USDT]
    params: { spreadBps: 10, size: "2" }
    risk: { maxPosition: 20, maxOpenOrders: 4 }
  - id: trend-eth
    module: breakout
    symbols: [ETH-SWAP-USDT]
    enabled: false
orphans: cancel
shutdown: { cancelOpenOrders: true, timeout: 8s }
journal: { durability: os }
health: { host: 127.0.0.1, port: 0 }
follower: { key: copy-trading }
log: { level: debug }
`;

describe('loadDaemonConfig: a valid paper config', () => {
  it('parses every section into milliseconds, decimals, absolute paths and resolved credentials', () => {
    const config = load(FULL);
    expect(config.venue).toMatchObject({ mode: 'paper', simConfigFile: SIM_YML, key: 'trader', tickMs: 100, credentials: { apiKey: TRADER_KEY } });
    if (config.venue.mode !== 'paper') throw new Error('paper expected');
    expect(config.venue.sim.port).toBe(0);
    expect(config.venue.sim.keys.length).toBeGreaterThan(0);
    expect(config.stateDir).toBe(join(dir, 'state-here'));
    expect(config.market[0]).toEqual({
      symbol: 'BTC-SWAP-USDT',
      depth: { everyMs: 1000, limit: 20 },
      trades: { everyMs: 1000 },
      klines: { everyMs: 5000, intervals: ['1m', '5m'] },
      bookTicker: { everyMs: 1000 },
      ticker24h: { everyMs: 30_000 },
      markPrice: { everyMs: 2000 },
      index: { everyMs: 5000 },
      fundingRate: { everyMs: 60_000 },
      openInterest: { everyMs: 60_000 },
    });
    expect(config.market[1]).toEqual({ symbol: 'ETH-SWAP-USDT', depth: { everyMs: 500, limit: 20 } });
    expect(config.userStream).toEqual({ pingEveryMs: 20_000, pongTimeoutMs: 10_000, backoff: { initialMs: 500, maxMs: 30_000 } });
    expect(config.jobs).toEqual({
      listenKeyKeepalive: '*/30 * * * *',
      exchangeInfoRefresh: '0 * * * *',
      reconcile: '*/5 * * * *',
      dailyReset: '0 0 * * *',
      catalogSync: '*/15 * * * * *',
    });
    expect(config.catalog).toEqual({ kind: 'sim' });
    expect(config.risk.dailyLossLimit?.toFixed()).toBe('500');
    expect(config.risk.maxNotional?.toFixed()).toBe('250000.5');
    expect(config.risk.priceBandPct?.toFixed()).toBe('5');
    expect(config.risk.maxOpenOrders).toBe(50);
    expect(config.strategies.map((s) => [s.id, s.module, s.symbols, s.enabled])).toEqual([
      ['mm-btc', 'quote-around-mid', ['BTC-SWAP-USDT'], true],
      ['trend-eth', 'breakout', ['ETH-SWAP-USDT'], false],
    ]);
    expect(config.strategies[0]?.params).toEqual({ spreadBps: 10, size: '2' });
    expect(config.strategies[0]?.risk.maxPosition?.toFixed()).toBe('20');
    expect(Object.keys(config.strategies[1]?.risk ?? { x: 1 })).toEqual([]);
    expect(config.strategies[1]?.params).toEqual({});
    expect(config.orphans).toBe('cancel');
    expect(config.shutdown).toEqual({ cancelOpenOrders: true, timeoutMs: 8000 });
    expect(config.journal).toEqual({ durability: 'os' });
    expect(config.health).toEqual({ host: '127.0.0.1', port: 0, allowedHosts: [], maxConnections: 64, maxConnectionsPerAddress: 16 });
    expect(config.follower).toEqual({ key: 'copy-trading', credentials: { apiKey: COPY_KEY, apiSecret: expect.any(String) } });
    expect(config.log).toEqual({ level: 'debug', summaryEveryMs: 60_000 });
  });

  it('locates later mistakes, such as a strategy param its schema refuses', () => {
    const config = load(FULL);
    const error = config.errorAt('expected a number', ['strategies', 0, 'params', 'size']);
    expect(error.location).toEqual({ file: config.file, line: 33, column: 36, path: 'strategies[0].params.size' });
  });

  it('fills every default from an empty file (paper mode on the packaged simulator)', () => {
    const config = load('{}\n');
    expect(config.venue).toMatchObject({ mode: 'paper', simConfigFile: SIM_YML, key: 'trader' });
    expect(config.stateDir).toBe(join(dir, 'state'));
    expect(config.market).toEqual([]);
    expect(config.strategies).toEqual([]);
    expect(config.jobs).toEqual({ listenKeyKeepalive: '*/30 * * * *', exchangeInfoRefresh: '0 * * * *', reconcile: '*/5 * * * *', dailyReset: '0 0 * * *' });
    expect(config.userStream).toEqual({ pingEveryMs: 20_000, pongTimeoutMs: 10_000, backoff: { initialMs: 500, maxMs: 30_000 } });
    expect(config.shutdown).toEqual({ cancelOpenOrders: false, timeoutMs: 10_000 });
    expect(config.health).toEqual({ host: '127.0.0.1', port: 9464, allowedHosts: [], maxConnections: 64, maxConnectionsPerAddress: 16 });
    expect(config.orphans).toBe('adopt');
    expect(config.follower).toBeUndefined();
    expect(config.catalog).toEqual({ kind: 'sim' });
    expect(config.log.level).toBe('info');
    expect(config.journal).toEqual({ durability: 'disk' });
  });

  it('takes the state directory from the flag, else STRATD_STATE_DIR, else the file, else ./state', () => {
    const text = 'stateDir: from-file\n';
    expect(load(text, { stateDirFlag: 'from-flag', env: { STRATD_STATE_DIR: '/from/env' } }).stateDir).toBe(join(dir, 'from-flag'));
    expect(load(text, { env: { STRATD_STATE_DIR: '/from/env' } }).stateDir).toBe('/from/env');
    expect(load(text).stateDir).toBe(join(dir, 'from-file'));
    expect(load('mode: paper\n', { cwd: '/work/x' }).stateDir).toBe('/work/x/state');
  });

  it('ignores the exchange section and its unset variables in paper mode', () => {
    const config = load('mode: paper\nexchange:\n  baseUrl: ${NOT_SET_URL}\n  apiKey: ${NOT_SET_KEY}\n');
    expect(config.venue.mode).toBe('paper');
  });
});

describe('loadDaemonConfig: live mode', () => {
  const LIVE = `mode: live
exchange:
  baseUrl: \${BASE_URL:-https://api.example.com}
  streamUrl: wss://stream.example.com
  apiKey: \${LIVE_KEY}
  apiSecret: \${LIVE_SECRET}
  recvWindowMs: 3000
  follower:
    apiKey: \${FOLLOW_KEY}
    apiSecret: \${FOLLOW_SECRET}
catalog:
  baseUrl: https://catalog.example.com
  token: \${CATALOG_TOKEN}
${MARKET}jobs: { catalogSync: "*/15 * * * *" }
follower: {}
`;
  const ENV = { LIVE_KEY: 'k1', LIVE_SECRET: 's1', FOLLOW_KEY: 'fk', FOLLOW_SECRET: 'fs', CATALOG_TOKEN: 'tok' };

  it('reads the keys from the environment variables the file names', () => {
    const config = load(LIVE, { env: ENV });
    expect(config.venue).toEqual({
      mode: 'live',
      baseUrl: 'https://api.example.com',
      streamUrl: 'wss://stream.example.com',
      credentials: { apiKey: 'k1', apiSecret: 's1' },
      recvWindowMs: 3000,
      timeoutMs: 10_000,
      rateLimitShare: 0.8,
      http: 'socket',
    });
    expect(config.follower).toEqual({ credentials: { apiKey: 'fk', apiSecret: 'fs' } });
    expect(config.catalog).toEqual({ kind: 'service', baseUrl: 'https://catalog.example.com', token: 'tok', timeoutMs: 10_000 });
    expect(load(LIVE, { env: { ...ENV, BASE_URL: 'https://other.example.com' } }).venue).toMatchObject({ baseUrl: 'https://other.example.com' });
    // exchange.http chooses the REST client's HTTP stack.
    expect(load(LIVE.replace('exchange:\n', 'exchange:\n  http: got\n'), { env: ENV }).venue).toMatchObject({ http: 'got' });
    expect(load(LIVE.replace('exchange:\n', 'exchange:\n  http: node\n'), { env: ENV }).venue).toMatchObject({ http: 'node' });
    expect(load(LIVE.replace('exchange:\n', 'exchange:\n  http: undici\n'), { env: ENV }).venue).toMatchObject({ http: 'undici' });
  });

  it('falls back to STRATD_API_KEY / STRATD_API_SECRET, and to key files relative to the file', () => {
    const bare = 'mode: live\nexchange: { baseUrl: "https://api.example.com", streamUrl: "wss://s.example.com" }\n';
    expect(load(bare, { env: { STRATD_API_KEY: 'ek', STRATD_API_SECRET: 'es' } }).venue).toMatchObject({ credentials: { apiKey: 'ek', apiSecret: 'es' } });
    writeFileSync(join(dir, 'key.txt'), 'file-key\n', { mode: 0o600 });
    writeFileSync(join(dir, 'secret.txt'), 'file-secret\n', { mode: 0o400 });
    const files = 'mode: live\nexchange: { baseUrl: "https://api.example.com", streamUrl: "wss://s.example.com", apiKeyFile: key.txt, apiSecretFile: ./secret.txt }\n';
    expect(load(files).venue).toMatchObject({ credentials: { apiKey: 'file-key', apiSecret: 'file-secret' } });
  });

  it('a missing credential variable names the file, line, column and path', () => {
    const { error, file } = failure(LIVE, { env: { ...ENV, LIVE_SECRET: '' } });
    expect(error.location).toEqual({ file, line: 6, column: 14, path: 'exchange.apiSecret' });
    expect(error.message).toBe(`${file}:6:14: exchange.apiSecret: environment variable LIVE_SECRET is not set`);
  });

  it('no keys at all is an error at the exchange section', () => {
    const { error } = failure('mode: live\nexchange: { baseUrl: "https://api.example.com", streamUrl: "wss://s.example.com" }\n');
    expect(error.location).toMatchObject({ line: 2, path: 'exchange' });
    expect(error.reason).toContain('STRATD_API_KEY');
  });

  it('refuses a secret written in the YAML body without echoing it', () => {
    const { error } = failure('mode: live\nexchange:\n  baseUrl: https://api.example.com\n  streamUrl: wss://s.example.com\n  apiKey: hunter2-key\n');
    expect(error.location).toMatchObject({ line: 5, column: 11, path: 'exchange.apiKey' });
    expect(error.message).toContain('never read from the YAML body');
    expect(error.message).not.toContain('hunter2');
  });

  it('live mode needs an exchange section with a stream URL', () => {
    expect(failure('mode: live\n').error.location).toMatchObject({ line: 1, path: 'mode' });
    const { error } = failure('mode: live\nexchange: { baseUrl: "https://api.example.com" }\n', { env: { STRATD_API_KEY: 'k', STRATD_API_SECRET: 's' } });
    expect(error.location).toMatchObject({ line: 2, path: 'exchange' });
    expect(error.reason).toContain('streamUrl');
  });

  it('catalogSync without a catalog is an error in live mode', () => {
    const { error } = failure('mode: live\nexchange: { baseUrl: "https://a.example.com", streamUrl: "wss://s.example.com" }\njobs:\n  catalogSync: "0 * * * *"\n', {
      env: { STRATD_API_KEY: 'k', STRATD_API_SECRET: 's' },
    });
    expect(error.location).toMatchObject({ line: 4, column: 16, path: 'jobs.catalogSync' });
  });
});

describe('loadDaemonConfig: each mistake names the file, line, column and path', () => {
  it('an unknown top-level key', () => {
    const { error, file } = failure('mode: paper\nstrategy: []\n');
    expect(error.location).toEqual({ file, line: 2, column: 11, path: 'strategy' });
    expect(error.reason).toBe('unknown key "strategy"');
  });

  it('an unknown nested key', () => {
    const { error } = failure('market:\n  - symbol: BTC-SWAP-USDT\n    depht: { every: 1s }\n');
    expect(error.location).toMatchObject({ line: 3, column: 12, path: 'market[0].depht' });
  });

  it('a bad cron expression', () => {
    const { error, file } = failure('jobs:\n  reconcile: "*/5 * * *"\n');
    expect(error.location).toEqual({ file, line: 2, column: 14, path: 'jobs.reconcile' });
    expect(error.reason).toContain('not a cron expression');
    expect(failure('jobs:\n  dailyReset: "0 61 * * *"\n').error.reason).toContain('hour');
  });

  it('a bad duration', () => {
    const { error } = failure('market:\n  - symbol: BTC-SWAP-USDT\n    trades: { every: 5 seconds }\n');
    expect(error.location).toMatchObject({ line: 3, column: 22, path: 'market[0].trades.every' });
    expect(error.reason).toContain('not a duration');
    expect(failure('shutdown: { timeout: 10 }\n').error.location).toMatchObject({ line: 1, path: 'shutdown.timeout' });
    expect(failure('userStream: { pingEvery: 1ms }\n').error.reason).toContain('out of range');
  });

  it('a duplicate strategy id', () => {
    const { error } = failure(`${MARKET}strategies:\n  - { id: a1, module: m, symbols: [BTC-SWAP-USDT] }\n  - { id: a1, module: m, symbols: [ETH-SWAP-USDT] }\n`);
    expect(error.location).toMatchObject({ line: 16, column: 11, path: 'strategies[1].id' });
    expect(error.reason).toContain('duplicate strategy id "a1"');
  });

  it('a strategy symbol that is not in market', () => {
    const { error } = failure(`${MARKET}strategies:\n  - id: a1\n    module: m\n    symbols: [BTC-SWAP-USDT, BTC-SWAP-USDC]\n`);
    expect(error.location).toMatchObject({ line: 17, column: 30, path: 'strategies[0].symbols[1]' });
    expect(error.reason).toContain('BTC-SWAP-USDC is not in market');
  });

  it('a bad strategy id, decimal, depth limit and kline interval', () => {
    expect(failure(`${MARKET}strategies:\n  - { id: Big_One, module: m, symbols: [BTC-SWAP-USDT] }\n`).error.location).toMatchObject({ line: 15, path: 'strategies[0].id' });
    expect(failure('risk:\n  maxNotional: lots\n').error.location).toMatchObject({ line: 2, column: 16, path: 'risk.maxNotional' });
    expect(failure('risk:\n  maxPosition: -1\n').error.reason).toContain('greater than 0');
    expect(failure('risk:\n  priceBandPct: 101\n').error.location).toMatchObject({ path: 'risk.priceBandPct' });
    expect(failure('market:\n  - symbol: X\n    depth: { every: 1s, limit: 7 }\n').error.location).toMatchObject({ line: 3, path: 'market[0].depth.limit' });
    expect(failure('market:\n  - symbol: X\n    klines: { every: 1s, intervals: [1m, 2m] }\n').error.location).toMatchObject({ path: 'market[0].klines.intervals[1]' });
  });

  it('a strategy risk block does not take the global dailyLossLimit', () => {
    const { error } = failure(`${MARKET}strategies:\n  - id: a1\n    module: m\n    symbols: [BTC-SWAP-USDT]\n    risk: { dailyLossLimit: 5 }\n`);
    expect(error.location).toMatchObject({ line: 18, path: 'strategies[0].risk.dailyLossLimit' });
  });

  it('an unset variable outside the unused section', () => {
    const { error } = failure('health:\n  host: ${NO_SUCH_HOST}\n');
    expect(error.location).toMatchObject({ line: 2, column: 9, path: 'health.host' });
    expect(error.reason).toBe('environment variable NO_SUCH_HOST is not set');
  });

  it('a sim key that does not exist or cannot trade; a follower key that is not copy-trading', () => {
    expect(failure('sim:\n  key: nobody\n').error.location).toMatchObject({ line: 2, column: 8, path: 'sim.key' });
    expect(failure('sim:\n  key: read-only\n').error.reason).toContain('cannot trade');
    expect(failure('follower:\n  key: trader\n').error.location).toMatchObject({ line: 2, path: 'follower.key' });
  });

  it('a duplicate market symbol', () => {
    expect(failure('market:\n  - symbol: X\n  - symbol: X\n').error.location).toMatchObject({ line: 3, path: 'market[1].symbol' });
  });

  it('an invalid simulator config is located in that file', () => {
    const simFile = join(dir, 'bad-sim.yml');
    writeFileSync(simFile, 'seed: -1\n');
    const { error } = failure(`sim:\n  config: bad-sim.yml\n`);
    expect(error.location).toMatchObject({ file: simFile, line: 1, path: 'seed' });
  });

  it('a file that cannot be read or is not YAML', () => {
    expect(loadDaemonConfig(join(dir, 'absent.yml'), { env: {} })).toMatchObject({ ok: false });
    expect(failure('market: [\n').error.location).toMatchObject({ line: 2 });
  });
});
