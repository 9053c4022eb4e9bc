import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { corpusFile } from '../../venue/corpus/corpus.js';
import { CorpusServer } from './corpus-server.js';
import { sample, scrape } from './metrics-scrape.js';
import { startDaemon, writeConfig } from './daemon-harness.js';
import { runFor, runUntil } from './virtual-steps.js';

/**
 * Issue 16's done-when: a live-mode daemon whose exchange answers with real replies (the wire corpus,
 * not the simulator) starts, loads its instruments and polls without error. The exchangeInfo is the
 * real one whose spot LIMIT_TRADING filter lacks maxEntrustNum/maxConditionNum; funding rows have no
 * `period`; the 24h ticker has a row without b/a.
 */

const BTC = 'BTC-SWAP-USDT';
const NEVER = '0 0 29 2 *';

function liveCorpusYaml(stateDir: string): string {
  return `mode: live
stateDir: ${stateDir}
exchange:
  baseUrl: \${TEST_BASE_URL}
  streamUrl: \${TEST_STREAM_URL}
  apiKey: \${TEST_API_KEY}
  apiSecret: \${TEST_API_SECRET}
  recvWindowMs: 60000
  timeoutMs: 3000
market:
  - symbol: ${BTC}
    fundingRate: { every: 1s }
    ticker24h: { every: 1s }
    markPrice: { every: 1s }
userStream: { pingEvery: 20s, pongTimeout: 2m, backoff: { initial: 500ms, max: 4s } }
jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}" }
orphans: adopt
shutdown: { cancelOpenOrders: false, timeout: 10s }
health: { host: 127.0.0.1, port: 0 }
log: { level: silent }
`;
}

let dir: string;
let clock: VirtualClock;
let server: CorpusServer;
let daemon: Daemon | undefined;

/** The real exchangeInfo (issue 16), and with a second contract that lacks contractMultiplier added. */
const REAL_INFO = corpusFile('exchange-info.json').samples[1]?.reply as { contracts: Array<Record<string, unknown>> };
let info: unknown = REAL_INFO;

async function start(): Promise<Daemon> {
  const file = writeConfig(dir, 'live.yml', liveCorpusYaml(join(dir, 'state')));
  const d = await startDaemon(file, clock, [], { TEST_BASE_URL: server.baseUrl, TEST_STREAM_URL: server.streamUrl, TEST_API_KEY: 'corpus-key', TEST_API_SECRET: 'corpus-secret' });
  daemon = d;
  return d;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-live-corpus-'));
  clock = new VirtualClock();
  info = REAL_INFO;
  server = await CorpusServer.start(clock, {
    'GET /api/v1/exchangeInfo': () => info,
    'GET /api/v1/futures/balance': ['futures-balance.json', 0],
    'GET /api/v1/account': ['spot-account.json', 0],
    'GET /api/v1/futures/balanceFlow': ['futures-balance-flow-v1.json', 0],
    'GET /api/v2/futures/history-orders': ['history-orders-v2.json', 0],
    'GET /api/v2/futures/history-algo-orders': ['history-algo-orders-v2.json', 0],
    'GET /api/v1/futures/positions': ['positions.json', 1],
    'GET /api/v2/futures/open-orders': ['open-orders-v2.json', 1],
    'GET /api/v2/futures/open-algo-orders': () => ({ code: 200, msg: 'success', data: [] }),
    'GET /api/v1/futures/fundingRate': ['funding-rate.json', 3],
    'GET /quote/v1/contract/ticker/24hr': ['contract-ticker-24hr.json', 1],
    'GET /quote/v1/markPrice': ['mark-price.json', 0],
    'POST /api/v1/listenKey': ['listen-key.json', 0],
    'PUT /api/v1/listenKey': () => ({}),
    'DELETE /api/v1/listenKey': () => ({}),
  });
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a live-mode daemon against real replies (loopback corpus server)', () => {
  it('starts, loads its instruments from the real exchangeInfo and polls funding, ticker and mark price without error', async () => {
    const d = await start();

    const instrument = d.kernel.cache.instrument(BTC);
    expect(instrument === undefined ? undefined : [instrument.tickSize.toFixed(), instrument.qtyStep.toFixed(), instrument.maxOpenOrders]).toEqual(['0.1', '0.1', 100000]);
    expect(d.kernel.cache.balance('USDT')?.walletBalance.toFixed()).toBe('10.07317715');

    await runUntil(clock, () => d.kernel.cache.fundingRate(BTC) !== undefined && server.count('GET /quote/v1/contract/ticker/24hr') >= 2 && d.readiness().healthy, 'funding, tickers and readiness');
    await runFor(clock, 3_000);
    expect(d.kernel.cache.fundingRate(BTC)?.toFixed()).toBe('0.0018099173553719');
    expect(d.kernel.cache.markPrice(BTC)?.toFixed()).toBe('17042.54471');

    const status = d.status();
    expect(status.lastErrors).toEqual({});
    expect(status.components.market.failures).toBe(0);
    expect(status.components.market.polls).toBeGreaterThanOrEqual(6);
    expect(status.components.reconciliation?.ok).toBe(true);
    expect(server.unknown).toEqual([]);
    // Nothing of the real replies was left out.
    expect((await scrape(d.health.url)).filter((m) => m.name === 'stratd_wire_rows_skipped_total' && m.value > 0)).toEqual([]);
  });

  it('a contract stratd cannot read is skipped and counted; the daemon still starts with the others', async () => {
    const broken: Record<string, unknown> = { ...REAL_INFO.contracts[0], symbol: 'XYZ-SWAP-USDT' };
    delete broken['contractMultiplier'];
    info = { ...REAL_INFO, contracts: [...REAL_INFO.contracts, broken] };
    const d = await start();
    expect(d.kernel.cache.instrument(BTC)?.tickSize.toFixed()).toBe('0.1');
    expect(d.kernel.cache.instrument('XYZ-SWAP-USDT')).toBeUndefined();
    expect(sample(await scrape(d.health.url), 'stratd_wire_rows_skipped_total', { endpoint: 'GET /api/v1/exchangeInfo' })).toBe(1);
  });
});
