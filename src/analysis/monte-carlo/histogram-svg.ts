import { escapeHtml } from '../../report/page.js';

const WIDTH = 360;
const HEIGHT = 140;
const PAD = { left: 8, right: 8, top: 8, bottom: 30 };

/**
 * A histogram as plain inline SVG (no script needed): `values` in at most 24 equal bins between their
 * least and greatest, and a red line at `marker` (the backtest's own value) when it falls in that range.
 */
export function histogramSvg(title: string, values: readonly number[], marker: number | null, format: (v: number) => string): string {
  const label = escapeHtml(title);
  if (values.length === 0) return `<figure><figcaption>${label}: no values</figcaption></figure>`;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const bins = Math.max(1, Math.min(24, Math.ceil(Math.sqrt(values.length))));
  const width = max > min ? (max - min) / bins : 1;
  const counts: number[] = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
  const top = Math.max(...counts);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const barW = plotW / bins;
  const n = (x: number): string => x.toFixed(1);
  const bars = counts.map((c, i) => {
    const h = (c / top) * plotH;
    return `<rect x="${n(PAD.left + i * barW + 1)}" y="${n(PAD.top + plotH - h)}" width="${n(Math.max(1, barW - 2))}" height="${n(h)}" fill="#2563eb"><title>${escapeHtml(`${format(min + i * width)} … ${format(min + (i + 1) * width)}: ${c}`)}</title></rect>`;
  });
  const span = max - min;
  const line =
    marker === null || marker < min || marker > max
      ? ''
      : `<line x1="${n(PAD.left + (span === 0 ? plotW / 2 : ((marker - min) / span) * plotW))}" x2="${n(PAD.left + (span === 0 ? plotW / 2 : ((marker - min) / span) * plotW))}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#dc2626" stroke-width="2"/>`;
  const axis = `<text x="${PAD.left}" y="${HEIGHT - 10}" font-size="11" fill="#566">${escapeHtml(format(min))}</text><text x="${WIDTH - PAD.right}" y="${HEIGHT - 10}" font-size="11" fill="#566" text-anchor="end">${escapeHtml(format(max))}</text>`;
  const note = marker === null ? '' : `; red: the backtest (${escapeHtml(format(marker))})`;
  return `<figure style="display:inline-block;margin-right:12px"><figcaption>${label} · ${values.length} scenarios${note}</figcaption><svg width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" data-histogram="${label}">${bars.join('')}${line}${axis}</svg></figure>`;
}
