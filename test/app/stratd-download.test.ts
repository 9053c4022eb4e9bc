import { execFile, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { download } from '../../src/recording/download/downloader.js';
import type { DownloadRequest } from '../../src/recording/download/plan.js';
import { systemTime } from '../../src/core/system-time.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';

/** `stratd download` against a `stratd sim --history` on loopback, and `stratd backtest` of what it wrote. */

const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const MINUTE = 60_000;
const PAGE = 40;

interface SimInfo {
  readonly baseUrl: string;
  readonly adminToken: string;
}

let sim: { readonly info: SimInfo; readonly stop: () => Promise<number | null> };
const dir = mkdtempSync(join(tmpdir(), 'stratd-download-'));
let request: DownloadRequest;

async function startSim(args: readonly string[]): Promise<typeof sim> {
  const child = spawn(process.execPath, [BIN, 'sim', '--json', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`stratd sim exited with ${String(code)}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { info: JSON.parse(first) as SimInfo, stop: async () => (child.kill('SIGTERM'), exited) };
}

/** The simulator's request counters by route and status (its wire traffic as it saw it). */
async function requestCounts(): Promise<Map<string, number>> {
  const text = await (await fetch(`${sim.info.baseUrl}/metrics`, { headers: { authorization: `Bearer ${sim.info.adminToken}` } })).text();
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/^(stratd_sim_(?:requests|rate_limited)_total)\{([^}]*)\} (\d+)/gm)) counts.set(`${match[1]}{${match[2]}}`, Number(match[3]));
  return counts;
}

beforeAll(async () => {
  sim = await startSim(['--history', '3h']);
  const time = (await (await fetch(`${sim.info.baseUrl}/api/v1/time`)).json()) as { serverTime: number };
  const now = Math.floor(time.serverTime / MINUTE) * MINUTE;
  // 130 one-minute bars, well inside the simulator's history: more than three pages of 40.
  request = { symbols: ['BTC-SWAP-USDT'], from: now - 150 * MINUTE, to: now - 20 * MINUTE, interval: '1m', channels: ['contract', 'mark', 'index', 'funding', 'trades'], pageSize: PAGE };
}, 120_000);

afterAll(async () => {
  expect(await sim.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

const fileA = join(dir, 'a.jsonl');

test('downloads a range in pages through the rate governor (no 429) into a recording whose header marks the bar-level channels', async () => {
  const args = ['download', '--base-url', sim.info.baseUrl, '--symbols', 'BTC-SWAP-USDT', '--from', String(request.from), '--to', String(request.to), '--out', fileA, '--page-size', String(PAGE)];
  const { stdout } = await run(process.execPath, [BIN, ...args]);
  expect(stdout).toContain(`wrote ${fileA}`);
  expect(existsSync(`${fileA}.part`)).toBe(false);

  const [headerLine, ...lines] = readFileSync(fileA, 'utf8').trim().split('\n');
  const header = JSON.parse(headerLine!) as Record<string, unknown>;
  expect(header).toMatchObject({ source: 'download', symbols: ['BTC-SWAP-USDT'], channels: ['bar', 'funding', 'trade'], levels: { bar: 'bar', trade: 'sparse' }, barMs: MINUTE, startTime: request.from });
  const events = lines.map((l) => JSON.parse(l) as { e: string; t: number; k?: string });
  for (const source of ['contract', 'mark', 'index']) {
    const times = events.filter((e) => e.e === 'bar' && e.k === source).map((e) => e.t);
    expect(times).toEqual(Array.from({ length: 130 }, (_, i) => request.from + i * MINUTE));
  }

  const counts = await requestCounts();
  // ceil(130 / 40) = 4 pages of each kline route, all answered 200; nothing refused by a rate limit.
  expect(counts.get('stratd_sim_requests_total{route="GET /quote/v1/klines",status="200"}')).toBe(4);
  expect(counts.get('stratd_sim_requests_total{route="GET /quote/v1/markPrice/klines",status="200"}')).toBe(4);
  expect(counts.get('stratd_sim_requests_total{route="GET /quote/v1/index/klines",status="200"}')).toBe(4);
  expect([...counts.keys()].filter((k) => k.startsWith('stratd_sim_rate_limited_total') || /status="4\d\d"/.test(k))).toEqual([]);
}, 120_000);

test('interrupted midway (and torn after a page), the same download resumes and writes the same bytes as the uninterrupted one', async () => {
  const fileB = join(dir, 'b.jsonl');
  const client = new ExchangeClient({ baseUrl: sim.info.baseUrl, time: systemTime });
  const controller = new AbortController();
  const first = await download({
    api: client.market,
    request,
    out: fileB,
    time: systemTime,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.rows >= 3 * PAGE) controller.abort();
    },
  });
  expect(first).toEqual({ ok: true, value: { kind: 'interrupted', parts: `${fileB}.part` } });
  expect(existsSync(fileB)).toBe(false);
  // A kill between a page's append and its checkpoint leaves lines the state does not account for.
  appendFileSync(join(`${fileB}.part`, 'BTC-SWAP-USDT.contract.jsonl'), '{"e":"bar","t":1,"s":"BTC-SW');

  const progress: boolean[] = [];
  const second = await download({ api: client.market, request, out: fileB, time: systemTime, onProgress: (p) => progress.push(p.resumed) });
  expect(second.ok && second.value.kind).toBe('written');
  expect(progress.every((resumed) => resumed)).toBe(true);
  expect(existsSync(`${fileB}.part`)).toBe(false);
  expect(readFileSync(fileB)).toEqual(readFileSync(fileA));
}, 120_000);

test('stratd backtest replays the download with the trend strategy trading, and says its fills are bar-modelled', async () => {
  const out = join(dir, 'backtest');
  const { stdout } = await run(process.execPath, [BIN, 'backtest', '--config', join(process.cwd(), 'config', 'strategies', 'trend.yml'), '--data', fileA, '--out', out], { maxBuffer: 16 * 1024 * 1024 });
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { total: { fills: number }; strategies: Record<string, { fills: number }>; fillModel?: string };
  expect(summary.strategies['trend-btc']?.fills).toBeGreaterThan(0);
  expect(summary.fillModel).toMatch(/^fills are bar-modelled/);
  expect(stdout).toContain('fills are bar-modelled');
  expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('fills are bar-modelled');
}, 180_000);
