#!/usr/bin/env node
// Regenerates data/sample-market.jsonl.gz, the small recording `npm run backtest` replays: the simulator's
// seeded synthetic market (BTC-SWAP-USDT and ETH-SWAP-USDT), written from the compiled sources, so run
// `npm run build` first. Same seed and settings give the same file byte for byte.
// Usage: node scripts/make-sample-recording.mjs [OUT] [HOURS]
import { fileURLToPath } from 'node:url';

const dist = (path) => new URL(`../dist/src/sim/market-stream/${path}`, import.meta.url).href;
const { MarketGenerator } = await import(dist('generator.js'));
const { MarketStreamWriter } = await import(dist('writer.js'));
const { BTC_SWAP_USDT, ETH_SWAP_USDT } = await import(dist('instruments.js'));

export const SAMPLE_SEED = 20260101;
/** 2026-01-01T00:00:00Z. */
export const SAMPLE_START = 1_767_225_600_000;

const target = process.argv[2] ?? fileURLToPath(new URL('../data/sample-market.jsonl.gz', import.meta.url));
const hours = Number(process.argv[3] ?? '3');
const generator = new MarketGenerator({
  seed: SAMPLE_SEED,
  startTime: SAMPLE_START,
  instruments: [BTC_SWAP_USDT, ETH_SWAP_USDT],
  depthIntervalMs: 1000,
  depthLevels: 5,
  markIntervalMs: 1000,
  indexIntervalMs: 5000,
});
const writer = MarketStreamWriter.open(target, generator.header(), { flush: 'buffered', gzipLevel: 9 });
let events = 0;
for (const event of generator.eventsUntil(SAMPLE_START + hours * 3_600_000)) {
  writer.write(event);
  events += 1;
}
await writer.close();
process.stdout.write(`wrote ${target}: ${events} events, ${hours} h from ${new Date(SAMPLE_START).toISOString()}\n`);
