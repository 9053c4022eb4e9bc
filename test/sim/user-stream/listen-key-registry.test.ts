import { VirtualClock } from '../../../src/core/virtual-time.js';
import { NO_FAULTS } from '../../../src/sim/config/fault-settings.js';
import type { FaultSettings } from '../../../src/sim/config/fault-settings.js';
import { ListenKeyRegistry } from '../../../src/sim/user-stream/index.js';
import type { ListenKeyEnd, WillExpireNotice } from '../../../src/sim/user-stream/index.js';
import { T0, USER } from './fixtures.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const USDT = { userId: USER, category: 'USDT' } as const;
const USDC = { userId: USER, category: 'USDC' } as const;

function setup(faults: FaultSettings = NO_FAULTS) {
  const clock = new VirtualClock(T0);
  let settings = faults;
  const registry = new ListenKeyRegistry({ time: clock, faults: () => settings, seed: 7 });
  const notices: WillExpireNotice[] = [];
  const ends: Array<{ key: string; end: ListenKeyEnd; at: number }> = [];
  registry.onWillExpire((n) => notices.push(n));
  registry.onEnd((key, end) => ends.push({ key, end, at: clock.now() }));
  return { clock, registry, notices, ends, setFaults: (next: FaultSettings) => (settings = next) };
}

describe('listen keys: lifecycle in virtual time (document 001 table, API-NOTES §7)', () => {
  it('POST creates a 64-letter key valid for 60 minutes', () => {
    const { registry } = setup();
    const created = registry.create(USDT);
    expect(created.listenKey).toMatch(/^[A-Za-z]{64}$/);
    expect(created.expiresAt).toBe(T0 + HOUR);
    expect(registry.find(created.listenKey)).toEqual(created);
    expect(registry.activeKey(USDT)).toBe(created.listenKey);
  });

  it('keys are reproducible for a seed and differ between seeds', () => {
    const a = new ListenKeyRegistry({ time: new VirtualClock(T0), faults: () => NO_FAULTS, seed: 1 }).create(USDT).listenKey;
    const b = new ListenKeyRegistry({ time: new VirtualClock(T0), faults: () => NO_FAULTS, seed: 1 }).create(USDT).listenKey;
    const c = new ListenKeyRegistry({ time: new VirtualClock(T0), faults: () => NO_FAULTS, seed: 2 }).create(USDT).listenKey;
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('POST while a key is valid returns the same key, extended; USDC-M gets its own key', () => {
    const { clock, registry } = setup();
    const first = registry.create(USDT);
    clock.advanceBy(20 * MIN);
    const again = registry.create(USDT);
    expect(again.listenKey).toBe(first.listenKey);
    expect(again.expiresAt).toBe(T0 + 20 * MIN + HOUR);
    const usdc = registry.create(USDC);
    expect(usdc.listenKey).not.toBe(first.listenKey);
    expect(registry.activeKey(USDC)).toBe(usdc.listenKey);
    expect(registry.activeKey({ userId: 'someone-else', category: 'USDT' })).toBeUndefined();
  });

  it('PUT extends by the TTL; the key then outlives its first hour', () => {
    const { clock, registry, ends } = setup();
    const { listenKey } = registry.create(USDT);
    clock.advanceBy(50 * MIN);
    const kept = registry.keepAlive(USER, listenKey);
    expect(kept).toEqual({ ok: true, value: { listenKey, account: USDT, expiresAt: T0 + 50 * MIN + HOUR } });
    clock.advanceTo(T0 + HOUR + 10 * MIN);
    expect(registry.find(listenKey)).toBeDefined();
    expect(ends).toEqual([]);
  });

  it('unknown keys, and other users’ keys, are -1125 on PUT and DELETE', () => {
    const { registry } = setup();
    const { listenKey } = registry.create(USDT);
    const unknown = { ok: false, error: { code: -1125, msg: 'This listenKey does not exist.' } };
    expect(registry.keepAlive(USER, 'nope')).toEqual(unknown);
    expect(registry.close(USER, 'nope')).toEqual(unknown);
    expect(registry.keepAlive('879145609', listenKey)).toEqual(unknown);
    expect(registry.close('879145609', listenKey)).toEqual(unknown);
    expect(registry.find(listenKey)).toBeDefined();
  });

  it('DELETE ends the key at once: streams told "closed", later PUT/DELETE -1125, next POST issues a new key', () => {
    const { clock, registry, ends, notices } = setup();
    const { listenKey } = registry.create(USDT);
    clock.advanceBy(MIN);
    expect(registry.close(USER, listenKey).ok).toBe(true);
    expect(ends).toEqual([{ key: listenKey, end: 'closed', at: T0 + MIN }]);
    expect(registry.find(listenKey)).toBeUndefined();
    expect(registry.activeKey(USDT)).toBeUndefined();
    expect(registry.keepAlive(USER, listenKey).ok).toBe(false);
    expect(registry.close(USER, listenKey).ok).toBe(false);
    expect(registry.create(USDT).listenKey).not.toBe(listenKey);
    clock.advanceBy(2 * HOUR);
    expect(notices.filter((n) => n.listenKey === listenKey)).toEqual([]);
    expect(clock.pending()).toBe(0);
  });

  it('without keepalive: listenKeyWillExpire at −5, −4, −3, −2, −1 min, then expiry ends the key', () => {
    const { clock, registry, notices, ends } = setup();
    const { listenKey } = registry.create(USDT);
    clock.advanceTo(T0 + 55 * MIN - 1);
    expect(notices).toEqual([]);
    clock.advanceTo(T0 + HOUR - 1);
    expect(notices).toEqual([55, 56, 57, 58, 59].map((m) => ({ listenKey, time: T0 + m * MIN })));
    expect(ends).toEqual([]);
    clock.advanceTo(T0 + HOUR);
    expect(ends).toEqual([{ key: listenKey, end: 'expired', at: T0 + HOUR }]);
    expect(registry.find(listenKey)).toBeUndefined();
    expect(registry.activeKey(USDT)).toBeUndefined();
    expect(registry.keepAlive(USER, listenKey)).toMatchObject({ ok: false, error: { code: -1125 } });
    expect(clock.pending()).toBe(0);
  });

  it('a keepalive during the warning minutes stops the notices until the new last five minutes', () => {
    const { clock, registry, notices } = setup();
    const { listenKey } = registry.create(USDT);
    clock.advanceTo(T0 + 57 * MIN);
    expect(notices).toHaveLength(3);
    registry.keepAlive(USER, listenKey);
    clock.advanceTo(T0 + 57 * MIN + 55 * MIN - 1);
    expect(notices).toHaveLength(3);
    clock.advanceTo(T0 + 57 * MIN + 55 * MIN);
    expect(notices.at(-1)).toEqual({ listenKey, time: T0 + 112 * MIN });
  });

  it('early expiry: listenKeyTtlMs applies from the next POST/PUT; a 3-minute TTL warns at −2 and −1 min', () => {
    const { clock, registry, notices, ends, setFaults } = setup();
    setFaults({ ...NO_FAULTS, listenKeyTtlMs: 3 * MIN });
    const { listenKey, expiresAt } = registry.create(USDT);
    expect(expiresAt).toBe(T0 + 3 * MIN);
    clock.advanceTo(T0 + 3 * MIN);
    expect(notices).toEqual([1, 2].map((m) => ({ listenKey, time: T0 + m * MIN })));
    expect(ends).toEqual([{ key: listenKey, end: 'expired', at: T0 + 3 * MIN }]);

    const second = registry.create(USDT);
    setFaults({ ...NO_FAULTS, listenKeyTtlMs: 10_000 });
    registry.keepAlive(USER, second.listenKey);
    clock.advanceBy(10_000);
    expect(ends.at(-1)).toEqual({ key: second.listenKey, end: 'expired', at: T0 + 3 * MIN + 10_000 });
  });

  it('dispose cancels every timer', () => {
    const { clock, registry, ends } = setup();
    registry.create(USDT);
    registry.create(USDC);
    registry.dispose();
    expect(clock.pending()).toBe(0);
    clock.advanceBy(2 * HOUR);
    expect(ends).toEqual([]);
  });
});
