import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { dec } from '../../src/core/decimal.js';
import type { BusEvent } from '../../src/model/bus-events.js';
import type { MarketEvent as ModelMarketEvent } from '../../src/model/market-events.js';
import type { MarketEvent as StreamEvent } from '../../src/sim/market-stream/events.js';
import { BTC, ETH, INSTRUMENTS, SIM_INSTRUMENTS, T0, VirtualClock, book, funding, index, mark, marketView, openRecorder, readBack, tempDir, trade } from './recorder-fixtures.js';

/**
 * The recorder writes model market events as the simulator's market stream: read back with the
 * simulator's own MarketStreamReader, they are the input (decimals exact), in exchange-time order.
 */
let tmp: ReturnType<typeof tempDir>;
let clock: VirtualClock;
beforeEach(() => {
  tmp = tempDir();
  clock = new VirtualClock(T0);
});
afterEach(() => tmp.remove());

/** The input, compared field by field with what was read: same kind, time, symbol, and equal decimals. */
function expectSame(read: readonly StreamEvent[], input: readonly ModelMarketEvent[]): void {
  expect(read).toHaveLength(input.length);
  read.forEach((r, i) => {
    const m = input[i];
    if (m === undefined) throw new Error('no input event');
    expect([r.ts, r.symbol]).toEqual([m.time, m.symbol]);
    switch (m.type) {
      case 'market.book':
        if (r.type !== 'depth') throw new Error(`line ${i}: ${r.type}, expected depth`);
        expect(r.bids.map(([p, q]) => [dec(p), dec(q)])).toEqual(m.bids.map((l) => [l.price, l.qty]));
        expect(r.asks.map(([p, q]) => [dec(p), dec(q)])).toEqual(m.asks.map((l) => [l.price, l.qty]));
        r.bids.forEach(([p, q], j) => expect(dec(p).eq(m.bids[j]?.price ?? -1) && dec(q).eq(m.bids[j]?.qty ?? -1)).toBe(true));
        break;
      case 'market.trade':
        expect(r).toMatchObject({ type: 'trade', id: m.tradeId, buyerIsMaker: m.takerSide === 'SELL' });
        if (r.type === 'trade') expect(dec(r.price).eq(m.price) && dec(r.qty).eq(m.qty)).toBe(true);
        break;
      case 'market.markPrice':
      case 'market.indexPrice':
        expect(r.type).toBe(m.type === 'market.markPrice' ? 'mark' : 'index');
        if (r.type === 'mark' || r.type === 'index') expect(dec(r.price).eq(m.price)).toBe(true);
        break;
      case 'market.fundingRate':
        expect(r).toMatchObject({ type: 'funding', nextFundingTime: m.nextFundingTime });
        if (r.type === 'funding') expect(dec(r.rate).eq(m.rate)).toBe(true);
        break;
      default:
        throw new Error(`unexpected input ${m.type}`);
    }
  });
}

describe('the recorder: model events → market stream file → MarketStreamReader', () => {
  it('reads back exactly what was recorded, with a header naming symbols, channels, instruments and start time', async () => {
    const out = join(tmp.dir, 'rec.jsonl');
    const recorder = openRecorder(clock, { out });
    const input: ModelMarketEvent[] = [
      book(BTC, T0 + 10, [['111021.40', '15224'], ['111021.3', '0.1']], [['111021.5', '45741.000']]),
      mark(BTC, T0 + 20, '111021.4'),
      trade(BTC, T0 + 30, '1757443158362:111054.8:36:SELL:0', '111054.8', '36', 'SELL'),
      trade(ETH, T0 + 30, 'e-1', '4435.59', '12', 'BUY'),
      index(ETH, T0 + 40, '4435.00000001'),
      funding(BTC, T0 + 50, '-0.00012345', T0 + 8 * 3_600_000),
      mark(ETH, T0 + 60, '0.00000001'),
      book(ETH, T0 + 70, [], [['4435.61', '3']]),
    ];
    const bus = new Subject<BusEvent>();
    recorder.attach(bus);
    for (const event of input) bus.next(event);
    // Not in the stream format: counted, not written.
    bus.next({ type: 'market.openInterest', symbol: BTC, time: T0 + 80, openInterest: dec(5) });
    bus.next({ type: 'market.bookTicker', symbol: BTC, time: T0 + 80, bidPrice: dec(1), bidQty: dec(1), askPrice: dec(2), askQty: dec(1) });
    // Not a recorded symbol, and not market data.
    bus.next(mark('BTC-SWAP-USDC', T0 + 80, '1'));
    bus.next({ type: 'timer', time: T0 + 80, name: 'tick' });
    const summary = await recorder.stop();

    const { header, events, warnings } = await readBack(out);
    expect(warnings).toEqual([]);
    expectSame(events, input);
    // Exact plain text: no exponent, no lost digits (trailing zeros are not significant).
    expect(events.find((e) => e.type === 'mark' && e.symbol === ETH)).toMatchObject({ price: '0.00000001' });
    expect(events.find((e) => e.type === 'funding')).toMatchObject({ rate: '-0.00012345', period: '8H' });
    expect(header).toMatchObject({ format: 'stratd-market-stream', version: 1, symbols: [BTC, ETH], channels: ['depth', 'trade', 'mark', 'index', 'funding'], startTime: T0, source: 'recorder' });
    // Instruments: the simulator's own (exact hints), with the first recorded prices as start prices.
    expect(header.instruments).toEqual([
      { ...SIM_INSTRUMENTS[0], initialPrice: '111021.4' },
      { ...SIM_INSTRUMENTS[1], initialPrice: '0.00000001' },
    ]);
    expect(summary).toMatchObject({ events: input.length, skipped: { 'market.openInterest': 1, 'market.bookTicker': 1 }, ignored: 1, late: 0, buffered: 0, estimated: {} });
    expect(summary.failure).toBeUndefined();
    expect(summary.parts).toEqual([{ index: 0, market: out, account: join(tmp.dir, 'rec.account.jsonl'), startTime: T0, events: input.length, accountEvents: 0 }]);
  });

  it('puts events polled out of order back in exchange-time order; one later than the window keeps its place at the newest time', async () => {
    const out = join(tmp.dir, 'order.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 3000, flushEveryMs: 1000 });
    // A depth poll answers before the trades poll that holds older trades.
    recorder.record(book(BTC, T0 + 1000, [['100', '1']], [['101', '1']]));
    recorder.record(trade(BTC, T0 + 400, 'a', '100.5', '1', 'BUY'));
    recorder.record(trade(BTC, T0 + 700, 'b', '100.5', '2', 'SELL'));
    recorder.record(mark(BTC, T0 + 5000, '100.5'));
    await recorder.flush(); // releases what is 3 s older than the newest (T0 + 5000)
    recorder.record(trade(BTC, T0 + 900, 'late', '100.4', '1', 'BUY'));
    const summary = await recorder.stop();
    const { events } = await readBack(out);
    expect(events.map((e) => [e.type, e.ts, e.type === 'trade' ? e.id : ''])).toEqual([
      ['trade', T0 + 400, 'a'],
      ['trade', T0 + 700, 'b'],
      ['depth', T0 + 1000, ''],
      ['trade', T0 + 1000, 'late'],
      ['mark', T0 + 5000, ''],
    ]);
    expect(summary.late).toBe(1);
  });

  it('flushes on its own as (virtual) time passes: lines are on disk before stop', async () => {
    const out = join(tmp.dir, 'periodic.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, flushEveryMs: 1000 });
    recorder.record(mark(BTC, T0 + 1, '100'));
    recorder.record(mark(ETH, T0 + 2, '200'));
    expect(() => readFileSync(out)).toThrow(); // nothing yet: the first part opens at the first flush
    clock.advanceBy(1000);
    await new Promise((resolve) => setImmediate(resolve));
    await recorder.flush();
    expect(readFileSync(out, 'utf8').split('\n').filter((l) => l !== '')).toHaveLength(3);
    await recorder.stop();
  });

  it('derives the funding period from the step of the next funding time', async () => {
    const out = join(tmp.dir, 'funding.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, fundingPeriod: '8H' });
    const hour = 3_600_000;
    recorder.record(funding(BTC, T0 + 1, '0.0001', T0 + 4 * hour));
    recorder.record(funding(BTC, T0 + 2, '0.0002', T0 + 4 * hour));
    recorder.record(funding(BTC, T0 + 4 * hour, '0.0003', T0 + 8 * hour));
    recorder.record(funding(BTC, T0 + 4 * hour + 1, '0.0003', T0 + 8 * hour));
    await recorder.stop();
    const { events } = await readBack(out);
    expect(events.map((e) => (e.type === 'funding' ? e.period : e.type))).toEqual(['8H', '8H', '4H', '4H']);
  });

  it('records a book ticker as one-level depth for symbols recorded without depth', async () => {
    const out = join(tmp.dir, 'ticker.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, depthFromBookTicker: [ETH] });
    recorder.record({ type: 'market.bookTicker', symbol: ETH, time: T0 + 5, bidPrice: dec('4435.5'), bidQty: dec('3'), askPrice: dec('4435.6'), askQty: dec('7') });
    recorder.record({ type: 'market.bookTicker', symbol: BTC, time: T0 + 6, bidPrice: dec('1'), bidQty: dec('3'), askPrice: dec('2'), askQty: dec('7') });
    const summary = await recorder.stop();
    const { events } = await readBack(out);
    expect(events).toEqual([{ type: 'depth', ts: T0 + 5, symbol: ETH, bids: [['4435.5', '3']], asks: [['4435.6', '7']] }]);
    expect(summary.skipped).toEqual({ 'market.bookTicker': 1 });
  });

  it('estimates what the model instrument does not say, and says so', async () => {
    const out = join(tmp.dir, 'estimated.jsonl');
    const recorder = openRecorder(clock, { out, symbols: [BTC], hints: new Map() });
    const summary = await recorder.stop();
    const { header, events } = await readBack(out);
    expect(events).toEqual([]);
    const btc = header.instruments[0];
    // 1 / maxLeverage (50) as the one tier's initial margin, half of it maintenance, the simulator's fees.
    expect(btc).toMatchObject({ symbol: BTC, tickSize: '0.1', contractMultiplier: '0.001', quantityStep: '0.1', makerFeeRate: '0.0002', takerFeeRate: '0.0006', initialPrice: '0.1' });
    expect(btc?.riskLimits).toEqual([{ riskLimitId: 'estimated', maxQuantity: '4000000', initialMarginRate: '0.02', maintMarginRate: '0.01' }]);
    expect(summary.estimated).toEqual({ [BTC]: ['riskLimits', 'makerFeeRate', 'takerFeeRate', 'initialPrice'] });
  });

  it('never throws into the bus: a write failure stops recording and is reported', async () => {
    const out = join(tmp.dir, 'no-such-dir', 'rec.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0 });
    const bus = new Subject<BusEvent>();
    recorder.attach(bus);
    bus.next(mark(BTC, T0 + 1, '100'));
    await recorder.flush();
    expect(() => bus.next(mark(BTC, T0 + 2, '101'))).not.toThrow();
    const summary = await recorder.stop();
    expect(summary.failure).toMatch(/ENOENT/);
    expect(summary.events).toBe(0);
  });

  it('leaves out a symbol the daemon has no instrument for; with none at all, there is nothing to record', async () => {
    const out = join(tmp.dir, 'partial.jsonl');
    const btcOnly = marketView(INSTRUMENTS.filter((i) => i.symbol === BTC));
    const recorder = openRecorder(clock, { out, reorderMs: 0, market: btcOnly });
    recorder.record(mark(BTC, T0 + 1, '100'));
    recorder.record(mark(ETH, T0 + 2, '200'));
    const summary = await recorder.stop();
    const { header, events } = await readBack(out);
    expect(header.symbols).toEqual([BTC]);
    expect(events.map((e) => e.symbol)).toEqual([BTC]);
    expect(summary).toMatchObject({ events: 1, ignored: 1 });

    const none = openRecorder(clock, { out: join(tmp.dir, 'none.jsonl'), reorderMs: 0, market: marketView([]) });
    none.record(mark(BTC, T0 + 1, '100'));
    expect((await none.stop()).failure).toMatch(/header/);
    expect(() => readFileSync(join(tmp.dir, 'none.jsonl'))).toThrow(/ENOENT/);
  });
});
