import { Registry } from 'prom-client';
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
});
