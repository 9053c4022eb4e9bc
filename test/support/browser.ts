import { existsSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

/**
 * A real headless Chromium for the tests, from npm alone: the one shipped inside @sparticuz/chromium
 * (it unpacks to the temp directory and runs as root without Debian's libraries), or a local one
 * named by CHROMIUM or found at Debian's path.
 */
const LOCAL_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

async function executable(): Promise<{ readonly path: string; readonly args: readonly string[] }> {
  const named = process.env['CHROMIUM'];
  if (named !== undefined && named !== '') return { path: named, args: [] };
  const local = LOCAL_CANDIDATES.find((p) => existsSync(p));
  if (local !== undefined) return { path: local, args: [] };
  return { path: await chromium.executablePath(), args: chromium.args };
}

export async function launchBrowser(): Promise<Browser> {
  const { path, args } = await executable();
  return puppeteer.launch({
    executablePath: path,
    headless: true,
    args: [...args, '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
}

/** Opens `url`, waits until `ready` (a CSS selector) is in the page, and returns the serialized DOM. */
export async function renderedDom(browser: Browser, url: string, ready: string, options: { readonly screenshot?: string; readonly timeoutMs?: number } = {}): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs ?? 30_000 });
    await page.waitForSelector(ready, { timeout: options.timeoutMs ?? 30_000 });
    if (options.screenshot !== undefined) await page.screenshot({ path: options.screenshot as `${string}.png`, fullPage: false });
    return await page.content();
  } finally {
    await page.close();
  }
}
