import { existsSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import type { Browser, Page } from 'puppeteer-core';
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

export interface OpenedPage {
  readonly page: Page;
  /** Every URL the page requested, the page's own included. */
  readonly requests: readonly string[];
  /** Uncaught errors of the page's scripts. */
  readonly errors: readonly string[];
}

/** Opens `url` in a new page, waits until `ready` (a CSS selector) is in it, runs `use`, and closes the page. */
export async function withPage<T>(browser: Browser, url: string, ready: string, use: (opened: OpenedPage) => Promise<T>): Promise<T> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error instanceof Error ? error.message : String(error)));
  try {
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForSelector(ready, { timeout: 30_000 });
    return await use({ page, requests, errors });
  } finally {
    await page.close();
  }
}
