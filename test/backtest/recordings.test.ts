import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { runBacktest } from '../../src/backtest/runner.js';
import type { BacktestOptions } from '../../src/backtest/runner.js';
import { lastEventTime } from '../../src/recording/span.js';
import { ETH_SWAP_USDT } from '../../src/sim/market-stream/instruments.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import { ACCOUNT, BTC, header, mark, scripted, standardMarket, T0, tempDir, trade, writeGenerated, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

function options(recordings: readonly string[], extra: Partial<BacktestOptions> = {}): BacktestOptions {
  return { strategies: [scripted('watcher').instance], risk: {}, recordings, account: ACCOUNT, ...extra };
}

/** A minute of hand-made market: the standard book, then a trade and a mark each second. */
function minute(): MarketEvent[] {
  const events = standardMarket();
  for (let s = 1; s <= 60; s++) events.push(trade(T0 + s * 1000, '100000', '1', s % 2 === 0 ? 'BUY' : 'SELL'), mark(T0 + s * 1000, '100000'));
  return events;
}

test('a recording of another format version is refused with a message naming the versions', async () => {
  const file = tmp.path('v2.jsonl');
  const line = JSON.stringify({ ...header(), version: 2 });
  writeFileSync(file, `${line}\n${JSON.stringify({ e: 'mark', t: T0, s: 'BTC-SWAP-USDT', p: '100000' })}\n`);
  const result = await runBacktest(options([file]));
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe('UNSUPPORTED_VERSION');
  expect(result.error.message).toBe(`${file}:1: recording format version 2 is not supported; this stratd reads version 1`);
});

test('a file that is not a market stream is refused', async () => {
  const file = tmp.path('notes.txt');
  writeFileSync(file, 'hello\n');
  const result = await runBacktest(options([file]));
  expect(result.ok ? undefined : result.error.code).toBe('NOT_A_MARKET_STREAM');
});

test('a torn last line (a recording cut short) is skipped with a warning; everything before it replays', async () => {
  const events = minute();
  const whole = await writeRecording(tmp.path('whole.jsonl'), events);
  const torn = tmp.path('torn.jsonl');
  writeFileSync(torn, readFileSync(whole));
  appendFileSync(torn, '{"e":"trade","t":1767225661000,"s":"BTC-SW');
  const warned: string[] = [];
  const result = await runBacktest(options([torn], { onWarning: (w) => warned.push(w.code) }));
  if (!result.ok) throw result.error;
  expect(warned).toEqual(['TORN_LAST_LINE']);
  expect(result.value.warnings).toHaveLength(1);
  expect(result.value.summary.warnings).toEqual([expect.stringContaining(`${torn}:${events.length + 2}: skipped the last line`)]);
  expect(result.value.summary.events).toBe(events.length);
  expect(await lastEventTime(torn)).toBe(T0 + 60_000);
});

test('a strategy trading a symbol no recording holds is refused before anything runs', async () => {
  const file = await writeRecording(tmp.path('btc-only.jsonl'), minute());
  const result = await runBacktest({ ...options([file]), strategies: [scripted('eth', undefined, [ETH_SWAP_USDT.symbol]).instance] });
  expect(result.ok ? undefined : result.error.code).toBe('UNKNOWN_SYMBOL');
});

test('--from and --to bound the replay: earlier events only warm up the book, later ones are not read', async () => {
  const file = await writeRecording(tmp.path('range.jsonl'), minute());
  const booksAtFirstEvent: boolean[] = [];
  const watcher = scripted('watcher', (ctx, _event, seen) => {
    if (seen.length === 1) booksAtFirstEvent.push(ctx.cache.book(BTC) !== undefined);
    return [];
  });
  const result = await runBacktest(options([file], { strategies: [watcher.instance], from: T0 + 10_000, to: T0 + 20_000 }));
  if (!result.ok) throw result.error;
  const { summary } = result.value;
  expect(summary.range).toMatchObject({ from: T0 + 10_000, to: T0 + 20_000 });
  // 11 seconds (10..20 inclusive), a trade and a mark each.
  expect(summary.events).toBe(22);
  const seen = watcher.seen.filter((s) => s.event.type.startsWith('market.')).map((s) => s.event.time);
  expect(Math.max(...seen)).toBe(T0 + 20_000);
  // The last book before --from reached the cache before the strategy started.
  expect(watcher.seen.some((s) => s.event.type === 'market.book')).toBe(false);
  expect(booksAtFirstEvent).toEqual([true]);
  const inverted = await runBacktest(options([file], { from: T0 + 20_000, to: T0 + 10_000 }));
  expect(inverted.ok ? undefined : inverted.error.code).toBe('BAD_RANGE');
});

test('a gzipped recording replays like the plain one', async () => {
  const plain = await writeGenerated(tmp.path('g.jsonl'), 5, 2);
  const gz = await writeGenerated(tmp.path('g.jsonl.gz'), 5, 2);
  const a = await runBacktest(options([plain]));
  const b = await runBacktest(options([gz]));
  if (!a.ok || !b.ok) throw new Error('backtest failed');
  expect(b.value.summary.events).toBe(a.value.summary.events);
  expect(await lastEventTime(gz)).toBe(await lastEventTime(plain));
});
