import type { Page } from 'puppeteer-core';

/** Reading a report.html (src/backtest/report-*.ts) in a headless browser. */

/** The fill markers' colours of the page's script: the first run's (a backtest, or parity's paper run) and the second's (parity's backtest). */
export const MARKER_COLORS = {
  buy: [0x16, 0xa3, 0x4a],
  sell: [0xdc, 0x26, 0x26],
  buy2: [0x25, 0x63, 0xeb],
  sell2: [0xd9, 0x77, 0x06],
} as const satisfies Record<string, readonly [number, number, number]>;

/** What the page's script says a chart holds (`window.stratdReport.tabs[id]`), read back from the chart library. */
export interface PriceChart {
  readonly kind: 'price';
  readonly symbol: string;
  readonly candles: number;
  readonly markers: number;
  readonly buys: number;
  readonly sells: number;
  readonly stops: number;
}
export type ChartInfo = PriceChart | { readonly kind: 'equity' | 'drawdown'; readonly points: number };

/** The charts of a tab, once drawn (none before). */
export function chartsOf(page: Page, tab: string): Promise<ChartInfo[]> {
  return inPage(page, `window.stratdReport.tabs[${JSON.stringify(tab)}] || []`);
}

/** Runs `expression` in the page (the test's tsconfig has no DOM types: the page's code is text). */
export async function inPage<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

/**
 * Reads `read` until `ok` holds or `timeoutMs` passed, and answers the last reading. The chart library
 * paints on animation frames, so a page that says its charts are drawn may not have painted them yet.
 */
export async function painted<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() >= giveUpAt) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Pixels of a symbol's chart canvases within a few levels of `rgb` (the markers' colours are used by nothing else). */
export function pixelsOf(page: Page, symbol: string, rgb: readonly [number, number, number]): Promise<number> {
  return inPage(
    page,
    `(() => {
      const [r, g, b] = ${JSON.stringify(rgb)};
      const figure = [...document.querySelectorAll('section.pane:not([hidden]) figure')].find((f) => f.querySelector('figcaption b')?.textContent === ${JSON.stringify(symbol)});
      let n = 0;
      for (const canvas of figure ? figure.querySelectorAll('canvas') : []) {
        const context = canvas.getContext('2d');
        if (context === null || canvas.width === 0 || canvas.height === 0) continue;
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < pixels.length; i += 4) if (Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) < 12) n++;
      }
      return n;
    })()`,
  );
}

