import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import type { Browser } from 'puppeteer-core';
import { registerSweepCommand } from '../../src/app/commands/sweep.js';
import { heatmapAxesOf, heatmapHtml } from '../../src/sweep/report.js';
import type { SweepAxis, SweepRow } from '../../src/sweep/types.js';
import { ConfigError } from '../../src/settings/config-error.js';
import { launchBrowser, withPage } from '../support/browser.js';
import { inPage } from '../support/report-page.js';
import { tempDir, writeGenerated } from './backtest-support.js';

/** The sweep's report.html: a heat map of the ranked metric over two swept settings, one cell per pair of values. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const ARTIFACTS = join(process.cwd(), '.ci', 'artifacts');

const tmp = tempDir();
afterAll(() => tmp.remove());
let browser: Browser | undefined;
afterAll(async () => browser?.close());

async function sweep(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  let wall = 0;
  const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerSweepCommand(program, {
    env: {},
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    wallClock: { now: () => (wall += 1000) },
    defaultSimConfig: SIM_YML,
  });
  try {
    await program.parseAsync(['sweep', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (!(error instanceof ConfigError)) throw error;
    errs.push(`stratd: ${error.message}\n`);
    code = 2;
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

test('`stratd sweep` writes report.html with a heat map of one cell per combination of the two chosen settings', async () => {
  const recording = await writeGenerated(tmp.path('market.jsonl'), 5, 2);
  const grid = tmp.path('grid.yml');
  writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [2, 5, 8], requoteBps: [2, 4] }\n');
  const out = tmp.path('out');
  const ran = await sweep(['--data', recording, '--grid', grid, '--workers', '0', '--out', out, '--heatmap', 'requoteBps,halfSpreadBps']);
  expect(ran.stderr).not.toContain('stratd:');
  expect(ran.code).toBe(0);
  const report = join(out, 'report.html');
  expect(ran.stdout).toContain(`wrote ${report}`);
  mkdirSync(ARTIFACTS, { recursive: true });
  browser ??= await launchBrowser();
  await withPage(browser, pathToFileURL(report).href, '.heatmap', async ({ page, requests, errors }) => {
    const cells = await inPage<Array<{ x: string; y: string; combination: string; text: string; background: string }>>(
      page,
      `[...document.querySelectorAll('.heatmap .cell')].map((c) => ({ x: c.dataset.x, y: c.dataset.y, combination: c.dataset.combination, text: c.textContent, background: getComputedStyle(c).backgroundColor }))`,
    );
    // requoteBps across (2 values), halfSpreadBps down (3 values): 6 cells, each one combination.
    expect(cells).toHaveLength(6);
    expect(new Set(cells.map((c) => `${c.x},${c.y}`)).size).toBe(6);
    expect(cells.map((c) => Number(c.combination)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const csv = readFileSync(join(out, 'sweep.csv'), 'utf8').trimEnd().split('\n').slice(1).map((line) => line.split(','));
    // sweep.csv: combination, halfSpreadBps, requoteBps, netPnl, …: each cell shows its combination's netPnl.
    for (const cell of cells) {
      const row = csv.find((r) => r[0] === cell.combination)!;
      expect(['2', '4'][Number(cell.x)]).toBe(row[2]);
      expect(['2', '5', '8'][Number(cell.y)]).toBe(row[1]);
      expect(cell.text).toBe(row[3]);
    }
    // Coloured by rank: not all the same.
    expect(new Set(cells.map((c) => c.background)).size).toBeGreaterThan(1);
    expect(await inPage<number>(page, `document.querySelectorAll('table[data-table="ranked"] tr').length - 1`)).toBe(6);
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(report).href]);
    await page.screenshot({ path: join(ARTIFACTS, 'report-sweep.png') });
  });
}, 180_000);

const axes: SweepAxis[] = [
  { strategy: 'a', section: 'params', key: 'fast', values: [1, 2] },
  { strategy: 'a', section: 'params', key: 'slow', values: [10, 20, 30] },
  { strategy: 'b', section: 'risk', key: 'maxPosition', values: ['5', '10'] },
  { strategy: 'b', section: 'params', key: 'fast', values: [3] },
];

test('--heatmap names two swept settings by column name or unique key; the default is the first two', () => {
  expect(heatmapAxesOf(axes, undefined)).toEqual({ ok: true, value: { x: 0, y: 1 } });
  expect(heatmapAxesOf(axes.slice(0, 1), undefined)).toEqual({ ok: true, value: { x: 0 } });
  expect(heatmapAxesOf(axes, 'maxPosition,a.params.slow')).toEqual({ ok: true, value: { x: 2, y: 1 } });
  const messages = ['fast,slow', 'slow', 'slow,slow', 'slow,luck'].map((flag) => {
    const parsed = heatmapAxesOf(axes, flag);
    return parsed.ok ? '' : parsed.error.message;
  });
  expect(messages[0]).toContain('fast is the key of more than one swept setting');
  expect(messages[1]).toContain('two swept settings, comma-separated (of a.params.fast, a.params.slow, b.risk.maxPosition, b.params.fast)');
  expect(messages[2]).toContain('two different swept settings');
  expect(messages[3]).toContain('luck is not swept');
});

test('with more than two axes each cell holds the best combination over the others', () => {
  const rows: SweepRow[] = [];
  let index = 0;
  for (const fast of [1, 2]) {
    for (const slow of [10, 20, 30]) {
      for (const maxPosition of ['5', '10']) {
        const pnl = fast * 100 + slow + (maxPosition === '10' ? 1 : 0);
        rows.push({ index: index++, values: [fast, slow, maxPosition, 3], metrics: { netPnl: String(pnl), return: 0, maxDrawdown: 0, sharpe: null, sortino: null, orders: 1, fills: 1, fees: '0', fillsSha256: '' } });
      }
    }
  }
  const html = heatmapHtml(axes, rows, 'netPnl', { x: 0, y: 1 });
  const cells = [...html.matchAll(/<div class="cell" data-x="(\d)" data-y="(\d)" data-combination="(\d+)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2], m[3], m[4]]);
  expect(cells).toHaveLength(6);
  // fast=2, slow=30: the best is maxPosition 10 (231), combination 12.
  expect(cells).toContainEqual(['1', '2', '12', '231']);
  expect(cells).toContainEqual(['0', '0', '2', '111']);
  expect(html).toContain('the best netPnl over the other swept settings');
});
