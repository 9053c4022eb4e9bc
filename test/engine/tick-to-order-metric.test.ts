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

  test("a command's summary is over its own samples, stages included; a reset forgets which command each was", () => {
    const metric = new TickToOrder(new Registry(), 4);
    // A tick cancels then places: the place's way (kernel stage) holds the cancel's.
    for (let i = 0; i < 3; i++) {
      metric.observe('cancel-order', { event: 'market.bookTicker', arrivedAt: 0, ingestedAt: 0.1, emittedAt: 0.15, writtenAt: 0.5 });
      metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 0, ingestedAt: 0.1, emittedAt: 0.6, writtenAt: 1 });
    }
    // Capacity 4: the two oldest samples (a cancel and a place) are gone.
    expect(metric.summary()).toMatchObject({ count: 6, kept: 4 });
    expect(metric.summary('cancel-order')).toMatchObject({ count: 2, kept: 2, p50Ms: 0.5, maxMs: 0.5 });
    expect(metric.summary('place-order')).toMatchObject({ count: 2, kept: 2, p50Ms: 1, maxMs: 1 });
    expect(metric.summary('cancel-order').stages.kernel.p50Ms).toBeCloseTo(0.05);
    expect(metric.summary('place-order').stages.kernel.p50Ms).toBeCloseTo(0.5);
    expect(metric.summary('modify-order')).toMatchObject({ count: 0, kept: 0, p50Ms: 0 });
    metric.reset();
    metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 0, writtenAt: 2 });
    expect(metric.summary('cancel-order').kept).toBe(0);
    expect(metric.summary('place-order')).toMatchObject({ kept: 1, p50Ms: 2 });
  });

  test('more samples than are held between scrapes all reach the histogram', async () => {
    const registry = new Registry();
    const metric = new TickToOrder(registry);
    for (let i = 0; i < 2500; i++) metric.observe('place-order', { event: 'market.bookTicker', arrivedAt: 0, writtenAt: 0.5 });
    expect(await countOf(registry)).toBe('stratd_tick_to_order_seconds_count{command="place-order",trigger="market.bookTicker"} 2500');
  });
});
