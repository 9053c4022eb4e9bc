import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import type { Browser } from 'puppeteer-core';
import { registerBacktestCommand } from '../../src/app/commands/backtest.js';
import { silentLogger } from '../../src/core/logger.js';
import { MAX_TABLE_ROWS } from '../../src/report/html.js';
import { launchBrowser, withPage } from '../support/browser.js';
import type { PriceChart } from '../support/report-page.js';
import { chartsOf, inPage, MARKER_COLORS, painted, pixelsOf } from '../support/report-page.js';
import { tempDir } from './backtest-support.js';

/**
 * report.html of `stratd backtest` on the shipped sample (its first 30 minutes), opened in a real
 * headless Chromium: the chart library draws candles and every fill for each symbol, the tables stay
 * short while the CSVs hold everything, the strategy tabs switch, and nothing is fetched. Screenshots
 * go to .ci/artifacts/ (gitignored; CI collects it).
 */
/** Relative, as `npm run backtest` names it (the page shows it). */
const SAMPLE = join('data', 'sample-market.jsonl.gz');
const ARTIFACTS = join(process.cwd(), '.ci', 'artifacts');
const SYMBOLS = ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'];

const tmp = tempDir();
afterAll(() => tmp.remove());

interface Fill {
  readonly strategy: string;
  readonly symbol: string;
  readonly side: string;
}

let report: string;
let fills: Fill[];
let browser: Browser | undefined;
afterAll(async () => browser?.close());

beforeAll(async () => {
  const errs: string[] = [];
  let code = 0;
  const program = new Command().name('stratd').exitOverride();
  registerBacktestCommand(program, {
    env: {},
    out: () => undefined,
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    tty: false,
    wallClock: { now: () => 0 },
    logger: silentLogger,
    defaultSimConfig: join(process.cwd(), 'config', 'sim.yml'),
  });
  await program.parseAsync(['backtest', '--config', 'config/default.yml', '--data', SAMPLE, '--to', '2026-01-01T00:30:00Z', '--out', tmp.path('out'), '--no-cache'], { from: 'user' });
  expect(code).toBe(0);
  expect(errs.filter((e) => e.includes('warning') || e.includes('error'))).toEqual([]);
  report = tmp.path('out/report.html');
  const lines = readFileSync(tmp.path('out/fills.csv'), 'utf8').trimEnd().split('\n');
  const columns = lines[0]!.split(',');
  const at = (name: string): number => columns.indexOf(name);
  fills = lines.slice(1).map((line) => {
    const cells = line.split(',');
    return { strategy: cells[at('strategy')]!, symbol: cells[at('symbol')]!, side: cells[at('side')]! };
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
}, 120_000);


test('every symbol gets a candle chart with each of its fills marked, drawn by the inlined chart library; nothing is fetched', async () => {
  expect(new Set(fills.map((f) => f.symbol))).toEqual(new Set(SYMBOLS));
  await withPage(browser!, pathToFileURL(report).href, '[data-charts-drawn]', async ({ page, requests, errors }) => {
    const charts = await chartsOf(page, 'all');
    expect(charts.map((c) => c.kind)).toEqual(['price', 'price', 'equity', 'drawdown']);
    for (const c of charts) if (c.kind !== 'price') expect(c.points).toBeGreaterThanOrEqual(30);
    const prices = charts.filter((c): c is PriceChart => c.kind === 'price');
    expect(prices.map((c) => c.symbol)).toEqual(SYMBOLS);
    for (const chart of prices) {
      const own = fills.filter((f) => f.symbol === chart.symbol);
      // 30 minutes of 1-minute candles.
      expect(chart.candles).toBeGreaterThanOrEqual(29);
      expect(chart.candles).toBeLessThanOrEqual(31);
      expect(chart.buys).toBe(own.filter((f) => f.side === 'BUY').length);
      expect(chart.sells).toBe(own.filter((f) => f.side === 'SELL').length);
      // The library's markers: one per fill, plus the TP/SL triggers (placed, and hit).
      expect(chart.markers).toBeGreaterThanOrEqual(own.length + chart.stops);
      expect(await painted(() => pixelsOf(page, chart.symbol, MARKER_COLORS.buy), (n) => n > 20)).toBeGreaterThan(20);
      expect(await painted(() => pixelsOf(page, chart.symbol, MARKER_COLORS.sell), (n) => n > 20)).toBeGreaterThan(20);
    }
    // The breakout strategy attaches TP/SL to its entries; the quoter none.
    expect(prices.find((c) => c.symbol === 'ETH-SWAP-USDT')!.stops).toBeGreaterThan(0);
    expect(prices.find((c) => c.symbol === 'BTC-SWAP-USDT')!.markers).toBe(fills.filter((f) => f.symbol === 'BTC-SWAP-USDT').length);
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(report).href]);
    await page.screenshot({ path: join(ARTIFACTS, 'report-backtest.png') });
  });
}, 120_000);

test('the tables hold at most the first rows and name the CSV with all of them', async () => {
  expect(fills.length).toBeGreaterThan(MAX_TABLE_ROWS);
  await withPage(browser!, pathToFileURL(report).href, '[data-charts-drawn]', async ({ page }) => {
    const shown = await inPage<number[]>(page, `[...document.querySelectorAll('table[data-table="fills"]')].map((t) => t.querySelectorAll('tr').length - 1)`);
    // One fills table per tab: all strategies, then each strategy.
    expect(shown).toHaveLength(3);
    for (const rows of shown) expect(rows).toBeLessThanOrEqual(MAX_TABLE_ROWS);
    expect(shown[0]).toBe(MAX_TABLE_ROWS);
    const note = await inPage<string>(page, `document.querySelector('section.pane:not([hidden]) p.note')?.textContent ?? ''`);
    expect(note).toBe(`Showing the first ${MAX_TABLE_ROWS} of ${fills.length} fills; fills.csv (beside this page) holds them all.`);
  });
}, 120_000);

test("a strategy's tab shows only its own symbols and fills, drawn when it is first opened", async () => {
  await withPage(browser!, pathToFileURL(report).href, '[data-charts-drawn]', async ({ page }) => {
    expect(await chartsOf(page, 'breakout-eth')).toEqual([]);
    await page.click('button.tab[data-tab="breakout-eth"]');
    await page.waitForSelector('section.pane[data-pane="breakout-eth"][data-drawn]', { timeout: 30_000 });
    const visible = await inPage<string[]>(page, `[...document.querySelectorAll('section.pane')].filter((p) => !p.hidden).map((p) => p.getAttribute('data-pane'))`);
    expect(visible).toEqual(['breakout-eth']);
    const charts = await chartsOf(page, 'breakout-eth');
    const prices = charts.filter((c): c is PriceChart => c.kind === 'price');
    expect(prices.map((c) => c.symbol)).toEqual(['ETH-SWAP-USDT']);
    // Only breakout-eth trades ETH: its fills, and those of the orders its TP/SL made when they fired
    // (placed by the exchange, so fills.csv names no strategy for them).
    const own = fills.filter((f) => f.symbol === 'ETH-SWAP-USDT');
    expect(own.filter((f) => f.strategy !== 'breakout-eth' && f.strategy !== '')).toEqual([]);
    expect(own.length).toBeGreaterThan(0);
    expect(prices[0]!.buys + prices[0]!.sells).toBe(own.length);
    expect(await inPage<string>(page, `document.querySelector('button.tab[aria-selected="true"]')?.getAttribute('data-tab')`)).toBe('breakout-eth');
    await page.screenshot({ path: join(ARTIFACTS, 'report-backtest-strategy.png') });
  });
}, 120_000);
