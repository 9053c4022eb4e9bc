import { Writable } from 'node:stream';
import { Subject } from 'rxjs';
import { prettyFactory } from 'pino-pretty';
import { prettyOptions } from '../../src/app/logging/pretty.js';
import { createLogger } from '../../src/app/logging/logger.js';
import { TradeLog } from '../../src/app/trade-log/trade-log.js';
import { startTradeSummaries } from '../../src/app/trade-log/summary.js';
import { dec } from '../../src/core/decimal.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { Cache } from '../../src/engine/cache.js';
import type { AccountEventSource } from '../../src/model/account-events.js';
import type { BusEvent } from '../../src/model/bus-events.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from '../../src/model/orders.js';
import { btc } from '../engine/risk/risk-harness.js';

/**
 * The trade log is the feature here, so its lines are what the tests read: each event the kernel
 * publishes becomes exactly one JSON line with its fields (or none), duplicates from a reconciliation
 * are logged once, the summary runs in virtual time, and the terminal form is one line per entry.
 */

const T0 = 1_767_225_600_000;
const BTC = 'BTC-SWAP-USDT';

type Line = Record<string, unknown>;

interface Rig {
  readonly bus: Subject<BusEvent>;
  readonly cache: Cache;
  readonly lines: Line[];
  readonly raw: string[];
  readonly tradeLog: TradeLog;
  readonly owners: Map<string, string>;
  /** Applies an event to the cache as the kernel does, and publishes it when the cache took it. */
  publish(event: BusEvent): void;
  /** The trade lines only (the component the trade log writes under). */
  trades(): Line[];
}

function rig(options: { readonly killSwitchEngaged?: boolean; readonly level?: string } = {}): Rig {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ destination: sink, level: options.level ?? 'info' });
  const cache = new Cache();
  cache.apply({ type: 'instruments.loaded', time: T0, instruments: [btc({ qtyStep: dec('0.001'), minQty: dec('0.001') })] });
  const owners = new Map<string, string>([['quoter-1', 'quoter'], ['quoter-2', 'quoter'], ['tp-1', 'quoter'], ['trend-1', 'trend']]);
  const tradeLog = new TradeLog({
    logger,
    cache,
    ownerOf: (id) => owners.get(id),
    symbolsOf: (id) => (id === 'quoter' ? [BTC] : ['ETH-SWAP-USDT', BTC]),
    killSwitchEngaged: options.killSwitchEngaged ?? false,
    startedAt: T0,
  });
  const bus = new Subject<BusEvent>();
  tradeLog.watch(bus);
  const lines: Line[] = [];
  return {
    bus,
    cache,
    raw,
    lines,
    tradeLog,
    owners,
    publish: (event) => {
      if (cache.apply(event)) bus.next(event);
    },
    trades: () => raw.map((l) => JSON.parse(l) as Line).filter((l) => l['component'] === 'trade'),
  };
}

function order(over: Partial<OrderSnapshot> = {}): OrderSnapshot {
  return {
    symbol: BTC,
    orderId: '9001',
    clientOrderId: 'quoter-1',
    side: 'BUY',
    positionSide: 'LONG',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: dec('64210.5'),
    quantity: dec('0.01'),
    filledQty: dec(0),
    avgPrice: dec(0),
    status: 'NEW',
    updateTime: T0 + 1,
    ...over,
  };
}

function fill(over: Partial<Fill> = {}): Fill {
  return {
    symbol: BTC,
    tradeId: '77',
    orderId: '9001',
    clientOrderId: 'quoter-1',
    side: 'BUY',
    positionSide: 'LONG',
    price: dec('64210.5'),
    qty: dec('0.004'),
    fee: dec('0.0257'),
    feeAsset: 'USDT',
    isMaker: true,
    realizedPnl: dec('1.32'),
    time: T0 + 2,
    ...over,
  };
}

function algo(over: Partial<AlgoOrderSnapshot> = {}): AlgoOrderSnapshot {
  return {
    symbol: BTC,
    orderId: '555',
    clientOrderId: 'tp-1',
    kind: 'STOP_LOSS',
    side: 'SELL',
    positionSide: 'LONG',
    orderType: 'MARKET',
    triggerPrice: dec('63000'),
    triggerBy: 'MARK_PRICE',
    price: dec(0),
    quantity: dec('0.01'),
    status: 'ORDER_NEW',
    updateTime: T0 + 3,
    ...over,
  };
}

const orderEvent = (o: OrderSnapshot, source: AccountEventSource = 'stream'): BusEvent => ({ type: 'account.order', source, time: o.updateTime, order: o });
const fillEvent = (f: Fill, source: AccountEventSource = 'stream'): BusEvent => ({ type: 'account.fill', source, time: f.time, fill: f });
const algoEvent = (a: AlgoOrderSnapshot, source: AccountEventSource = 'stream'): BusEvent => ({ type: 'account.algo', source, time: a.updateTime, order: a });

describe('the trade log: one line per order event', () => {
  it('placed, then partly and fully filled: price, quantity, fee and realized PnL as the exchange writes them; the same reports again from a reconciliation add nothing', () => {
    const r = rig();
    r.publish(orderEvent(order()));
    r.publish(fillEvent(fill()));
    r.publish(orderEvent(order({ status: 'PARTIALLY_FILLED', filledQty: dec('0.004'), updateTime: T0 + 2 })));
    r.publish(fillEvent(fill({ tradeId: '78', qty: dec('0.006'), realizedPnl: dec(0), time: T0 + 4 })));
    r.publish(orderEvent(order({ status: 'FILLED', filledQty: dec('0.01'), updateTime: T0 + 4 })));
    // The resync after a reconnect lists the same order and trades again (the bus may carry them twice).
    r.bus.next(orderEvent(order({ status: 'FILLED', filledQty: dec('0.01'), updateTime: T0 + 4 }), 'rest'));
    r.bus.next(fillEvent(fill(), 'rest'));
    r.bus.next(fillEvent(fill({ tradeId: '78', qty: dec('0.006'), realizedPnl: dec(0), time: T0 + 4 }), 'rest'));

    const lines = r.trades();
    expect(lines.map((l) => l['event'])).toEqual(['placed', 'filled', 'filled']);
    expect(lines[0]).toMatchObject({ level: 30, event: 'placed', strategy: 'quoter', symbol: BTC, side: 'BUY', qty: '0.010', price: '64210.5', orderType: 'LIMIT', clientOrderId: 'quoter-1' });
    expect(lines[0]?.['msg']).toBe('PLACE   quoter BTC-SWAP-USDT BUY 0.010 @ 64210.5');
    expect(lines[1]).toMatchObject({ event: 'filled', fillKind: 'partial', strategy: 'quoter', qty: '0.004', price: '64210.5', fee: '0.0257', feeAsset: 'USDT', realizedPnl: '1.32', filledQty: '0.004', orderQty: '0.010', tradeId: '77' });
    expect(lines[1]?.['msg']).toBe('PART    quoter BTC-SWAP-USDT BUY 0.004 @ 64210.5 fee 0.0257 USDT pnl +1.32 (partial: 0.004/0.010)');
    expect(lines[2]).toMatchObject({ event: 'filled', fillKind: 'full', qty: '0.006', realizedPnl: '0', filledQty: '0.010' });
    expect(r.tradeLog.day.of('quoter')).toMatchObject({ fills: 2 });
    expect(r.tradeLog.day.of('quoter').realizedPnl.toFixed()).toBe('1.32');
    expect(r.tradeLog.day.of('quoter').fees.get('USDT')?.toFixed()).toBe('0.0514');
  });

  it('cancelled (with what had filled) and rejected by the exchange: one line each', () => {
    const r = rig();
    r.publish(orderEvent(order()));
    r.publish(orderEvent(order({ status: 'CANCELED', filledQty: dec('0.004'), updateTime: T0 + 5 })));
    r.bus.next(orderEvent(order({ status: 'CANCELED', filledQty: dec('0.004'), updateTime: T0 + 5 }), 'rest'));
    r.publish(orderEvent(order({ clientOrderId: 'quoter-2', orderId: '9002', side: 'SELL', status: 'REJECTED', updateTime: T0 + 6 })));
    const lines = r.trades();
    expect(lines.map((l) => l['event'])).toEqual(['placed', 'cancelled', 'rejected']);
    expect(lines[1]).toMatchObject({ event: 'cancelled', strategy: 'quoter', side: 'BUY', qty: '0.010', price: '64210.5', filledQty: '0.004' });
    expect(lines[2]).toMatchObject({ event: 'rejected', strategy: 'quoter', side: 'SELL', reason: 'rejected by the exchange' });
  });

  it('a command the exchange refused is one rejected line with its reason; the order report that may follow adds none', () => {
    const r = rig();
    const command = { type: 'place-order', clientOrderId: 'quoter-2', symbol: BTC, side: 'SELL', positionSide: 'SHORT', orderType: 'LIMIT', price: dec('65000'), quantity: dec('0.02'), timeInForce: 'GTC' } as const;
    r.publish({ type: 'command.submitted', time: T0, strategyId: 'quoter', command });
    r.publish({ type: 'command.failed', time: T0 + 1, strategyId: 'quoter', command, failure: { kind: 'rejected', code: '-2019', message: 'Margin is insufficient', retryable: false } });
    r.publish(orderEvent(order({ clientOrderId: 'quoter-2', side: 'SELL', positionSide: 'SHORT', status: 'REJECTED' })));
    const lines = r.trades();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'rejected', strategy: 'quoter', symbol: BTC, side: 'SELL', qty: '0.020', price: '65000.0', command: 'place-order', reason: '-2019: Margin is insufficient' });
    expect(lines[0]?.['msg']).toBe('REJECT  quoter BTC-SWAP-USDT SELL 0.020 @ 65000.0 place-order: -2019: Margin is insufficient');
  });

  it('an order this run submitted is placed even when its first report is already filled (a market order); one a reconciliation lists from before is not', () => {
    const r = rig();
    const command = { type: 'place-order', clientOrderId: 'quoter-1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: dec('0.01'), timeInForce: 'IOC' } as const;
    r.publish({ type: 'command.submitted', time: T0, strategyId: 'quoter', command });
    r.publish(orderEvent(order({ type: 'MARKET', timeInForce: 'IOC', price: dec(0), status: 'FILLED', filledQty: dec('0.01') })));
    r.publish(orderEvent(order({ clientOrderId: 'trend-1', orderId: '8000' }), 'rest'));
    const lines = r.trades();
    expect(lines.map((l) => [l['event'], l['clientOrderId']])).toEqual([['placed', 'quoter-1']]);
    expect(lines[0]?.['msg']).toBe('PLACE   quoter BTC-SWAP-USDT BUY 0.010 MARKET');
  });

  it('a stop loss: placed, triggered, and the fill of the order it became belongs to its strategy', () => {
    const r = rig();
    r.publish(algoEvent(algo()));
    r.publish(algoEvent(algo({ status: 'ORDER_FILLED', executedOrderId: '9100', updateTime: T0 + 10 })));
    r.bus.next(algoEvent(algo({ status: 'ORDER_FILLED', executedOrderId: '9100', updateTime: T0 + 10 }), 'rest'));
    r.publish(fillEvent(fill({ orderId: '9100', clientOrderId: '', tradeId: '80', side: 'SELL', qty: dec('0.01'), price: dec('62990'), realizedPnl: dec('-12.2') })));
    const lines = r.trades();
    expect(lines.map((l) => l['event'])).toEqual(['placed', 'triggered', 'filled']);
    expect(lines[0]).toMatchObject({ strategy: 'quoter', kind: 'STOP_LOSS', side: 'SELL', triggerPrice: '63000.0' });
    expect(lines[1]).toMatchObject({ event: 'triggered', strategy: 'quoter', kind: 'STOP_LOSS', executedOrderId: '9100' });
    expect(lines[1]?.['msg']).toBe('TRIGGER quoter BTC-SWAP-USDT STOP_LOSS SELL 0.010 trigger 63000.0 → order 9100');
    expect(lines[2]).toMatchObject({ event: 'filled', strategy: 'quoter', realizedPnl: '-12.2', fillKind: 'full' });
  });

  it('strategy start, stop and failure; the kill switch when it changes (not when it is told again)', () => {
    const r = rig();
    r.publish({ type: 'strategy.started', time: T0, strategyId: 'quoter' });
    r.publish({ type: 'strategy.stopped', time: T0 + 1, strategyId: 'quoter', reason: 'stopped by operator', failed: false });
    r.publish({ type: 'strategy.stopped', time: T0 + 2, strategyId: 'trend', reason: 'TypeError: x is undefined', failed: true });
    r.publish({ type: 'risk.killSwitch', time: T0 + 3, engaged: false, reason: '', dayPnl: dec(0) });
    r.publish({ type: 'risk.killSwitch', time: T0 + 4, engaged: true, reason: 'daily loss limit 100 reached', dayPnl: dec('-101.5') });
    r.publish({ type: 'risk.killSwitch', time: T0 + 5, engaged: true, reason: 'daily loss limit 100 reached', dayPnl: dec('-102') });
    r.publish({ type: 'risk.killSwitch', time: T0 + 6, engaged: false, reason: 'resumed by operator', dayPnl: dec('-102') });
    const lines = r.trades();
    expect(lines.map((l) => [l['event'], l['level']])).toEqual([
      ['started', 30],
      ['stopped', 30],
      ['failed', 50],
      ['killSwitch', 40],
      ['killSwitch', 30],
    ]);
    expect(lines[0]).toMatchObject({ strategy: 'quoter', symbol: BTC });
    expect(lines[2]).toMatchObject({ strategy: 'trend', reason: 'TypeError: x is undefined' });
    expect(lines[3]).toMatchObject({ engaged: true, reason: 'daily loss limit 100 reached', dayPnl: '-101.5' });
    expect(lines[3]?.['msg']).toBe('HALT    kill switch engaged: daily loss limit 100 reached · PnL today -101.5');
    expect(lines[4]).toMatchObject({ engaged: false, reason: 'resumed by operator' });
  });

  it('risk denials repeated every tick: one line a minute per reason, counting the rest', () => {
    const r = rig();
    const deny = (time: number): BusEvent => ({
      type: 'intent.denied',
      time,
      strategyId: 'quoter',
      intent: { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec('64000'), quantity: dec('0.01') },
      denial: { code: 'MAX_OPEN_ORDERS', message: 'at most 4 open orders' },
    });
    for (let i = 0; i < 10; i++) r.publish(deny(T0 + i * 1000));
    r.publish(deny(T0 + 61_000));
    const lines = r.trades();
    expect(lines.map((l) => l['event'])).toEqual(['denied', 'denied']);
    expect(lines[0]).toMatchObject({ strategy: 'quoter', symbol: BTC, intent: 'place', code: 'MAX_OPEN_ORDERS' });
    expect(lines[1]).toMatchObject({ suppressed: 9 });
  });

  it('timers, stream state and everything else writes nothing; at warn level the info lines go', () => {
    const r = rig({ level: 'warn' });
    r.publish({ type: 'timer', time: T0, name: 'tick' });
    r.publish({ type: 'stream.connected', time: T0, epoch: 1 });
    r.publish(orderEvent(order()));
    r.publish({ type: 'risk.killSwitch', time: T0 + 4, engaged: true, reason: 'halt requested by operator', dayPnl: dec(0) });
    expect(r.trades().map((l) => l['event'])).toEqual(['killSwitch']);
  });
});

describe('the summary line', () => {
  it('every log.summaryEvery of virtual time, one line per strategy: state, position, open orders, fills and PnL today', () => {
    const r = rig();
    const clock = new VirtualClock(T0);
    const strategies = [
      { id: 'quoter', state: 'running', symbols: [BTC] },
      { id: 'trend', state: 'failed', symbols: ['ETH-SWAP-USDT'] },
    ];
    const logger = createLogger({
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          r.raw.push(chunk.toString());
          done();
        },
      }),
    });
    const summaries = startTradeSummaries(logger, clock, 60_000, { strategies: () => strategies, cache: r.cache, ownerOf: (id) => r.owners.get(id), day: r.tradeLog.day });
    r.publish(orderEvent(order()));
    r.publish(fillEvent(fill({ orderId: '9001' })));
    r.publish({
      type: 'account.position',
      source: 'stream',
      time: T0 + 2,
      position: { symbol: BTC, positionSide: 'LONG', qty: dec('0.004'), avgPrice: dec('64210.5'), leverage: dec(5), margin: dec(50), unrealizedPnl: dec('0.8'), realizedPnl: dec('1.32'), updateTime: T0 + 2 },
    });
    clock.advanceBy(59_999);
    expect(r.trades().filter((l) => l['event'] === 'summary')).toHaveLength(0);
    clock.advanceBy(1);
    clock.advanceBy(60_000);
    summaries?.unsubscribe();
    clock.advanceBy(120_000);
    const lines = r.trades().filter((l) => l['event'] === 'summary');
    expect(lines.map((l) => l['strategy'])).toEqual(['quoter', 'trend', 'quoter', 'trend']);
    expect(lines[0]).toMatchObject({ strategy: 'quoter', symbol: BTC, state: 'running', position: 'LONG 0.004 @ 64210.5 upnl 0.8', openOrders: 1, fillsToday: 1, realizedPnlToday: '1.32', feesToday: '0.0257 USDT' });
    expect(lines[1]).toMatchObject({ strategy: 'trend', state: 'failed', openOrders: 0, fillsToday: 0, realizedPnlToday: '0' });
    expect(lines[1]).not.toHaveProperty('position');
    expect(lines[0]?.['msg']).toBe('SUMMARY quoter BTC-SWAP-USDT running · position LONG 0.004 @ 64210.5 upnl 0.8 · open orders 1 · fills today 1 · realized pnl today +1.32 · fees 0.0257 USDT');
  });

  it('0 writes none; the daily reset starts a new day', () => {
    const r = rig();
    expect(startTradeSummaries(createLogger({ level: 'silent' }), new VirtualClock(T0), 0, { strategies: () => [], cache: r.cache, ownerOf: () => undefined, day: r.tradeLog.day })).toBeUndefined();
    r.publish(fillEvent(fill()));
    expect(r.tradeLog.day.of('quoter').fills).toBe(1);
    r.publish({ type: 'job.finished', time: T0 + 86_400_000, job: 'dailyReset', ok: true, detail: '' });
    expect(r.tradeLog.day.of('quoter').fills).toBe(0);
  });
});

describe('on a terminal', () => {
  /** Each JSON line as pino-pretty renders it with stratd's options (the transport does the same in its worker). */
  function render(raw: readonly string[], colorize: boolean): string[] {
    const pretty = prettyFactory(prettyOptions(colorize));
    return raw.map((line) => pretty(line) ?? '');
  }

  it('one line per entry: a trade line compact (thousands grouped, no fields after it); other lines keep their fields on the same line', () => {
    const r = rig();
    r.publish({ type: 'strategy.started', time: T0, strategyId: 'quoter' });
    r.publish(orderEvent(order()));
    r.publish(fillEvent(fill()));
    r.publish({ type: 'strategy.stopped', time: T0 + 2, strategyId: 'trend', reason: 'TypeError: x\nat line 2', failed: true });
    const logger = createLogger({
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          r.raw.push(chunk.toString());
          done();
        },
      }),
    });
    logger.info({ health: 'http://127.0.0.1:9464', strategies: ['quoter'] }, 'stratd running');
    const plain = render(r.raw, false);
    expect(plain).toHaveLength(5);
    for (const line of plain) expect(line.replace(/\n$/, '')).not.toContain('\n');
    expect(plain[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: START   quoter BTC-SWAP-USDT\n$/);
    expect(plain[1]).toMatch(/INFO: PLACE {3}quoter BTC-SWAP-USDT BUY 0\.010 @ 64,210\.5\n$/);
    expect(plain[2]).toMatch(/INFO: PART {4}quoter BTC-SWAP-USDT BUY 0\.004 @ 64,210\.5 fee 0\.0257 USDT pnl \+1\.32 \(partial: 0\.004\/0\.010\)\n$/);
    expect(plain[3]).toMatch(/ERROR: ERROR {3}trend: TypeError: x \| at line 2\n$/);
    expect(plain[4]).toMatch(/INFO: stratd running \{"health":"http:\/\/127\.0\.0\.1:9464","strategies":\["quoter"\]\}\n$/);
  });

  it('coloured by side and outcome when colour is on', () => {
    const r = rig();
    r.publish(orderEvent(order({ side: 'SELL', positionSide: 'SHORT' })));
    r.publish(orderEvent(order({ side: 'SELL', positionSide: 'SHORT', status: 'CANCELED', updateTime: T0 + 9 })));
    const [placed, cancelled] = render(r.raw, true);
    const RED = '\u001b[31m';
    const YELLOW = '\u001b[33m';
    expect(placed).toContain(`${RED}SELL`);
    expect(cancelled).toContain(`${YELLOW}CANCEL`);
  });
});
