import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import type { DaemonStatus } from '../../../src/app/control/status.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { silentLogger } from '../../../src/core/logger.js';
import { systemTime } from '../../../src/core/system-time.js';
import { launchBrowser } from '../../support/browser.js';
import { defaultYaml, writeConfig } from './daemon-harness.js';

/**
 * `npm start`'s daemon (config/default.yml as shipped: paper trading on the embedded simulator, the two
 * example strategies, real time) watched and steered through /ui in a real headless Chromium. The
 * daemon's state is read from /status; screenshots go to .ci/artifacts/dashboard/ (gitignored).
 */
const ARTIFACTS = join(process.cwd(), '.ci', 'artifacts', 'dashboard');
const FILL_DEADLINE_MS = 60_000;

let dir: string;
let daemon: Daemon;
let browser: Browser;
let token: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'stratd-dashboard-'));
  ({ daemon, token } = await startPaper());
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function status(on: { readonly daemon: Daemon; readonly token: string } = { daemon, token }): Promise<DaemonStatus> {
  const reply = await fetch(`${on.daemon.health.url}/status`, { headers: { authorization: `Bearer ${on.token}` } });
  expect(reply.status).toBe(200);
  return (await reply.json()) as DaemonStatus;
}

/** Polls /status until `check` holds (the daemon runs on real time), with a deadline. */
async function statusUntil(check: (s: DaemonStatus) => boolean, what: string, limitMs = 15_000, on: { readonly daemon: Daemon; readonly token: string } = { daemon, token }): Promise<DaemonStatus> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const s = await status(on);
    if (check(s)) return s;
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(s.killSwitch)} ${JSON.stringify(s.strategies.map((x) => [x.id, x.state]))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startPaper(edit?: { readonly from: string; readonly to: string }): Promise<{ daemon: Daemon; token: string; stateDir: string }> {
  const stateDir = mkdtempSync(join(dir, 'state-'));
  const prepared = await prepareRun({ config: writeConfig(stateDir, 'stratd.yml', defaultYaml(stateDir, edit)) }, {});
  if (!prepared.ok) throw prepared.error;
  const started = await Daemon.start({ ...prepared.value, time: systemTime, logger: silentLogger, env: {}, hangup: null });
  if (!started.ok) throw started.error;
  return { daemon: started.value, token: readFileSync(join(stateDir, 'control.token'), 'utf8').trim(), stateDir };
}

async function openPage(on: Daemon = daemon): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1400 });
  await page.goto(`${on.health.url}/ui`, { waitUntil: 'load' });
  return page;
}

async function signIn(page: Page, value: string): Promise<void> {
  await page.waitForSelector('#token-form', { visible: true });
  await page.type('#token-input', value);
  await page.click('#token-form button');
  await page.waitForSelector('body[data-connected="true"]');
}

describe('the dashboard of a paper daemon in a headless browser', () => {
  it('refuses data and actions without the token: a raw request with a wrong one, and the page before one is entered', async () => {
    const wrong = { authorization: 'Bearer not-the-token-not-the-token-xx', 'content-type': 'application/json' };
    expect((await fetch(`${daemon.health.url}/ui/events`, { headers: wrong })).status).toBe(401);
    expect((await fetch(`${daemon.health.url}/control/halt`, { method: 'POST', headers: wrong, body: '{}' })).status).toBe(401);

    const page = await openPage();
    try {
      await page.waitForSelector('#token-form', { visible: true });
      expect(await page.$eval('#board', (el) => el.hasAttribute('hidden'))).toBe(true);
      // A request from the page without the token is refused too (four failures in all here: the
      // fifth from one address would make it wait, see auth-throttle.ts).
      const fromPage = await page.evaluate(async () => (await fetch('/control/halt', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
      expect(fromPage).toBe(401);
      // A wrong token typed in: refused, forgotten, the form again.
      await page.type('#token-input', 'a-wrong-token-a-wrong-token-a-wrong');
      await page.click('#token-form button');
      await page.waitForFunction("(document.getElementById('login-error')?.textContent ?? '').includes('401')");
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      expect(page.url()).toBe(`${daemon.health.url}/ui`);
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-login.png') });
    } finally {
      await page.close();
    }
    const s = await status();
    expect(s.killSwitch.engaged).toBe(false);
    expect(s.strategies.every((st) => st.state === 'running')).toBe(true);
  }, 120_000);

  it('with the token it shows the bot trading live (a fill, candles with fill markers) and halts, resumes, stops and starts through its buttons', async () => {
    const page = await openPage();
    try {
      await signIn(page, token);
      // The token stays in the tab's session storage, never in the URL: a reload connects again by itself.
      expect(page.url()).toBe(`${daemon.health.url}/ui`);
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector('body[data-connected="true"]');

      await page.waitForSelector('#feed tr[data-kind="fill"]', { timeout: FILL_DEADLINE_MS });
      await page.waitForSelector('.chart[data-markers]:not([data-markers="0"])', { timeout: FILL_DEADLINE_MS });
      const charts = await page.$$eval('.chart[data-symbol]', (els) => els.map((el) => ({ symbol: el.getAttribute('data-symbol'), candles: Number(el.getAttribute('data-candles')) })));
      expect(charts.map((c) => c.symbol).sort()).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
      expect(charts.every((c) => c.candles >= 1)).toBe(true);
      expect(await page.$$eval('#strategies tbody tr', (rows) => rows.map((r) => r.getAttribute('data-strategy')).sort())).toEqual(['breakout-eth', 'quoter-btc']);
      expect((await status()).strategies.some((st) => (st.today?.fills ?? 0) > 0)).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });

      await page.type('#halt-reason', 'halted from the dashboard test');
      await page.click('#halt-button');
      const halted = await statusUntil((s) => s.killSwitch.engaged, 'the halt');
      expect(halted.killSwitch.reason).toBe('halted from the dashboard test');
      await page.waitForSelector('body[data-kill-switch="engaged"]');
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-halted.png'), fullPage: true });

      await page.click('#resume-button');
      await statusUntil((s) => !s.killSwitch.engaged, 'the resume');
      await page.waitForSelector('body[data-kill-switch="off"]');

      await page.click('#strategies tr[data-strategy="breakout-eth"] button[data-action="stop"]');
      await statusUntil((s) => s.strategies.find((st) => st.id === 'breakout-eth')?.state === 'stopped', 'breakout-eth stopped');
      await page.waitForSelector('#strategies tr[data-strategy="breakout-eth"] button[data-action="start"]');
      await page.click('#strategies tr[data-strategy="breakout-eth"] button[data-action="start"]');
      await statusUntil((s) => s.strategies.find((st) => st.id === 'breakout-eth')?.state === 'running', 'breakout-eth running again');
    } finally {
      await page.close();
    }
  }, 150_000);

  it('after a daily-loss halt, Resume asks for the override reason and lifts the halt with it for the rest of the day', async () => {
    // A loss limit the first fill's fee breaks.
    const tight = await startPaper({ from: 'dailyLossLimit: 2000', to: 'dailyLossLimit: 0.01' });
    const page = await openPage(tight.daemon);
    try {
      await signIn(page, tight.token);
      const halted = await statusUntil((s) => s.killSwitch.dailyLoss === true, 'the daily-loss halt', FILL_DEADLINE_MS, tight);
      expect(halted.killSwitch.engaged).toBe(true);
      await page.waitForSelector('#override-reason', { visible: true });

      await page.click('#resume-button');
      await page.waitForFunction("(document.getElementById('action-result')?.textContent ?? '').includes('give a reason')");
      expect((await status(tight)).killSwitch.engaged).toBe(true);

      await page.type('#override-reason', 'checked by the dashboard test');
      await page.click('#resume-button');
      const resumed = await statusUntil((s) => !s.killSwitch.engaged, 'the override', 15_000, tight);
      expect(resumed.killSwitch.override?.reason).toBe('checked by the dashboard test');
      await page.waitForSelector('body[data-kill-switch="off"]');
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-daily-loss-override.png'), fullPage: true });
    } finally {
      await page.close();
      await tight.daemon.stop();
    }
  }, 150_000);
});
