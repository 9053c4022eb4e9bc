import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerBacktestCommand } from '../../src/app/commands/backtest.js';
import { silentLogger } from '../../src/core/logger.js';
import { OUTPUT_FILES } from '../../src/report/outputs.js';
import { MarketStreamReader } from '../../src/sim/market-stream/reader.js';
import { tempDir } from './backtest-support.js';

/** data/sample-market.jsonl.gz (scripts/make-sample-recording.mjs) and what `npm run backtest` does with it. */
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const SYMBOLS = ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'];

const tmp = tempDir();
afterAll(() => tmp.remove());

test('the sample recording is at most 3 MB and reads as a valid two-symbol recording of a few hours', async () => {
  expect(statSync(SAMPLE).size).toBeLessThanOrEqual(3 * 1024 * 1024);
  const warnings: string[] = [];
  const reader = await MarketStreamReader.open(SAMPLE, { onWarning: (w) => warnings.push(w.message) });
  expect(reader.header.symbols).toEqual(SYMBOLS);
  const seen = new Map<string, number>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let previous = Number.NEGATIVE_INFINITY;
  let outOfOrder = 0;
  for await (const event of reader) {
    if (event.ts < previous) outOfOrder += 1;
    previous = event.ts;
    first = Math.min(first, event.ts);
    last = event.ts;
    seen.set(`${event.symbol} ${event.type}`, (seen.get(`${event.symbol} ${event.type}`) ?? 0) + 1);
  }
  await reader.close();
  expect(warnings).toEqual([]);
  expect(outOfOrder).toBe(0);
  const hours = (last - first) / 3_600_000;
  expect(hours).toBeGreaterThanOrEqual(2);
  expect(hours).toBeLessThanOrEqual(6);
  for (const symbol of SYMBOLS) for (const type of ['depth', 'trade', 'mark']) expect(seen.get(`${symbol} ${type}`)).toBeGreaterThan(1000);
});

test('`stratd backtest` of config/default.yml on a slice of the sample writes every output, report.html included; the last --out wins', async () => {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command().name('stratd').exitOverride();
  registerBacktestCommand(program, {
    env: {},
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    tty: false,
    wallClock: { now: () => 0 },
    logger: silentLogger,
    defaultSimConfig: join(process.cwd(), 'config', 'sim.yml'),
  });
  // As `npm run backtest -- --out DIR` passes it: the script's own --out first, the user's after.
  const args = ['backtest', '--config', 'config/default.yml', '--data', SAMPLE, '--out', tmp.path('default-out'), '--to', '2026-01-01T00:10:00Z', '--out', tmp.path('chosen')];
  await program.parseAsync(args, { from: 'user' });
  expect(code).toBe(0);
  expect(errs.filter((e) => e.includes('warning') || e.includes('error'))).toEqual([]);
  expect(existsSync(tmp.path('default-out'))).toBe(false);
  for (const name of OUTPUT_FILES) expect(existsSync(tmp.path(`chosen/${name}`))).toBe(true);
  expect(OUTPUT_FILES).toContain('report.html');
  const summary = JSON.parse(readFileSync(tmp.path('chosen/summary.json'), 'utf8')) as { total: { fills: number }; strategies: Record<string, unknown>; range: { toIso: string } };
  expect(Object.keys(summary.strategies).sort()).toEqual(['breakout-eth', 'quoter-btc']);
  expect(summary.total.fills).toBeGreaterThan(0);
  expect(summary.range.toIso <= '2026-01-01T00:10:00.000Z').toBe(true);
  const report = readFileSync(tmp.path('chosen/report.html'), 'utf8');
  expect(report).toContain('<div class="chart" data-chart="equity"></div>');
  expect(report).toContain('quoter-btc');
  expect(out.join('')).toContain(tmp.path('chosen/report.html'));
}, 120_000);
