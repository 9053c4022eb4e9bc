import { dec } from '../../../src/core/decimal.js';
import type { KlineUpdated } from '../../../src/model/market-events.js';
import { BTC, KernelRig, scripted, T0, World } from './kernel-support.js';

const MIN = 60_000;

function kline(openTime: number, close: string, closed: boolean, time: number): KlineUpdated {
  const c = dec(close);
  return { type: 'market.kline', symbol: BTC, interval: '1m', time, openTime, closeTime: openTime + MIN - 1, open: c, high: c, low: c, close: c, volume: dec(1), closed };
}

test('strategies see each kline once, closed, and a cache whose kline series ends with the newest closed one', async () => {
  const world = new World();
  const seriesSeen: string[][] = [];
  const reader = scripted('reader', {
    onEvent: (ctx, event) => {
      if (event.type === 'market.kline' || event.type === 'market.markPrice') seriesSeen.push(ctx.cache.klines(BTC, '1m').map((k) => `${k.openTime - T0}:${k.close.toFixed()}:${k.closed}`));
    },
  });
  const rig = new KernelRig(world, { strategies: [reader] });
  await rig.start();

  // A live poller's replies: the first minute closed, the second forming (twice), then closed.
  rig.kernel.ingest(kline(T0, '100', true, T0 + MIN + 10));
  rig.kernel.ingest(kline(T0 + MIN, '101', false, T0 + MIN + 5000));
  rig.kernel.ingest({ type: 'market.markPrice', symbol: BTC, time: T0 + MIN + 6000, price: dec('101') });
  rig.kernel.ingest(kline(T0 + MIN, '102', false, T0 + MIN + 10_000));
  await rig.settle();
  // The daemon's own cache (dashboard, risk) has the forming kline; the strategy's view does not.
  expect(rig.kernel.cache.klines(BTC, '1m').map((k) => k.closed)).toEqual([true, false]);
  rig.kernel.ingest(kline(T0 + MIN, '103', true, T0 + 2 * MIN + 10));
  await rig.settle();

  expect(reader.of('market.kline').map((k) => [k.openTime - T0, k.close.toFixed(), k.closed])).toEqual([
    [0, '100', true],
    [MIN, '103', true],
  ]);
  expect(seriesSeen).toEqual([['0:100:true'], ['0:100:true'], ['0:100:true', `${MIN}:103:true`]]);
  await rig.stop(false);
});
