import { TriggerBook, type PriceSource, type TrailingCallback, type TriggerDirection, type TriggerSpec } from '../../../../src/sim/engine/triggers/index.js';
import { Prng } from '../../../../src/sim/market-stream/prng.js';

/**
 * The book against a plain reference: every trigger checked on every price in registration order,
 * trailing levels from BigInt arithmetic. Random adds, removes, updates and price walks on two symbols.
 */
interface ModelTrigger {
  id: string;
  spec: TriggerSpec;
  active: boolean;
  extreme: number | undefined;
}

const SYMBOLS = ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'] as const;
const SOURCES: readonly PriceSource[] = ['CONTRACT_PRICE', 'MARK_PRICE'];

function modelLevel(direction: TriggerDirection, callback: TrailingCallback, extreme: number): number {
  if (callback.type === 'PRICE') return direction === 'FALLING' ? extreme - callback.ticks : extreme + callback.ticks;
  const scale = 100_000_000n;
  if (direction === 'FALLING') return Number((BigInt(extreme) * (scale - BigInt(callback.rateE8))) / scale);
  const numerator = BigInt(extreme) * (scale + BigInt(callback.rateE8));
  return Number((numerator + scale - 1n) / scale);
}

class Model {
  triggers: ModelTrigger[] = [];
  last = new Map<string, number>();

  add(id: string, spec: TriggerSpec, at = this.triggers.length): void {
    const trigger: ModelTrigger = { id, spec, active: false, extreme: undefined };
    if (spec.kind === 'TRAILING' && spec.activeTicks === 0) {
      trigger.active = true;
      trigger.extreme = this.last.get(`${spec.symbol}/${spec.source}`);
    }
    this.triggers.splice(at, 0, trigger);
  }

  onPrice(symbol: string, source: PriceSource, ticks: number): string[] {
    this.last.set(`${symbol}/${source}`, ticks);
    const fired: string[] = [];
    for (const trigger of this.triggers) {
      const spec = trigger.spec;
      if (spec.symbol !== symbol || spec.source !== source) continue;
      const falling = spec.direction === 'FALLING';
      if (spec.kind === 'FIXED') {
        if (falling ? ticks <= spec.stopTicks : ticks >= spec.stopTicks) fired.push(trigger.id);
        continue;
      }
      if (!trigger.active && (falling ? ticks >= spec.activeTicks : ticks <= spec.activeTicks)) trigger.active = true;
      if (!trigger.active) continue;
      if (trigger.extreme === undefined || (falling ? ticks > trigger.extreme : ticks < trigger.extreme)) trigger.extreme = ticks;
      const level = modelLevel(spec.direction, spec.callback, trigger.extreme);
      if (falling ? ticks <= level : ticks >= level) fired.push(trigger.id);
    }
    this.triggers = this.triggers.filter((trigger) => !fired.includes(trigger.id));
    return fired;
  }
}

function randomSpec(prng: Prng, price: number): TriggerSpec {
  const symbol = SYMBOLS[prng.int(0, 1)] ?? SYMBOLS[0];
  const source = SOURCES[prng.int(0, 1)] ?? 'CONTRACT_PRICE';
  const direction: TriggerDirection = prng.int(0, 1) === 0 ? 'RISING' : 'FALLING';
  if (prng.int(0, 2) > 0) return { kind: 'FIXED', symbol, source, direction, stopTicks: price + prng.int(-60, 60) };
  const activeTicks = prng.int(0, 1) === 0 ? 0 : price + prng.int(-40, 40);
  const callback: TrailingCallback = prng.int(0, 1) === 0 ? { type: 'RATE', rateE8: prng.int(1, 5_000_000) } : { type: 'PRICE', ticks: prng.int(1, 30) };
  return { kind: 'TRAILING', symbol, source, direction, activeTicks, callback };
}

describe('TriggerBook against a reference model', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('agrees over a random session (seed %d)', (seed) => {
    const prng = new Prng(seed, 'trigger-book');
    const book = new TriggerBook();
    const model = new Model();
    const prices = new Map<string, number>();
    let nextId = 0;
    let firedCount = 0;
    const bookLog: string[] = [];
    const modelLog: string[] = [];
    for (let step = 0; step < 4000; step++) {
      const symbol = SYMBOLS[prng.int(0, 1)] ?? SYMBOLS[0];
      const source = SOURCES[prng.int(0, 1)] ?? 'CONTRACT_PRICE';
      const key = `${symbol}/${source}`;
      const price = Math.max(1, (prices.get(key) ?? 1000) + prng.int(-8, 8) + (prng.int(0, 50) === 0 ? prng.int(-80, 80) : 0));
      const action = prng.int(0, 9);
      if (action === 0) {
        const id = `t${nextId++}`;
        const spec = randomSpec(prng, price);
        book.add(id, spec);
        model.add(id, spec);
      } else if (action === 1 && model.triggers.length > 0) {
        const victim = model.triggers[prng.int(0, model.triggers.length - 1)];
        if (victim === undefined) continue;
        const at = model.triggers.indexOf(victim);
        if (prng.int(0, 1) === 0) {
          model.triggers.splice(at, 1);
          expect(book.remove(victim.id)).toBe(true);
        } else {
          // Half the updates repeat the parameters (a quantity-only modify): the trigger keeps its state.
          const spec = prng.int(0, 1) === 0 ? victim.spec : { ...randomSpec(prng, price), symbol: victim.spec.symbol };
          expect(book.update(victim.id, spec)).toBe(true);
          if (JSON.stringify(spec) !== JSON.stringify(victim.spec)) {
            model.triggers.splice(at, 1);
            model.add(victim.id, spec, at);
          }
        }
      } else {
        prices.set(key, price);
        const fired = book.onPrice(symbol, source, price);
        bookLog.push(`${step} ${fired.join()} ${book.size}`);
        modelLog.push(`${step} ${model.onPrice(symbol, source, price).join()} ${model.triggers.length}`);
        firedCount += fired.length;
      }
    }
    expect(bookLog).toEqual(modelLog);
    for (const symbol of SYMBOLS) {
      expect(book.idsFor(symbol)).toEqual(model.triggers.filter((trigger) => trigger.spec.symbol === symbol).map((trigger) => trigger.id));
    }
    for (const trigger of model.triggers) {
      const state = book.get(trigger.id);
      if (state?.kind !== 'TRAILING' || trigger.spec.kind !== 'TRAILING') continue;
      expect([state.activeStatus, state.extremeTicks]).toEqual([trigger.active ? 1 : 0, trigger.extreme]);
    }
    expect(firedCount).toBeGreaterThan(50);
  });
});
