import type { PlaceIntent } from '../../../src/model/intents.js';
import { BTC, RiskHarness, d } from './risk-harness.js';

const openBuy: PlaceIntent = { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: d(100000), quantity: d(1) };
const closeLong: PlaceIntent = { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true };

function code(result: { ok: true } | { ok: false; error: { code: string } }): string {
  return result.ok ? 'ok' : result.error.code;
}

describe('risk engine: daily-loss kill switch', () => {
  it('engages when realized PnL − fees reaches the limit, halts opening orders, and a new day releases it', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    h.position(BTC, 'LONG', '2', '100000');
    expect(h.fill(BTC, 't1', '-60', '5')).toBeUndefined();
    expect(h.engine.dayPnl().toFixed()).toBe('-65');
    const engaged = h.fill(BTC, 't2', '-30', '5');
    expect(engaged).toMatchObject({ type: 'risk.killSwitch', engaged: true, time: h.clock.now() });
    expect(engaged?.dayPnl.toFixed()).toBe('-100');
    expect(h.engine.killSwitch).toMatchObject({ engaged: true, since: h.clock.now() });
    expect(h.engine.killSwitch.reason).toContain('daily loss');

    expect(code(h.check('s1', openBuy))).toBe('KILL_SWITCH');
    expect(code(h.check('s2', { type: 'plan', symbol: BTC, side: 'BUY', triggerPrice: d(101000), orderType: 'MARKET', quantity: d(1) }))).toBe('KILL_SWITCH');
    expect(code(h.check('s1', closeLong))).toBe('ok');
    expect(code(h.check('s1', { type: 'tpsl', symbol: BTC, positionSide: 'LONG', kind: 'STOP_LOSS', triggerPrice: d(95000) }))).toBe('ok');
    expect(h.fill(BTC, 't3', '-50', '0')).toBeUndefined();

    h.clock.advanceBy(3_600_000);
    const released = h.engine.startNewDay();
    expect(released).toMatchObject({ type: 'risk.killSwitch', engaged: false, time: h.clock.now() });
    expect(h.engine.killSwitch).toEqual({ engaged: false, reason: 'new trading day', since: undefined, dailyLoss: false, override: undefined });
    expect(h.engine.dayPnl().toFixed()).toBe('0');
    expect(code(h.check('s1', openBuy))).toBe('ok');
  });

  it('counts a repeated fill once and ignores fills from before the day started', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    h.fill(BTC, 't1', '-40', '1');
    h.fill(BTC, 't1', '-40', '1');
    h.fill(BTC, 'old', '-500', '0', h.clock.now() - 1);
    expect(h.engine.dayPnl().toFixed()).toBe('-41');
    expect(h.engine.killSwitch.engaged).toBe(false);
  });

  it('follows unrealized PnL with the mark price, from the day’s baseline', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    // Seen at start-up: an old position, 500 under water already; that loss is not today's.
    h.position(BTC, 'LONG', '10', '150000', '-500');
    expect(h.engine.dayPnl().toFixed()).toBe('0');
    expect(h.mark(BTC, '94000')).toBeUndefined(); // (94000 − 150000) × 10 × 0.001 = −560: −60 today
    expect(h.engine.dayPnl().toFixed()).toBe('-60');
    const engaged = h.mark(BTC, '89900');
    expect(engaged?.engaged).toBe(true);
    expect(engaged?.dayPnl.toFixed()).toBe('-101');
  });

  it('after the account is synchronised, a newly seen position counts from zero', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    h.feed({ type: 'account.resynced', time: h.clock.now(), epoch: 1, adopted: 0, cancelled: 0, settled: 0 });
    expect(h.position(BTC, 'SHORT', '5', '100000', '-99')).toBeUndefined();
    expect(h.position(BTC, 'SHORT', '5', '100000', '-120')?.engaged).toBe(true);
  });

  it('figures beyond exact integers mid-day: the values decimal.js’s 20-digit steps give', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(1e9) } });
    h.feed({ type: 'account.resynced', time: h.clock.now(), epoch: 1, adopted: 0, cancelled: 0, settled: 0 });
    h.position(BTC, 'SHORT', '3', '100000.12345', '0');
    h.mark(BTC, '99999.9'); // (100000.12345 − 99999.9) × 3 × 0.001
    expect(h.engine.dayPnl().toFixed()).toBe('0.00067035');
    // 23 significant digits: decimal.js rounds the day's realized sum to 20.
    h.fill(BTC, 't1', '12345.123456789012345678', '0.5');
    const realized = d(0).add(d('12345.123456789012345678')).sub(d('0.5'));
    expect(h.engine.dayPnl().toFixed()).toBe(realized.add(d('0.00067035')).toFixed());
    h.mark(BTC, '99000.1');
    const unrealized = d('0.00067035').add(d('100000.12345').sub(d('99000.1')).mul(3).mul(d('0.001')).sub(d('0.00067035')));
    expect(h.engine.dayPnl().toFixed()).toBe(realized.add(unrealized).toFixed());
    expect(h.engine.dayPnl().toFixed()).toBe('12347.623527139012346');
  });

  it('a new day starts from the positions’ current unrealized PnL', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    h.feed({ type: 'account.resynced', time: h.clock.now(), epoch: 1, adopted: 0, cancelled: 0, settled: 0 });
    h.position(BTC, 'LONG', '10', '100000', '0');
    h.mark(BTC, '95000'); // −50
    h.engine.startNewDay();
    expect(h.engine.dayPnl().toFixed()).toBe('0');
    h.mark(BTC, '90000'); // another −50 today
    expect(h.engine.dayPnl().toFixed()).toBe('-50');
  });

  it('engaged by hand: stays engaged over a new day until resumed', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    expect(h.engine.engage('operator')).toMatchObject({ type: 'risk.killSwitch', engaged: true, reason: 'operator' });
    expect(h.engine.engage('again')).toBeUndefined();
    expect(h.engine.startNewDay()).toBeUndefined();
    expect(code(h.check('s1', openBuy))).toBe('KILL_SWITCH');
    expect(h.engine.resumeTrading()).toEqual({ ok: true, value: { change: expect.objectContaining({ engaged: false, reason: 'reset by hand' }), overridden: false } });
    expect(h.engine.resumeTrading()).toEqual({ ok: true, value: { change: undefined, overridden: false } });
    expect(code(h.check('s1', openBuy))).toBe('ok');
  });

  it('a daily-loss halt is not lifted by a resume: it lasts until the new day, and the loss baseline stays put', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    expect(h.fill(BTC, 't1', '-120', '0')?.engaged).toBe(true);
    const refused = h.engine.resumeTrading();
    expect(refused).toEqual({ ok: false, error: { code: 'DAILY_LOSS_HALT', message: expect.stringContaining('daily reset'), retryable: false } });
    expect(h.engine.killSwitch).toMatchObject({ engaged: true, dailyLoss: true });
    expect(code(h.check('s1', openBuy))).toBe('KILL_SWITCH');
    expect(h.engine.dayPnl().toFixed()).toBe('-120');
    // A hand on top of it, then a plain resume: the hand's hold goes, the daily loss's stays.
    h.engine.engage('operator');
    expect(h.engine.resumeTrading().ok).toBe(false);
    expect(h.engine.killSwitch).toMatchObject({ engaged: true, dailyLoss: true });
    expect(h.engine.startNewDay()).toMatchObject({ engaged: false, reason: 'new trading day' });
    expect(code(h.check('s1', openBuy))).toBe('ok');
  });

  it('an override with a reason lifts a daily-loss halt for the rest of the day; the baseline does not move; the new day ends the override', () => {
    const h = new RiskHarness({ global: { dailyLossLimit: d(100) } });
    expect(h.fill(BTC, 't1', '-120', '0')?.engaged).toBe(true);
    h.engine.engage('operator');
    const resumed = h.engine.resumeTrading({ reason: 'hedge the book by hand' });
    expect(resumed).toEqual({
      ok: true,
      value: { change: expect.objectContaining({ engaged: false, reason: 'daily loss limit overridden by hand: hedge the book by hand' }), overridden: true },
    });
    expect(h.engine.killSwitch).toEqual({
      engaged: false,
      reason: 'daily loss limit overridden by hand: hedge the book by hand',
      since: undefined,
      dailyLoss: false,
      override: { reason: 'hedge the book by hand', at: h.clock.now(), dayPnl: '-120' },
    });
    expect(code(h.check('s1', openBuy))).toBe('ok');
    // The day's PnL still counts from the day's start.
    expect(h.fill(BTC, 't2', '-50', '0')).toBeUndefined();
    expect(h.engine.dayPnl().toFixed()).toBe('-170');
    // The new day: a fresh budget, no override, the limit in force again.
    h.engine.startNewDay();
    expect(h.engine.killSwitch.override).toBeUndefined();
    expect(h.fill(BTC, 't3', '-99', '0')).toBeUndefined();
    expect(h.fill(BTC, 't4', '-1', '0')?.engaged).toBe(true);
  });

  it('without a daily loss limit it never engages by itself', () => {
    const h = new RiskHarness();
    expect(h.fill(BTC, 't1', '-1000000', '0')).toBeUndefined();
    expect(h.engine.killSwitch.engaged).toBe(false);
  });
});

describe('risk engine: halting a strategy', () => {
  it('denies its opening intents only; others and closing orders go on', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '2', '100000');
    h.engine.halt('s1');
    expect(h.engine.isHalted('s1')).toBe(true);
    expect(code(h.check('s1', openBuy))).toBe('STRATEGY_HALTED');
    expect(code(h.check('s2', openBuy))).toBe('ok');
    expect(code(h.check('s1', closeLong))).toBe('ok');
    h.engine.resume('s1');
    expect(code(h.check('s1', openBuy))).toBe('ok');
  });
});

describe('risk engine: denial counters', () => {
  it('counts denials by code, overall and per strategy', () => {
    const h = new RiskHarness();
    h.engine.halt('s1');
    h.check('s1', openBuy);
    h.check('s1', openBuy);
    h.check('s2', { ...openBuy, quantity: d(-1) });
    h.check('s2', openBuy);
    expect(h.engine.denials()).toEqual(new Map([['STRATEGY_HALTED', 2], ['INVALID_QUANTITY', 1]]));
    expect(h.engine.denialsOf('s1')).toEqual(new Map([['STRATEGY_HALTED', 2]]));
    expect(h.engine.denialsOf('s2')).toEqual(new Map([['INVALID_QUANTITY', 1]]));
    expect(h.engine.denialsOf('s3')).toEqual(new Map());
  });
});
