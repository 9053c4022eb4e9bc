import type { Browser } from 'puppeteer-core';
import { pathToFileURL } from 'node:url';
import { dec } from '../../src/core/decimal.js';
import type { BacktestResult } from '../../src/backtest/backtest-runner.js';
import { runBacktest } from '../../src/backtest/backtest-runner.js';
import { writeBacktestOutputs } from '../../src/backtest/outputs.js';
import type { PriceSeries } from '../../src/backtest/report-data.js';
import { thin } from '../../src/backtest/report-data.js';
import { escapeHtml, reportHtml, scriptJson } from '../../src/backtest/report-html.js';
import { priceSeriesOf } from '../../src/backtest/report-prices.js';
import type { StrategyInstance } from '../../src/engine/strategy-instance.js';
import breakout from '../../strategies/breakout/index.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { launchBrowser, renderedDom } from '../support/browser.js';
import { ACCOUNT, tempDir, writeGenerated } from './backtest-support.js';

/** report.html: self-contained, deterministic, escaped, and drawn by a real headless chromium. */
const SVG_NS = 'http://www.w3.org/2000/svg';

const tmp = tempDir();
afterAll(() => tmp.remove());

function examples(): StrategyInstance[] {
  return [
    { id: 'quoter-btc', symbols: ['BTC-SWAP-USDT'], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } },
    { id: 'breakout-eth', symbols: ['ETH-SWAP-USDT'], definition: breakout, params: breakout.params.parse({ quantity: 10, windowMs: 20_000 }), limits: { maxPosition: dec(50) } },
  ];
}

let result: BacktestResult;
let prices: PriceSeries[];
beforeAll(async () => {
  const recording = await writeGenerated(tmp.path('market.jsonl'), 7, 8);
  const run = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings: [recording], account: ACCOUNT });
  if (!run.ok) throw run.error;
  result = run.value;
  prices = await priceSeriesOf([recording]);
});

let browser: Browser | undefined;
afterAll(async () => browser?.close());

async function dumpDom(file: string): Promise<string> {
  browser ??= await launchBrowser();
  return renderedDom(browser, pathToFileURL(file).href, '[data-charts-drawn]');
}

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

test('a headless browser draws the equity, drawdown and per-symbol price charts with every fill marked', async () => {
  expect(result.fills.length).toBeGreaterThan(5);
  const [, , , , report] = writeBacktestOutputs(tmp.path('out'), result, { prices });
  expect(report).toBe(tmp.path('out/report.html'));
  const symbols = [...new Set([...prices.map((p) => p.symbol), ...result.fills.map((f) => f.symbol)])];
  expect(symbols.sort()).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);

  const dom = await dumpDom(report!);
  expect(dom).toContain(`data-charts-drawn="${2 + symbols.length}"`);
  expect(count(dom, /<svg /g)).toBe(2 + symbols.length);
  const paths = [...dom.matchAll(/<path d="([^"]*)" class="line"/g)].map((m) => m[1]!);
  expect(paths).toHaveLength(2 + symbols.length);
  for (const d of paths) expect(count(d, /[ML]-?\d/g)).toBeGreaterThan(2);
  expect(count(dom, /class="fill-marker buy"/g)).toBe(result.fills.filter((f) => f.side === 'BUY').length);
  expect(count(dom, /class="fill-marker sell"/g)).toBe(result.fills.filter((f) => f.side === 'SELL').length);
  expect(count(dom, /class="fill-marker /g)).toBe(result.fills.length);
}, 90_000);

test('the page loads nothing: no URL but the SVG namespace, no src or href attributes', () => {
  const html = reportHtml(result, prices);
  const urls = [...html.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi)].map((m) => m[0]);
  expect(urls.filter((u) => u !== SVG_NS)).toEqual([]);
  expect(html).not.toMatch(/\b(src|href)\s*=/i);
  expect(html).not.toMatch(/@import|url\(/i);
  expect(html).not.toMatch(/<link\b/i);
});

test('the same result gives the same bytes', () => {
  expect(reportHtml(result, prices)).toBe(reportHtml(result, prices));
});

test('text is escaped: nothing from a result can open markup or close the data script', () => {
  const hostile = '</script><img src=x onerror="alert(1)">&';
  const tampered: BacktestResult = { ...result, summary: { ...result.summary, warnings: [hostile], recordings: [{ path: hostile, events: 1 }] } };
  const html = reportHtml(tampered, [{ symbol: hostile, source: hostile, points: [[1, 2]] }]);
  expect(html).not.toContain('<img');
  expect(html).toContain(escapeHtml(hostile));
  expect(count(html, /<\/script>/g)).toBe(2);
  expect(escapeHtml(`<a href='x'>&"`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&quot;');
  expect(scriptJson({ s: '</script>\u2028' })).toBe('{"s":"\\u003c/script\\u003e\\u2028"}');
});

test('long tables are cut with a note; long series are thinned but keep their last point', () => {
  const many = Array.from({ length: 600 }, () => result.fills[0]!);
  const html = reportHtml({ ...result, fills: many }, prices);
  expect(html).toContain('Showing the first 500 of 600 fills');
  const series = Array.from({ length: 4999 }, (_, i) => i);
  const thinned = thin(series, 1000);
  expect(thinned.length).toBeLessThanOrEqual(1001);
  expect(thinned[0]).toBe(0);
  expect(thinned[thinned.length - 1]).toBe(4998);
});

test('price series: mark prices per symbol, sorted, within the range', () => {
  expect(prices.map((p) => p.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
  for (const p of prices) {
    expect(p.source).toBe('mark price');
    expect(p.points.length).toBeGreaterThan(100);
    const times = p.points.map(([t]) => t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  }
});
