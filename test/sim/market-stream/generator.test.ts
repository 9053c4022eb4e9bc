import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DepthEvent, FundingEvent, MarketEvent } from '../../../src/sim/market-stream/events.js';
import type { MarketGeneratorConfig } from '../../../src/sim/market-stream/generator.js';
import { MarketGenerator } from '../../../src/sim/market-stream/generator.js';
import type { InstrumentGrids } from '../../../src/sim/market-stream/instruments.js';
import { BTC_SWAP_USDT, DEFAULT_SIM_INSTRUMENTS, instrumentGrids } from '../../../src/sim/market-stream/instruments.js';
import { MarketStreamWriter } from '../../../src/sim/market-stream/writer.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 1, 21); // 6 h from here cross the 00:00 UTC settlement
const GRIDS: ReadonlyMap<string, InstrumentGrids> = new Map(DEFAULT_SIM_INSTRUMENTS.map((i) => [i.symbol, instrumentGrids(i)]));

function grids(symbol: string): InstrumentGrids {
  const found = GRIDS.get(symbol);
  if (found === undefined) throw new Error(`no grids for ${symbol}`);
  return found;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-generator-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function writeGenerated(file: string, config: MarketGeneratorConfig, durationMs: number): Promise<Buffer> {
  const generator = new MarketGenerator(config);
  const writer = MarketStreamWriter.open(join(dir, file), generator.header(), { flush: 'buffered' });
  for (const event of generator.eventsUntil(config.startTime + durationMs)) writer.write(event);
  await writer.close();
  return readFileSync(join(dir, file));
}

describe('market generator: determinism', () => {
  it('same seed and config → byte-identical recordings; another seed → different', async () => {
    const config = { seed: 42, startTime: START };
    const first = await writeGenerated('a.jsonl', config, 20 * 60_000);
    const second = await writeGenerated('b.jsonl', config, 20 * 60_000);
    const other = await writeGenerated('c.jsonl', { ...config, seed: 43 }, 20 * 60_000);
    expect(first.length).toBeGreaterThan(1_000_000);
    expect(second.equals(first)).toBe(true);
    expect(other.equals(first)).toBe(false);
    // Only the header is shared beyond chance: the first depth line already differs.
    expect(other.toString('utf8').split('\n')[1]).not.toBe(first.toString('utf8').split('\n')[1]);
  });

  it('gzip output is deterministic too', async () => {
    const config = { seed: 7, startTime: START };
    const first = await writeGenerated('a.jsonl.gz', config, 5 * 60_000);
    const second = await writeGenerated('b.jsonl.gz', config, 5 * 60_000);
    expect(first.equals(second)).toBe(true);
  });

  it('choosing channels filters output without changing the market', () => {
    const all = new MarketGenerator({ seed: 5, startTime: START });
    const tradesOnly = new MarketGenerator({ seed: 5, startTime: START, channels: ['trade'] });
    const end = START + 10 * 60_000;
    const expected = [...all.eventsUntil(end)].filter((e) => e.type === 'trade');
    expect([...tradesOnly.eventsUntil(end)]).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1000);
  });

  it('next() and eventsUntil() walk the same sequence', () => {
    const a = new MarketGenerator({ seed: 9, startTime: START });
    const b = new MarketGenerator({ seed: 9, startTime: START });
    const viaUntil = [...a.eventsUntil(START + 60_000)];
    const viaNext = viaUntil.map(() => b.next());
    expect(viaNext).toEqual(viaUntil);
    expect(a.peekTime()).toBeGreaterThanOrEqual(START + 60_000);
  });
});

interface RegimeReturns {
  sumSquares: number;
  count: number;
}

// Globals read once: jest's vm context makes each global lookup slow, and these loops see ~400 000 events.
const { abs, log, sqrt, floor } = Math;
const toNumber = Number;

/** Runs `check` on each item and returns the first few problems it reports (one expect per test, not per event). */
function problems<T>(items: Iterable<T>, check: (item: T) => string | undefined): string[] {
  const found: string[] = [];
  for (const item of items) {
    const problem = check(item);
    if (problem !== undefined && found.push(problem) >= 5) break;
  }
  return found;
}

describe('market generator: six simulated hours of invariants', () => {
  const generator = new MarketGenerator({ seed: 2026, startTime: START });
  const events: MarketEvent[] = [];
  const regimeAtDepth = new Map<DepthEvent, string>();
  for (const event of generator.eventsUntil(START + 6 * HOUR)) {
    events.push(event);
    if (event.type === 'depth') regimeAtDepth.set(event, generator.regime(event.symbol));
  }
  const ofType = <T extends MarketEvent['type']>(type: T): Extract<MarketEvent, { type: T }>[] => events.filter((e): e is Extract<MarketEvent, { type: T }> => e.type === type);
  const depths = ofType('depth');
  const trades = ofType('trade');

  it('emits every channel for every symbol, in nondecreasing time', () => {
    let previous = START;
    expect(problems(events, (e) => (e.ts < previous ? `${e.type} at ${e.ts} after ${previous}` : void (previous = e.ts)))).toEqual([]);
    for (const symbol of generator.symbols) {
      for (const type of ['depth', 'trade', 'mark', 'index', 'funding'] as const) {
        expect(events.some((e) => e.symbol === symbol && e.type === type)).toBe(true);
      }
    }
    // Depth, mark and index once a second per symbol.
    expect(depths).toHaveLength(3 * 6 * 3600);
    expect(ofType('mark')).toHaveLength(3 * 6 * 3600);
    expect(ofType('index')).toHaveLength(3 * 6 * 3600);
  });

  it('books: ≥ 20 levels, bids strictly descending, asks strictly ascending, not crossed, on tick and step', () => {
    const checkBook = (depth: DepthEvent): string | undefined => {
      const { price, quantity } = grids(depth.symbol);
      const at = `${depth.symbol} at ${depth.ts}`;
      if (depth.bids.length < 20 || depth.asks.length < 20) return `${at}: ${depth.bids.length}/${depth.asks.length} levels`;
      let previous = Number.POSITIVE_INFINITY;
      for (const [p, q] of depth.bids) {
        const ticks = price.tryUnits(p);
        if (ticks === undefined || !(ticks < previous)) return `${at}: bid ${p} off tick or out of order`;
        if (!((quantity.tryUnits(q) ?? 0) > 0)) return `${at}: bid size ${q} off step`;
        previous = ticks;
      }
      const bestBid = price.toUnits(depth.bids[0]![0]);
      previous = bestBid;
      for (const [p, q] of depth.asks) {
        const ticks = price.tryUnits(p);
        if (ticks === undefined || !(ticks > previous)) return `${at}: ask ${p} off tick, out of order or crossing`;
        if (!((quantity.tryUnits(q) ?? 0) > 0)) return `${at}: ask size ${q} off step`;
        previous = ticks;
      }
      const spread = price.toUnits(depth.asks[0]![0]) - bestBid;
      return spread > 20 ? `${at}: spread of ${spread} ticks` : undefined;
    };
    expect(problems(depths, checkBook)).toEqual([]);
  });

  it('trades: on tick and step, near the touch of the latest book, sides mixed, sizes heavy-tailed', () => {
    const latest = new Map<string, DepthEvent>();
    let buys = 0;
    const sizes: number[] = [];
    const checkTrade = (event: MarketEvent): string | undefined => {
      if (event.type === 'depth') latest.set(event.symbol, event);
      if (event.type !== 'trade') return undefined;
      const { price, quantity } = grids(event.symbol);
      const lots = quantity.tryUnits(event.qty) ?? 0;
      const ticks = price.tryUnits(event.price);
      if (lots <= 0 || ticks === undefined) return `trade ${event.symbol} ${event.id}: ${event.qty} @ ${event.price} off step or tick`;
      sizes.push(lots);
      if (!event.buyerIsMaker) buys++;
      const book = latest.get(event.symbol);
      if (book === undefined) return undefined;
      const mid = (price.toUnits(book.bids[0]![0]) + price.toUnits(book.asks[0]![0])) / 2;
      const distance = abs(ticks - mid) / mid;
      return distance > 0.003 ? `trade ${event.symbol} ${event.id} at ${event.price} is ${distance} from the book mid` : undefined;
    };
    expect(problems(events, checkTrade)).toEqual([]);
    expect(trades.length).toBeGreaterThan(6 * 3600 * 3);
    expect(buys / trades.length).toBeGreaterThan(0.4);
    expect(buys / trades.length).toBeLessThan(0.6);
    sizes.sort((a, b) => a - b);
    const median = sizes[floor(sizes.length / 2)]!;
    expect(sizes[sizes.length - 1]! / median).toBeGreaterThan(50);
  });

  it('mark tracks the book on tick, and index stays near mark', () => {
    const latest = new Map<string, DepthEvent>();
    const marks = new Map<string, number>();
    const check = (event: MarketEvent): string | undefined => {
      if (event.type === 'depth') latest.set(event.symbol, event);
      if (event.type === 'mark') {
        const book = latest.get(event.symbol);
        const mark = toNumber(event.price);
        marks.set(event.symbol, mark);
        if (grids(event.symbol).price.tryUnits(event.price) === undefined) return `mark ${event.price} off tick`;
        if (book !== undefined && abs(mark / toNumber(book.bids[0]![0]) - 1) > 0.003) return `mark ${event.price} far from the book at ${event.ts}`;
      }
      if (event.type === 'index') {
        const mark = marks.get(event.symbol);
        if (mark !== undefined && abs(toNumber(event.price) / mark - 1) > 0.01) return `index ${event.price} far from mark ${mark} at ${event.ts}`;
      }
      return undefined;
    };
    expect(problems(events, check)).toEqual([]);
  });

  it('funding: rate within ±0.003, settles at 00:00 UTC for every symbol', () => {
    const boundary = Date.UTC(2026, 0, 2);
    const fundings = ofType('funding');
    for (const funding of fundings) {
      expect(abs(toNumber(funding.rate))).toBeLessThanOrEqual(0.003);
      expect(funding.period).toBe('8H');
      expect(funding.nextFundingTime).toBe(funding.ts < boundary ? boundary : boundary + 8 * HOUR);
    }
    for (const symbol of generator.symbols) {
      expect(fundings.some((f) => f.symbol === symbol && f.ts === boundary && f.nextFundingTime === boundary + 8 * HOUR)).toBe(true);
    }
  });

  it('volatility regimes change and the volatile one moves prices more', () => {
    const byRegime = new Map<string, RegimeReturns>();
    const previous = new Map<string, { mid: number; regime: string }>();
    for (const depth of depths) {
      const regime = regimeAtDepth.get(depth) ?? '';
      const mid = (toNumber(depth.bids[0]![0]) + toNumber(depth.asks[0]![0])) / 2;
      const before = previous.get(depth.symbol);
      if (before !== undefined && before.regime === regime) {
        const r = log(mid / before.mid);
        const acc = byRegime.get(regime) ?? { sumSquares: 0, count: 0 };
        acc.sumSquares += r * r;
        acc.count++;
        byRegime.set(regime, acc);
      }
      previous.set(depth.symbol, { mid, regime });
    }
    const calm = byRegime.get('calm');
    const volatile = byRegime.get('volatile');
    expect(calm?.count).toBeGreaterThan(600);
    expect(volatile?.count).toBeGreaterThan(600);
    const vol = (r: RegimeReturns): number => sqrt(r.sumSquares / r.count);
    expect(vol(volatile!)).toBeGreaterThan(2 * vol(calm!));
  });
});

describe('market generator: book and trades agree while the price stands still', () => {
  it('every trade prints at a level of the latest snapshot on the side it takes, within its size', () => {
    // A price step once an hour: between snapshots only trades change the book.
    const generator = new MarketGenerator({ seed: 11, startTime: START, instruments: [BTC_SWAP_USDT], priceStepMs: HOUR, depthIntervalMs: 5000 });
    const { quantity } = instrumentGrids(BTC_SWAP_USDT);
    const wrong: string[] = [];
    let book: DepthEvent | undefined;
    const taken = new Map<string, number>();
    let throughTouch = 0;
    let trades = 0;
    for (const event of generator.eventsUntil(START + 30 * 60_000)) {
      if (event.type === 'depth') {
        book = event;
        taken.clear();
      }
      if (event.type !== 'trade' || book === undefined) continue;
      trades++;
      const side = event.buyerIsMaker ? book.bids : book.asks;
      const level = side.findIndex(([p]) => p === event.price);
      if (level < 0) {
        wrong.push(`trade ${event.id} at ${event.price} is not a level of the ${event.buyerIsMaker ? 'bids' : 'asks'}`);
        continue;
      }
      if (level > 0) throughTouch++;
      const key = `${event.buyerIsMaker ? 'b' : 'a'}${event.price}`;
      const sum = (taken.get(key) ?? 0) + quantity.toUnits(event.qty);
      taken.set(key, sum);
      if (sum > quantity.toUnits(side[level]![1])) wrong.push(`trades at ${event.price} took ${sum} lots of ${side[level]![1]}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(trades).toBeGreaterThan(1000);
    expect(throughTouch).toBeGreaterThan(0);
  });
});

describe('market generator: funding over a day', () => {
  it('settles every 8 h at 00:00, 08:00 and 16:00 UTC and publishes changes in between', () => {
    const start = Date.UTC(2026, 2, 10, 5, 17, 3);
    const generator = new MarketGenerator({ seed: 3, startTime: start, instruments: [BTC_SWAP_USDT], channels: ['funding'], priceStepMs: 1000, depthIntervalMs: 60_000 });
    const fundings = [...generator.eventsUntil(start + 27 * HOUR)] as FundingEvent[];
    expect(fundings[0]).toMatchObject({ ts: start, nextFundingTime: Date.UTC(2026, 2, 10, 8) });
    const settlements = fundings.filter((f, i) => i > 0 && f.nextFundingTime !== fundings[i - 1]!.nextFundingTime);
    expect(settlements.map((f) => f.ts)).toEqual([Date.UTC(2026, 2, 10, 8), Date.UTC(2026, 2, 10, 16), Date.UTC(2026, 2, 11, 0), Date.UTC(2026, 2, 11, 8)]);
    for (const s of settlements) expect(s.nextFundingTime).toBe(s.ts + 8 * HOUR);
    for (const f of fundings) {
      expect(f.nextFundingTime > f.ts).toBe(true);
      expect(Math.abs(Number(f.rate))).toBeLessThanOrEqual(0.003);
    }
    expect(new Set(fundings.map((f) => f.rate)).size).toBeGreaterThan(3);
  });

  it('refuses a funding update interval that does not divide 8 h', () => {
    expect(() => new MarketGenerator({ seed: 1, startTime: START, fundingUpdateMs: 7000 })).toThrow('fundingUpdateMs must divide 8 hours');
  });
});
