import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { Command, CommanderError } from 'commander';
import { registerBacktestCommand } from '../../src/app/commands/backtest.js';
import { registerSweepCommand } from '../../src/app/commands/sweep.js';
import { parseRecordings, runBacktest } from '../../src/backtest/runner.js';
import type { BacktestOptions, BacktestResult } from '../../src/backtest/runner.js';
import { OUTPUT_FILES, writeBacktestOutputs } from '../../src/report/outputs.js';
import { ParsedRecording } from '../../src/recording/parsed-recording.js';
import type { PreparedCacheEvent, PreparedCacheOptions } from '../../src/recording/prepared/index.js';
import { encodePrepared, fileSha256, PREPARED_VERSION, PreparedColumns, PreparedFormatError, PreparedRecording, preparedDirOf, preparedFileName } from '../../src/recording/prepared/index.js';
import { PREPARED_METADATA_KEY } from '../../src/recording/prepared/format.js';
import type { RecordingFeed } from '../../src/recording/feed.js';
import { RecordingFileFeed } from '../../src/recording/feed.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { BarEvent, MarketEvent } from '../../src/sim/market-stream/events.js';
import { bestAskPrice, bestBidPrice, eventAt } from '../../src/sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../src/sim/market-stream/format.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../src/sim/market-stream/instruments.js';
import { StepGrid } from '../../src/sim/market-stream/ticks.js';
import { ConfigError } from '../../src/settings/config-error.js';
import breakout from '../../strategies/breakout/index.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, depth, header, limitBuy, mark, once, scripted, T0, tempDir, trade, writeGenerated, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const ETH = 'ETH-SWAP-USDT';

function examples(): StrategyInstance[] {
  return [
    { id: 'quoter-btc', symbols: ['BTC-SWAP-USDT'], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } },
    { id: 'breakout-eth', symbols: [ETH], definition: breakout, params: breakout.params.parse({ quantity: 10, windowMs: 20_000 }), limits: { maxPosition: dec(50) } },
  ];
}

/** A cache whose every step is counted. */
function counted(extra: Partial<PreparedCacheOptions> = {}): { readonly options: PreparedCacheOptions; readonly events: PreparedCacheEvent[] } {
  const events: PreparedCacheEvent[] = [];
  return { options: { ...extra, onEvent: (event) => events.push(event) }, events };
}

async function backtest(recordings: readonly string[], extra: Partial<BacktestOptions> = {}): Promise<BacktestResult> {
  const result = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings, account: ACCOUNT, ...extra });
  if (!result.ok) throw result.error;
  return result.value;
}

/** summary.json, fills.csv, orders.csv and equity.csv byte for byte, and the fill hash. */
function expectSameOutputs(name: string, expected: BacktestResult, actual: BacktestResult): void {
  writeBacktestOutputs(tmp.path(`${name}-jsonl`), expected);
  writeBacktestOutputs(tmp.path(`${name}-prepared`), actual);
  expect(actual.summary.fillsSha256).toBe(expected.summary.fillsSha256);
  for (const file of OUTPUT_FILES) expect(readFileSync(tmp.path(`${name}-prepared/${file}`), 'utf8')).toBe(readFileSync(tmp.path(`${name}-jsonl/${file}`), 'utf8'));
}

async function drain(feed: RecordingFeed): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  await feed.load(Number.POSITIVE_INFINITY);
  while (feed.peekTime() !== undefined) {
    const event = feed.next();
    if (event.type === 'depth') {
      // A prepared depth event's best prices come from its columns, not its (lazily built) sides.
      expect([bestBidPrice(event), bestAskPrice(event)]).toEqual([event.bids[0]?.[0], event.asks[0]?.[0]]);
    }
    // Its fields read by name (a prepared depth event's sides and a trade's id are accessors): the plain event.
    events.push(eventAt(event, event.ts));
  }
  return events;
}

async function preparedFileOf(recording: string): Promise<string> {
  return join(preparedDirOf(recording), preparedFileName((await fileSha256(recording)).sha256));
}

/** Every event kind, and text the decoder must give back exactly: trailing zeros, an empty book side, a non-ASCII trade id, a negative funding rate. */
function everyKind(): MarketEvent[] {
  return [
    depth(T0, [['99999.90', '5'], ['99999.8', '10.50']], [['100000', '2']]),
    { type: 'index', ts: T0, symbol: 'BTC-SWAP-USDT', price: '99990.1' },
    { type: 'funding', ts: T0, symbol: 'BTC-SWAP-USDT', rate: '-0.000125', nextFundingTime: T0 + 28_800_000, period: '8H' },
    mark(T0 + 1, '100000.0'),
    { type: 'trade', ts: T0 + 2, symbol: 'BTC-SWAP-USDT', id: 'tü-7', price: '100000', qty: '0.1', buyerIsMaker: true },
    trade(T0 + 2, '100000.1', '3', 'BUY'),
    depth(T0 + 3, [], [['100000.5', '1']]),
    depth(T0 + 4, [['4400.01', '7']], [['4400.02', '9']], ETH),
    { type: 'funding', ts: T0 + 5, symbol: ETH, rate: '0.0001', nextFundingTime: T0 + 3_600_000, period: '1H' },
    { type: 'index', ts: T0 + 5, symbol: ETH, price: '4400' },
    mark(T0 + 6, '4400.015', ETH),
  ];
}

const MINUTE = 60_000;

/** A downloaded history's header (as `stratd download` writes it, test/app/stratd-download.test.ts): bars, sparse trades, marks, funding. */
function barHeader(): MarketStreamHeader {
  return { ...header([BTC_SWAP_USDT, ETH_SWAP_USDT]), channels: ['bar', 'funding', 'trade', 'mark'], source: 'download', levels: { bar: 'bar', trade: 'sparse' }, barMs: MINUTE };
}

function bar(minute: number, ohlc: readonly [string, string, string, string], volume: string, source: BarEvent['source'] = 'contract', symbol = BTC): BarEvent {
  const [open, high, low, close] = ohlc;
  return { type: 'bar', ts: T0 + minute * MINUTE, symbol, source, durationMs: MINUTE, open, high, low, close, volume };
}

/**
 * `minutes` of contract, mark and index bars of BTC and ETH (a BTC dip in minute 3 for a resting buy to
 * trade through), with sparse trades, marks and funding between them; text the decoder must give back
 * exactly (trailing zeros, a fractional volume, mark and index volume '0').
 */
function barMarket(minutes: number): MarketEvent[] {
  const events: MarketEvent[] = [{ type: 'funding', ts: T0, symbol: BTC, rate: '-0.000125', nextFundingTime: T0 + 28_800_000, period: '8H' }];
  for (let m = 0; m < minutes; m++) {
    const btc = 100_000 + 10 * (m % 4);
    const low = m === 3 ? '99800.0' : `${btc - 20}`;
    const eth = (4400 + m / 100).toFixed(2);
    events.push(
      bar(m, [`${btc}`, `${btc + 30}.5`, low, `${btc + 10}`], m % 2 === 0 ? '12.5' : '7'),
      bar(m, [`${btc}.0`, `${btc + 25}`, `${btc - 15}`, `${btc + 5}.10`], '0', 'mark'),
      bar(m, [`${btc - 1}`, `${btc + 20}`, `${btc - 10}`, `${btc}`], '0', 'index'),
      bar(m, [eth, `${eth}5`, '4399.5', eth], '310', 'contract', ETH),
      bar(m, [eth, eth, eth, eth], '0', 'mark', ETH),
    );
    if (m % 3 === 1) events.push(trade(T0 + m * MINUTE + 7_000, `${btc}.5`, '2', m % 2 === 0 ? 'BUY' : 'SELL'), mark(T0 + m * MINUTE + 9_000, `${btc + 1}.00`));
    if (m === 5) events.push({ type: 'funding', ts: T0 + m * MINUTE + 1, symbol: ETH, rate: '0.0001', nextFundingTime: T0 + 3_600_000, period: '1H' });
  }
  return events;
}

let sample: string;
beforeAll(() => {
  // A copy: the prepared form goes beside the recording, not into the repository's data/.
  sample = tmp.path('sample-market.jsonl.gz');
  copyFileSync(join(process.cwd(), 'data', 'sample-market.jsonl.gz'), sample);
});

describe('the prepared form of a recording', () => {
  it('gives the sample the same outputs as the JSONL: built on the first run, read on the second, file untouched', async () => {
    // Its first 10 minutes, some 160 fills of both strategies (the prepared form holds all of it): the whole sample takes minutes under jest.
    const slice = { to: T0 + 10 * 60_000 };
    const jsonl = await backtest([sample], slice);
    expect(jsonl.fills.length).toBeGreaterThan(10);
    const first = counted();
    expectSameOutputs('sample-built', jsonl, await backtest([sample], { ...slice, prepared: first.options }));
    expect(first.events.map((e) => e.type)).toEqual(['written']);
    const file = await preparedFileOf(sample);
    expect(first.events[0]).toMatchObject({ file });
    const written = statSync(file).mtimeMs;
    const second = counted();
    expectSameOutputs('sample-read', jsonl, await backtest([sample], { ...slice, prepared: second.options }));
    expect(second.events).toEqual([{ type: 'read', recording: sample, file }]);
    expect(statSync(file).mtimeMs).toBe(written);
  }, 240_000);

  it('hands out the JSONL decoder\'s events, counts and warnings for every kind, merged, cut at --to, torn last line included', async () => {
    const events = everyKind();
    const btc = await writeRecording(tmp.path('kinds-btc.jsonl'), events.filter((e) => e.symbol !== ETH), header([BTC_SWAP_USDT]));
    const eth = await writeRecording(tmp.path('kinds-eth.jsonl'), events.filter((e) => e.symbol === ETH), header([ETH_SWAP_USDT]));
    appendFileSync(btc, '{"e":"mark","t":');
    for (const to of [undefined, T0 + 4, T0 + 2]) {
      const paths = [btc, eth];
      const parsed = await ParsedRecording.parse(paths, to === undefined ? {} : { to });
      for (const pass of ['built', 'read']) {
        const cache = counted();
        const prepared = await PreparedRecording.load(paths, to, cache.options);
        if (pass === 'read') expect(cache.events.map((e) => e.type)).toEqual(['read', 'read']);
        expect(prepared.size).toBe(parsed.size);
        expect(prepared.warnings).toEqual(parsed.warnings);
        expect(prepared.instruments).toEqual(parsed.instruments);
        expect(prepared.headers).toEqual(parsed.headers);
        const expected = parsed.replay();
        const actual = prepared.replay();
        expect(await drain(actual)).toEqual(await drain(expected));
        expect(actual.counts()).toEqual(expected.counts());
        expect(actual.exhausted()).toBe(true);
      }
    }
    expect((await ParsedRecording.parse([btc, eth])).warnings).toHaveLength(1);
  });

  it('hands out each kind of event as one class from the JSONL, held or streamed, and from the prepared form', async () => {
    const events = everyKind();
    const btc = await writeRecording(tmp.path('classes-btc.jsonl'), events.filter((e) => e.symbol !== ETH), header([BTC_SWAP_USDT]));
    const eth = await writeRecording(tmp.path('classes-eth.jsonl'), events.filter((e) => e.symbol === ETH), header([ETH_SWAP_USDT]));
    const classes = async (feed: RecordingFeed): Promise<string[]> => {
      const out: string[] = [];
      await feed.load(Number.POSITIVE_INFINITY);
      while (feed.peekTime() !== undefined) {
        const event = feed.next();
        out.push(`${event.type}:${(event as object).constructor.name}`);
      }
      return out;
    };
    const paths = [btc, eth];
    const prepared = await classes((await PreparedRecording.load(paths, undefined, {})).replay());
    expect(prepared.filter((c) => c.startsWith('depth:') || c.startsWith('trade:'))).not.toHaveLength(0);
    expect(await classes((await ParsedRecording.parse(paths)).replay())).toEqual(prepared);
    const file = await RecordingFileFeed.open(paths);
    expect(await classes(file)).toEqual(prepared);
    await file.close();
  });

  it('tells each event\'s prices as units of a grid as converting its text does, undefined off the grid or on an empty side, from one recording or merged', async () => {
    const events = everyKind();
    const btc = await writeRecording(tmp.path('units-btc.jsonl'), events.filter((e) => e.symbol !== ETH), header([BTC_SWAP_USDT]));
    const eth = await writeRecording(tmp.path('units-eth.jsonl'), events.filter((e) => e.symbol === ETH), header([ETH_SWAP_USDT]));
    // The instruments' steps, a finer one (every price on it), a coarser one (most off it), and '0.10' (the step of '0.1' with two decimals).
    const grids = ['0.1', '0.01', '0.00001', '1000', '0.10'].map((step) => new StepGrid(step));
    const units = (grid: StepGrid, text: string | undefined): number | undefined => (text === undefined ? undefined : grid.tryUnits(text));
    for (const paths of [[btc], [eth], [btc, eth]]) {
      const feed = (await PreparedRecording.load(paths, undefined, {})).replay();
      let told = 0;
      while (feed.peekTime() !== undefined) {
        const event = feed.next();
        // Twice each: converted when first asked, then from the table.
        for (const grid of [...grids, ...grids]) {
          if (event.type === 'depth') {
            expect([feed.lastBestBidUnits?.(grid), feed.lastBestAskUnits?.(grid)]).toEqual([units(grid, bestBidPrice(event)), units(grid, bestAskPrice(event))]);
            told++;
          } else if (event.type === 'trade' || event.type === 'mark' || event.type === 'index') {
            expect(feed.lastPriceUnits?.(grid)).toBe(units(grid, event.price));
            told++;
          }
        }
      }
      expect(told).toBe(events.filter((e) => paths.length === 2 || (e.symbol === ETH) === (paths[0] === eth)).filter((e) => e.type !== 'funding').length * grids.length * 2);
    }
  });

  it('gives a generated market with every kind the same backtest outputs from either form, as the sweep\'s shared replay too', async () => {
    const generated = await writeGenerated(tmp.path('generated.jsonl'), 7, 6);
    const jsonl = await backtest([generated]);
    const shared = await parseRecordings([generated], undefined, counted().options);
    if (!shared.ok) throw shared.error;
    expect(shared.value).toBeInstanceOf(PreparedRecording);
    expectSameOutputs('generated-1', jsonl, await backtest([generated], { recording: shared.value }));
    expectSameOutputs('generated-2', jsonl, await backtest([generated], { recording: shared.value }));
  }, 120_000);

  it('gets a new key when the recording changes, and the old prepared file goes', async () => {
    const path = tmp.path('changing.jsonl');
    await writeRecording(path, [mark(T0, '1'), mark(T0 + 10, '2')]);
    const before = await preparedFileOf(path);
    await PreparedRecording.load([path], undefined, {});
    expect(existsSync(before)).toBe(true);
    await writeRecording(path, [mark(T0, '1'), mark(T0 + 10, '2'), mark(T0 + 20, '3')]);
    const after = await preparedFileOf(path);
    expect(after).not.toBe(before);
    const cache = counted();
    const recording = await PreparedRecording.load([path], undefined, cache.options);
    expect(cache.events).toEqual([{ type: 'written', recording: path, file: after }]);
    expect(recording.size).toBe(3);
    expect(readdirSync(preparedDirOf(path))).toEqual([preparedFileName((await fileSha256(path)).sha256)]);
  });

  it('ignores a corrupt or foreign prepared file with a warning and rebuilds it', async () => {
    const path = await writeRecording(tmp.path('corrupt.jsonl'), everyKind().filter((e) => e.symbol !== ETH));
    const other = await writeRecording(tmp.path('other.jsonl'), [mark(T0, '5')]);
    const expected = await drain((await ParsedRecording.parse([path])).replay());
    await PreparedRecording.load([other], undefined, {});
    const file = await preparedFileOf(path);
    const damages: ReadonlyArray<readonly [string, () => void]> = [
      ['garbage', () => writeFileSync(file, 'not arrow at all')],
      ['cut short', () => writeFileSync(file, readFileSync(file).subarray(0, 300))],
      ['another recording\'s', () => copyFileSync(join(preparedDirOf(other), readdirSync(preparedDirOf(other))[0]!), file)],
    ];
    await PreparedRecording.load([path], undefined, {});
    for (const [what, damage] of damages) {
      damage();
      const cache = counted();
      const recording = await PreparedRecording.load([path], undefined, cache.options);
      expect(cache.events.map((e) => e.type)).toEqual(['ignored', 'written']);
      expect(cache.events[0]).toMatchObject({ file, reason: expect.any(String) as string });
      expect(await drain(recording.replay())).toEqual(expected);
      const again = counted();
      await PreparedRecording.load([path], undefined, again.options);
      expect({ what, steps: again.events.map((e) => e.type) }).toEqual({ what, steps: ['read'] });
    }
  });

  it('falls back to another directory when the recording\'s own cannot take it', async () => {
    const path = await writeRecording(tmp.path('blocked.jsonl'), [mark(T0, '1')]);
    writeFileSync(preparedDirOf(path), 'a file where the cache directory would go');
    const fallbackDir = tmp.path('fallback-cache');
    const first = counted({ fallbackDir });
    await PreparedRecording.load([path], undefined, first.options);
    const file = join(fallbackDir, preparedFileName((await fileSha256(path)).sha256));
    expect(first.events).toEqual([{ type: 'written', recording: path, file }]);
    const second = counted({ fallbackDir });
    await PreparedRecording.load([path], undefined, second.options);
    expect(second.events).toEqual([{ type: 'read', recording: path, file }]);
    const nowhere = counted();
    expect((await PreparedRecording.load([path], undefined, nowhere.options)).size).toBe(1);
    expect(nowhere.events.map((e) => e.type)).toEqual(['unwritable']);
  });

  it('leaves a recording it cannot read to the JSONL reading, which reports it as before', async () => {
    const bad = tmp.path('bad.jsonl');
    writeFileSync(bad, `${readFileSync(await writeRecording(tmp.path('good.jsonl'), [mark(T0, '1')]), 'utf8')}{"e":"nope"}\n{"e":"mark","t":${T0 + 5},"s":"BTC-SWAP-USDT","p":"2"}\n`);
    const cache = counted();
    const result = await runBacktest({ strategies: [], risk: {}, recordings: [bad], account: ACCOUNT, prepared: cache.options });
    expect(result).toMatchObject({ ok: false, error: { code: 'BAD_LINE' } });
    expect(existsSync(preparedDirOf(bad))).toBe(false);
    // With --to before what is wrong, the outcome is the JSONL reading's, whatever it reads of the rest.
    const plain = await runBacktest({ strategies: [], risk: {}, recordings: [bad], account: ACCOUNT, to: T0 });
    const cached = await runBacktest({ strategies: [], risk: {}, recordings: [bad], account: ACCOUNT, to: T0, prepared: cache.options });
    expect(cached.ok).toBe(plain.ok);
    expect(cache.events).toEqual([]);
  });
});

describe('bar events in the prepared form', () => {
  let recording: string;
  beforeAll(async () => {
    recording = await writeRecording(tmp.path('bars.jsonl'), barMarket(12), barHeader());
  });

  it('hands out the JSONL decoder\'s bar events (and the trades, marks and funding among them) exactly, cut at --to too', async () => {
    for (const to of [undefined, T0 + 4 * MINUTE, T0 + 4 * MINUTE + 7_000]) {
      const parsed = await ParsedRecording.parse([recording], to === undefined ? {} : { to });
      for (const pass of ['built', 'read']) {
        const cache = counted();
        const prepared = await PreparedRecording.load([recording], to, cache.options);
        if (pass === 'read') expect(cache.events.map((e) => e.type)).toEqual(['read']);
        expect(prepared.headers).toEqual(parsed.headers);
        const replay = parsed.replay();
        const expected = await drain(replay);
        expect(expected.some((e) => e.type === 'bar' && e.source === 'index')).toBe(true);
        expect(new Set(expected.map((e) => e.type))).toEqual(new Set(['bar', 'trade', 'mark', 'funding']));
        const actual = prepared.replay();
        expect(await drain(actual)).toEqual(expected);
        expect(actual.counts()).toEqual(replay.counts());
      }
    }
  });

  it('gives a bar recording the same backtest outputs (bar-modelled fills, fill hash) from either form', async () => {
    const strategies = () => [scripted('dip-buyer', once(T0, limitBuy('99900'), 'market.kline')).instance, ...examples()];
    const options: Partial<BacktestOptions> = { strategies: strategies(), tickMs: 0, klines: [{ symbol: BTC, interval: '1m' }, { symbol: ETH, interval: '1m' }] };
    // Its own copy: the test above has already prepared `recording`.
    const path = await writeRecording(tmp.path('bars-backtest.jsonl'), barMarket(12), barHeader());
    const jsonl = await backtest([path], options);
    expect(jsonl.summary.fillModel).toMatch(/^fills are bar-modelled/);
    expect(jsonl.fills.length).toBeGreaterThan(0);
    for (const pass of ['built', 'read']) {
      const cache = counted();
      const prepared = await backtest([path], { ...options, strategies: strategies(), prepared: cache.options });
      expect(cache.events.map((e) => e.type)).toEqual([pass === 'built' ? 'written' : 'read']);
      expect(prepared.summary).toEqual(jsonl.summary);
      expect(prepared.fills).toEqual(jsonl.fills);
      expectSameOutputs(`bars-${pass}`, jsonl, prepared);
    }
  }, 120_000);

  it('rebuilds a prepared file of the version before bars (kind and symbol only) with a warning', async () => {
    const path = await writeRecording(tmp.path('old-version.jsonl'), barMarket(3), barHeader());
    const expected = await drain((await ParsedRecording.parse([path])).replay());
    await PreparedRecording.load([path], undefined, {});
    const file = await preparedFileOf(path);
    // What version 1 wrote: no bar columns, version 1 in the metadata.
    const current = tableFromIPC(readFileSync(file));
    const old = current.select(current.schema.fields.map((f) => f.name).filter((name) => !name.startsWith('bar_')));
    const metadata = JSON.parse(current.schema.metadata.get(PREPARED_METADATA_KEY)!) as Record<string, unknown>;
    old.schema.metadata.set(PREPARED_METADATA_KEY, JSON.stringify({ ...metadata, version: 1 }));
    writeFileSync(file, tableToIPC(old, 'file'));
    expect(PREPARED_VERSION).toBe(2);
    const cache = counted();
    const recording = await PreparedRecording.load([path], undefined, cache.options);
    expect(cache.events.map((e) => e.type)).toEqual(['ignored', 'written']);
    expect(cache.events[0]).toMatchObject({ file, reason: expect.stringContaining('version 1') as string });
    expect(await drain(recording.replay())).toEqual(expected);
    const again = counted();
    await PreparedRecording.load([path], undefined, again.options);
    expect(again.events).toEqual([{ type: 'read', recording: path, file }]);
  });

  it('checks bar rows on read as the JSONL reader checks bar lines', () => {
    const good = bar(0, ['100', '101', '99', '100.5'], '3');
    const decode = (event: BarEvent): PreparedColumns =>
      PreparedColumns.decode(encodePrepared({ header: barHeader(), events: [event], recordingSha256: 'x', recordingBytes: 1 }), 'x');
    expect(decode(good).event(0)).toEqual(good);
    const bad: ReadonlyArray<readonly [string, BarEvent]> = [
      ['source', { ...good, source: 'last' as BarEvent['source'] }],
      ['zero duration', { ...good, durationMs: 0 }],
      ['negative duration', { ...good, durationMs: -MINUTE }],
      ['open', { ...good, open: '-100' }],
      ['high', { ...good, high: '1e3' }],
      ['low', { ...good, low: '' }],
      ['close', { ...good, close: '100.' }],
      ['volume', { ...good, volume: 'NaN' }],
    ];
    for (const [what, event] of bad) {
      let thrown: unknown;
      try {
        decode(event);
      } catch (error) {
        thrown = error;
      }
      expect({ what, thrown: thrown instanceof PreparedFormatError }).toEqual({ what, thrown: true });
    }
    // A bar in a recording whose header does not declare the channel.
    expect(() => PreparedColumns.decode(encodePrepared({ header: header(), events: [good], recordingSha256: 'x', recordingBytes: 1 }), 'x')).toThrow(PreparedFormatError);
  });
});

describe('the CLI and the prepared form', () => {
  async function run(register: (program: Command) => void, args: readonly string[]): Promise<{ code: number; stderr: string }> {
    const errs: string[] = [];
    const program = new Command().name('stratd').exitOverride().configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
    register(program);
    try {
      await program.parseAsync(args, { from: 'user' });
      return { code: 0, stderr: errs.join('') };
    } catch (error: unknown) {
      if (error instanceof ConfigError || error instanceof CommanderError) return { code: 2, stderr: `${errs.join('')}${error.message}` };
      throw error;
    }
  }
  let wall = 0;
  const told: string[] = [];
  const deps = { env: {}, out: () => undefined, err: (text: string) => told.push(text), setExitCode: () => undefined, wallClock: { now: () => (wall += 1000) }, defaultSimConfig: SIM_YML };
  const backtestCli = (args: readonly string[]) => run((p) => registerBacktestCommand(p, { ...deps, tty: false, logger: silentLogger }), ['backtest', ...args]);
  const sweepCli = (args: readonly string[]) => run((p) => registerSweepCommand(p, deps), ['sweep', ...args]);

  it('stratd backtest --no-cache writes nothing beside the recording; without it the prepared form is written once and read after', async () => {
    const path = await writeGenerated(tmp.path('cli.jsonl'), 11, 2);
    expect(await backtestCli(['--data', path, '--out', tmp.path('cli-none'), '--no-cache'])).toMatchObject({ code: 0 });
    expect(existsSync(preparedDirOf(path))).toBe(false);
    expect(await backtestCli(['--data', path, '--out', tmp.path('cli-built')])).toMatchObject({ code: 0 });
    const file = await preparedFileOf(path);
    const mtime = statSync(file).mtimeMs;
    expect(await backtestCli(['--data', path, '--out', tmp.path('cli-read')])).toMatchObject({ code: 0 });
    expect(statSync(file).mtimeMs).toBe(mtime);
    // A damaged prepared file: told on standard error, rebuilt, and the run goes on with the same outputs.
    writeFileSync(file, 'damaged');
    told.length = 0;
    expect(await backtestCli(['--data', path, '--out', tmp.path('cli-rebuilt')])).toMatchObject({ code: 0 });
    expect(told.join('')).toContain(`stratd backtest: warning: ${file}: prepared form of ${path} ignored`);
    for (const name of OUTPUT_FILES) {
      const none = readFileSync(join(tmp.path('cli-none'), name), 'utf8');
      expect(readFileSync(join(tmp.path('cli-built'), name), 'utf8')).toBe(none);
      expect(readFileSync(join(tmp.path('cli-read'), name), 'utf8')).toBe(none);
      expect(readFileSync(join(tmp.path('cli-rebuilt'), name), 'utf8')).toBe(none);
    }
  }, 120_000);

  it('stratd sweep builds the prepared form once and its rows match a --no-cache sweep', async () => {
    const path = await writeGenerated(tmp.path('sweep.jsonl'), 13, 2);
    const grid = tmp.path('grid.yml');
    writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [2, 8] }\n');
    expect(await sweepCli(['--data', path, '--grid', grid, '--workers', '0', '--out', tmp.path('sweep-none'), '--no-cache'])).toMatchObject({ code: 0 });
    expect(existsSync(preparedDirOf(path))).toBe(false);
    expect(await sweepCli(['--data', path, '--grid', grid, '--workers', '0', '--out', tmp.path('sweep-built')])).toMatchObject({ code: 0 });
    const file = await preparedFileOf(path);
    const mtime = statSync(file).mtimeMs;
    expect(await sweepCli(['--data', path, '--grid', grid, '--workers', '0', '--out', tmp.path('sweep-read')])).toMatchObject({ code: 0 });
    expect(statSync(file).mtimeMs).toBe(mtime);
    const none = readFileSync(join(tmp.path('sweep-none'), 'sweep.csv'), 'utf8');
    expect(readFileSync(join(tmp.path('sweep-built'), 'sweep.csv'), 'utf8')).toBe(none);
    expect(readFileSync(join(tmp.path('sweep-read'), 'sweep.csv'), 'utf8')).toBe(none);
  }, 120_000);
});
