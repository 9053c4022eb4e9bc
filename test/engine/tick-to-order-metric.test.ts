import { Registry } from 'prom-client';
import { TickToOrder } from '../../src/engine/tick-to-order.js';

/** The samples held between scrapes: every one reaches the histogram when it is read, none after a reset. */
describe('TickToOrder histogram', () => {
  const countOf = async (registry: Registry): Promise<string | undefined> =>
    (await registry.metrics()).split('\n').find((line) => line.startsWith('stratd_tick_to_order_seconds_count{command="place-order",trigger="market.bookTicker"}'));

  test('samples observed at the write are in the histogram when it is scraped, and a reset forgets the held ones', async () => {
    const registry = new Registry();
    const metric = new TickToOrder(registry);
    for (let i = 0; i < 3; i++) metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 10, writtenAt: 10.2 + i });
    expect(await countOf(registry)).toBe('stratd_tick_to_order_seconds_count{command="place-order",trigger="market.bookTicker"} 3');
    metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 10, writtenAt: 11 });
    metric.reset();
    metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 10, writtenAt: 12 });
    expect(await countOf(registry)).toBe('stratd_tick_to_order_seconds_count{command="place-order",trigger="market.bookTicker"} 1');
    expect(metric.summary().count).toBe(1);
  });

  test('more samples than are held between scrapes all reach the histogram', async () => {
    const registry = new Registry();
    const metric = new TickToOrder(registry);
    for (let i = 0; i < 2500; i++) metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 0, writtenAt: 0.5 });
    expect(await countOf(registry)).toBe('stratd_tick_to_order_seconds_count{command="place-order",trigger="market.bookTicker"} 2500');
  });
});
