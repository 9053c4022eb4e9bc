import { dec } from '../../src/core/decimal.js';
import type { ExternalSignal } from '../../src/model/signal-events.js';
import signal from '../../strategies/signal/index.js';
import { BTC, KernelRig, marketBuy, scripted, World } from '../engine/kernel/kernel-support.js';
import { instanceOf, recorded, rows } from './trend-funding-support.js';

/**
 * The bundled `signal` strategy on a symbol where another strategy (`other`) holds a long of 3: its
 * closes and its close-the-opposite-side act on its own ledger only, in virtual time against the
 * simulated exchange. The book is deep enough for every market order here.
 */
/** Signals sent to the current rig: keys and refs are numbered from 1. */
let n = 0;

async function setUp(): Promise<{ rig: KernelRig; intents: ReturnType<typeof recorded>['intents'] }> {
  n = 0;
  const world = new World();
  world.book([['99999.9', '1000']], [['100000.1', '1000']]);
  const other = scripted('other', { onStart: (ctx) => ctx.emit(marketBuy('3', 'long')) });
  const { definition, intents } = recorded(signal);
  const rig = new KernelRig(world, { strategies: [other, instanceOf('tv', definition, { quantity: 1 })] });
  await rig.start();
  return { rig, intents };
}

async function send(rig: KernelRig, fields: Partial<ExternalSignal>): Promise<void> {
  n += 1;
  const sig: ExternalSignal = { key: `k${n}`, symbol: BTC, action: 'buy', orderType: 'MARKET', sentAt: rig.clock.now(), ...fields };
  rig.kernel.ingest({ type: 'signal.received', time: rig.clock.now(), strategyId: 'tv', signal: sig, ref: `sig${n}` });
  await rig.settle();
}

function account(rig: KernelRig, side: 'LONG' | 'SHORT'): string {
  return rig.kernel.cache.position(BTC, side)?.qty.toFixed() ?? '0';
}

function own(rig: KernelRig, owner: string, side: 'LONG' | 'SHORT'): string {
  return rig.kernel.ledgers.position(owner, BTC, side)?.qty.toFixed() ?? '0';
}

describe('signal strategy: acts on its own ledger, not on the account', () => {
  test('a close while it holds nothing emits nothing: another strategy’s long on the symbol stays', async () => {
    const { rig, intents } = await setUp();
    expect(account(rig, 'LONG')).toBe('3');
    await send(rig, { action: 'close' });
    await send(rig, { action: 'close-long' });
    await send(rig, { action: 'sell', marketPosition: 'flat' });
    expect(intents).toEqual([]);
    expect(rig.of('intent.denied')).toEqual([]);
    expect(account(rig, 'LONG')).toBe('3');
    expect(own(rig, 'other', 'LONG')).toBe('3');
    await rig.stop(false);
  });

  test('a sell while it is long closes only its own long (2 of the account’s 5), then opens its short', async () => {
    const { rig, intents } = await setUp();
    await send(rig, { action: 'buy', quantity: dec(2) });
    expect([account(rig, 'LONG'), own(rig, 'tv', 'LONG'), own(rig, 'other', 'LONG')]).toEqual(['5', '2', '3']);
    await send(rig, { action: 'sell' });
    expect(rows(intents.slice(1))).toEqual([
      { type: 'place', key: 'sig2-0', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true },
      { type: 'place', key: 'sig2-1', symbol: BTC, side: 'SELL', positionSide: 'SHORT', orderType: 'MARKET', quantity: '1' },
    ]);
    expect(rig.of('intent.denied')).toEqual([]);
    expect([account(rig, 'LONG'), own(rig, 'tv', 'LONG'), own(rig, 'other', 'LONG')]).toEqual(['3', '0', '3']);
    expect([account(rig, 'SHORT'), own(rig, 'tv', 'SHORT')]).toEqual(['1', '1']);
    // Flat on its own long again: a further close-long is nothing, the other strategy's long stays.
    await send(rig, { action: 'close-long' });
    expect(intents).toHaveLength(3);
    expect(account(rig, 'LONG')).toBe('3');
    await rig.stop(false);
  });
});
