import { existsSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { readAccountStream } from '../../src/recording/recorder/account-reader.js';
import { Decimal, dec, decText } from '../../src/core/decimal.js';
import type { AccountEvent } from '../../src/model/account-events.js';
import type { BusEvent } from '../../src/model/bus-events.js';
import type { MarketStreamWarning } from '../../src/sim/market-stream/stream-error.js';
import { BTC, ETH, T0, VirtualClock, mark, openRecorder, readBack, tempDir, trade } from './recorder-fixtures.js';

/** The exchange's account events go to a sibling file with its own header, exact and in arrival order. */
let tmp: ReturnType<typeof tempDir>;
let clock: VirtualClock;
beforeEach(() => {
  tmp = tempDir();
  clock = new VirtualClock(T0);
});
afterEach(() => tmp.remove());

/** Decimals as their exact text, so that equal values compare equal whatever their internal form. */
function norm(value: unknown): unknown {
  if (Decimal.isDecimal(value)) return `dec:${decText(value)}`;
  if (Array.isArray(value)) return value.map(norm);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, norm(v)]));
}

const ACCOUNT: AccountEvent[] = [
  {
    type: 'account.order',
    source: 'stream',
    time: T0 + 5,
    order: {
      symbol: BTC,
      orderId: '2124000000000000001',
      clientOrderId: 'quoter_btc-q1',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'LIMIT',
      timeInForce: 'POST_ONLY',
      price: dec('111003.80'),
      quantity: dec('1'),
      filledQty: dec('0'),
      avgPrice: dec('0'),
      status: 'NEW',
      updateTime: T0 + 5,
    },
  },
  {
    type: 'account.algo',
    source: 'rest',
    time: T0 + 6,
    order: {
      symbol: ETH,
      orderId: '9000000000000000001',
      clientOrderId: 'breakout-sl',
      kind: 'STOP_LOSS',
      side: 'SELL',
      positionSide: 'LONG',
      orderType: 'MARKET',
      triggerPrice: dec('4400.01'),
      triggerBy: 'MARK_PRICE',
      price: dec('0'),
      quantity: dec('0'),
      trailing: { callbackType: 'RATE', callbackValue: dec('0.01') },
      status: 'ORDER_NEW',
      updateTime: T0 + 6,
    },
  },
  {
    type: 'account.fill',
    source: 'stream',
    time: T0 + 7,
    fill: {
      symbol: BTC,
      tradeId: '4900000000000000001',
      orderId: '2124000000000000001',
      clientOrderId: '',
      side: 'BUY',
      positionSide: 'LONG',
      price: dec('111003.8'),
      qty: dec('1'),
      fee: dec('0.02220076'),
      feeAsset: 'USDT',
      isMaker: true,
      realizedPnl: dec('-0.00000001'),
      time: T0 + 7,
    },
  },
  {
    type: 'account.position',
    source: 'stream',
    time: T0 + 3, // older than the fill: account lines keep arrival order
    position: {
      symbol: BTC,
      positionSide: 'LONG',
      qty: dec('1'),
      avgPrice: dec('111003.8'),
      leverage: dec('20'),
      marginType: 'CROSS',
      margin: dec('5.55019'),
      unrealizedPnl: dec('-0.1'),
      realizedPnl: dec('0'),
      markPrice: dec('111003.7'),
      updateTime: T0 + 3,
    },
  },
  {
    type: 'account.balance',
    source: 'rest',
    time: T0 + 8,
    balance: { asset: 'USDT', walletBalance: dec('99999.97779924'), availableBalance: dec('99994.4'), lockedMargin: dec('5.55019'), unrealizedPnl: dec('-0.1'), updateTime: T0 + 8 },
  },
];

describe('the account section', () => {
  it('is a sibling file with its own header; read back, its events are the input, exactly', async () => {
    const out = join(tmp.dir, 'rec.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0 });
    const bus = new Subject<BusEvent>();
    recorder.attach(bus);
    bus.next(mark(BTC, T0 + 1, '111003.7'));
    for (const event of ACCOUNT) bus.next(event);
    bus.next(trade(BTC, T0 + 7, 'x', '111003.8', '1', 'SELL'));
    // A kernel event named account.* that is not an account event.
    bus.next({ type: 'account.resynced', time: T0 + 9, epoch: 1, adopted: 0, cancelled: 0, settled: 0 });
    const summary = await recorder.stop();

    const accountPath = join(tmp.dir, 'rec.account.jsonl');
    expect(summary.parts).toEqual([expect.objectContaining({ market: out, account: accountPath, events: 2, accountEvents: ACCOUNT.length })]);
    const warnings: MarketStreamWarning[] = [];
    const { header, events } = await readAccountStream(accountPath, { onWarning: (w) => warnings.push(w) });
    expect(header).toEqual({ format: 'stratd-account-stream', version: 1, market: 'rec.jsonl', symbols: [BTC, ETH], startTime: T0, source: 'recorder' });
    expect(norm(events)).toEqual(norm(ACCOUNT));
    expect(warnings).toEqual([]);
    // The market file holds market events only.
    expect((await readBack(out)).events.map((e) => e.type)).toEqual(['mark', 'trade']);
    // Decimals as plain exact text on disk.
    expect(readFileSync(accountPath, 'utf8')).toContain('"realizedPnl":"-0.00000001"');
  });

  it('tolerates a torn last line like the market stream does', async () => {
    const out = join(tmp.dir, 'torn.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0 });
    recorder.record(mark(BTC, T0 + 1, '1'));
    for (const event of ACCOUNT) recorder.record(event);
    await recorder.stop();
    const accountPath = join(tmp.dir, 'torn.account.jsonl');
    truncateSync(accountPath, statSync(accountPath).size - 10);
    const warnings: MarketStreamWarning[] = [];
    const { events } = await readAccountStream(accountPath, { onWarning: (w) => warnings.push(w) });
    expect(norm(events)).toEqual(norm(ACCOUNT.slice(0, -1)));
    expect(warnings).toEqual([expect.objectContaining({ code: 'TORN_LAST_LINE', line: ACCOUNT.length + 1 })]);
  });

  it('can be left out', async () => {
    const out = join(tmp.dir, 'market-only.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, account: false });
    recorder.record(mark(BTC, T0 + 1, '1'));
    for (const event of ACCOUNT) recorder.record(event);
    const summary = await recorder.stop();
    expect(summary.parts).toEqual([{ index: 0, market: out, startTime: T0, events: 1, accountEvents: 0 }]);
    expect(existsSync(join(tmp.dir, 'market-only.account.jsonl'))).toBe(false);
  });
});
