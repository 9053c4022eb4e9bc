import { Registry } from 'prom-client';
import { dec } from '../../src/core/decimal.js';
import { KernelMetrics } from '../../src/engine/kernel-metrics.js';

describe('KernelMetrics: events counted in plain numbers, read through prom-client', () => {
  it('stratd_bus_events_total and stratd_events_total show every event counted, at each read', async () => {
    const registry = new Registry();
    const metrics = new KernelMetrics(registry);
    const none = (): undefined => undefined;
    metrics.count({ type: 'timer', time: 1, name: 'tick' }, none);
    metrics.count({ type: 'timer', time: 2, name: 'tick' }, none);
    const first = await registry.metrics();
    expect(first).toContain('stratd_bus_events_total{type="timer"} 2');
    expect(first).toContain('stratd_events_total{source="kernel"} 2');
    metrics.count({ type: 'timer', time: 3, name: 'tick' }, none);
    const second = await registry.metrics();
    expect(second).toContain('stratd_bus_events_total{type="timer"} 3');
    expect(second).toContain('stratd_events_total{source="kernel"} 3');
  });

  it('stratd_bus_lag_seconds and approved intents, held off the event path, are all in every read', async () => {
    const registry = new Registry();
    let exchangeNow = 10_000;
    const metrics = new KernelMetrics(registry, { exchangeNow: () => exchangeNow });
    const none = (): undefined => undefined;
    const tick = (time: number): void => metrics.count({ type: 'market.bookTicker', symbol: 'BTC-SWAP-USDT', time, bidPrice: dec(1), bidQty: dec(1), askPrice: dec(2), askQty: dec(1) }, none);
    tick(9_990);
    tick(9_700);
    metrics.approved('alpha');
    const first = await registry.metrics();
    expect(first).toContain('stratd_bus_lag_seconds_count{source="market"} 2');
    expect(first).toContain('stratd_bus_lag_seconds_sum{source="market"} 0.31');
    expect(first).toContain('stratd_bus_lag_seconds_bucket{le="0.025",source="market"} 1');
    expect(first).toContain('stratd_intents_total{strategy="alpha",outcome="approved"} 1');
    // More than are ever held between reads: none is lost, none counted twice.
    exchangeNow = 20_000;
    for (let i = 0; i < 2_500; i++) tick(20_000);
    metrics.approved('alpha');
    const second = await registry.metrics();
    expect(second).toContain('stratd_bus_lag_seconds_count{source="market"} 2502');
    expect(second).toContain('stratd_intents_total{strategy="alpha",outcome="approved"} 2');
  });
});
