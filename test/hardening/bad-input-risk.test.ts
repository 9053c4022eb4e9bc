import fc from 'fast-check';
import { Decimal, dec } from '../../src/core/decimal.js';
import { ABSURD_VALUE, NEGLIGIBLE_VALUE } from '../../src/engine/risk/quantize.js';
import type { ExchangeCommand } from '../../src/model/commands.js';
import type { Intent } from '../../src/model/intents.js';
import { KernelRig, scripted, World } from '../engine/kernel/kernel-support.js';
import { BTC, RiskHarness } from '../engine/risk/risk-harness.js';
import { getAt, runs, setAt } from './bad-input-support.js';
import type { JsonPath } from './bad-input-support.js';

/**
 * Issue 8, strategy intents with NaN, infinite, negative, zero, absurd (1e30) or non-decimal prices and
 * quantities: the risk engine denies them with INVALID_PRICE / INVALID_QUANTITY and never throws; whatever
 * it approves carries only finite, positive, sane numbers; and through the kernel (strategy → risk → executor)
 * such an intent comes back as intent.denied, nothing is sent, and the kernel goes on.
 */
const ONE_BAD_FIELD_RUNS = 5_000;
const ANY_FIELDS_RUNS = 5_000;
const KERNEL_RUNS = 300;

/** A number a strategy might hand over by mistake: NaN, ±Infinity, ≤ 0, absurdly large or small (an overflow, an underflow), or not a Decimal at all. */
const badNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -0).map((n) => dec(n)),
  fc.double({ max: -Number.MIN_VALUE, noNaN: true }).map((n) => dec(n)),
  fc.constantFrom('1e30', '1e400', '1e9000000000000000', '-1e30', `1${'0'.repeat(40)}`).map((t) => dec(t)),
  fc.double({ min: ABSURD_VALUE.toNumber() * 1.000001, noNaN: true }).map((n) => dec(n)),
  fc.constantFrom('1e-13', '1e-30', '1e-8999999999999999').map((t) => dec(t)),
  fc.constantFrom<unknown>(Number.NaN, Infinity, 5, -1, 1e30, '5', '1e30', 'NaN', null, {}, [], true, 5n),
);

/** A usable value for a field (the intent may still be denied for other reasons: bands, filters, limits). */
const goodNumber: fc.Arbitrary<Decimal> = fc.double({ min: 0.01, max: 200_000, noNaN: true }).map((n) => dec(n.toPrecision(8)));

interface Template {
  readonly name: string;
  readonly intent: Intent;
  /** Numeric fields the check uses, and the denial a bad value there gets. */
  readonly fields: ReadonlyArray<readonly [JsonPath, 'INVALID_PRICE' | 'INVALID_QUANTITY']>;
}

const TEMPLATES: readonly Template[] = [
  {
    name: 'limit buy with TP/SL',
    intent: {
      type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec('99999.9'), quantity: dec(1),
      takeProfit: { triggerPrice: dec(105000), limitPrice: dec(105000) }, stopLoss: { triggerPrice: dec(95000) },
    },
    fields: [[['price'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY'], [['takeProfit', 'triggerPrice'], 'INVALID_PRICE'], [['takeProfit', 'limitPrice'], 'INVALID_PRICE'], [['stopLoss', 'triggerPrice'], 'INVALID_PRICE']],
  },
  { name: 'market buy', intent: { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) }, fields: [[['quantity'], 'INVALID_QUANTITY']] },
  {
    name: 'reduce-only limit sell (closes the long)',
    intent: { type: 'place', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: dec('100000.1'), quantity: dec(2), reduceOnly: true },
    fields: [[['price'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY']],
  },
  {
    name: 'plan order',
    intent: { type: 'plan', symbol: BTC, side: 'BUY', triggerPrice: dec(101000), orderType: 'LIMIT', price: dec(101050), quantity: dec(2) },
    fields: [[['triggerPrice'], 'INVALID_PRICE'], [['price'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY']],
  },
  {
    name: 'stop-loss on the position',
    intent: { type: 'tpsl', symbol: BTC, positionSide: 'LONG', kind: 'STOP_LOSS', triggerPrice: dec(95000), limitPrice: dec(94900), quantity: dec(1) },
    fields: [[['triggerPrice'], 'INVALID_PRICE'], [['limitPrice'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY']],
  },
  {
    name: 'modify an open order',
    intent: { type: 'modify', clientOrderId: 's1-open', price: dec(98000), quantity: dec(3) },
    fields: [[['price'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY']],
  },
  {
    name: 'modify a TP/SL into a trailing stop',
    intent: { type: 'modify-algo', clientOrderId: 's1-tp', triggerPrice: dec(106000), quantity: dec(1), trailing: { callbackType: 'RATE', callbackValue: dec('0.01'), activePrice: dec(105500) } },
    fields: [[['triggerPrice'], 'INVALID_PRICE'], [['quantity'], 'INVALID_QUANTITY'], [['trailing', 'callbackValue'], 'INVALID_PRICE'], [['trailing', 'activePrice'], 'INVALID_PRICE']],
  },
  {
    name: 'modify a TP/SL price',
    intent: { type: 'modify-algo', clientOrderId: 's1-tp', price: dec(104000) },
    fields: [[['price'], 'INVALID_PRICE']],
  },
];

/** A fresh engine with a LONG position of 5, an open limit buy (s1-open) and a take-profit on the long (s1-tp). */
function harness(): RiskHarness {
  const h = new RiskHarness();
  h.position(BTC, 'LONG', '5', '90000');
  h.order('s1', 's1-open', { side: 'BUY', price: '99000', quantity: '2' });
  h.algo('s1', 's1-tp', { kind: 'TAKE_PROFIT', side: 'SELL', positionSide: 'LONG', orderType: 'LIMIT', triggerPrice: '105000', price: '104500', quantity: '1' });
  return h;
}

/** Intents are built from Decimals: `setAt` copies plain objects only, so the template's own Decimals are shared (never mutated). */
function withValue(intent: Intent, path: JsonPath, value: unknown): Intent {
  return setAt(intent, path, value) as Intent;
}

/** Every Decimal of an approved command is finite, positive and neither absurdly large nor absurdly small. */
function commandProblem(commands: readonly ExchangeCommand[]): string | undefined {
  const walk = (value: unknown, at: string): string | undefined => {
    if (Decimal.isDecimal(value)) return value.isFinite() && value.gte(NEGLIGIBLE_VALUE) && value.lte(ABSURD_VALUE) ? undefined : `${at} = ${value.toString()}`;
    if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} = ${value}`;
    if (typeof value !== 'object' || value === null) return undefined;
    for (const [key, item] of Object.entries(value)) {
      const found = walk(item, `${at}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(commands, 'commands');
}

describe('risk engine: bad numbers from a strategy', () => {
  it.each(TEMPLATES.map((t) => [t.name, t] as const))('the template "%s" is approved as it is', (_name, t) => {
    const approved = harness().approve('s1', t.intent);
    expect(approved).toHaveLength(1);
    expect(commandProblem(approved)).toBeUndefined();
  });

  it(`one bad price or quantity: denied with INVALID_PRICE / INVALID_QUANTITY, never thrown: ${ONE_BAD_FIELD_RUNS} cases`, () => {
    const arb = fc.oneof(...TEMPLATES.flatMap((t) => t.fields.map(([path, code]) => fc.tuple(fc.constant(t), fc.constant(path), fc.constant(code), badNumber))));
    fc.assert(
      fc.property(arb, ([t, path, code, value]) => {
        const result = harness().check('s1', withValue(t.intent, path, value));
        if (result.ok) throw new Error(`${t.name}: ${path.join('.')} = ${String(value)} was approved`);
        expect(result.error.code).toBe(code);
        expect(typeof result.error.message).toBe('string');
      }),
      runs(ONE_BAD_FIELD_RUNS),
    );
  });

  it(`any mix of good and bad fields: a bad one means denied; an approval carries finite, positive, sane numbers only: ${ANY_FIELDS_RUNS} cases`, () => {
    const arb = fc.oneof(
      ...TEMPLATES.map((t) =>
        fc.tuple(
          fc.constant(t),
          fc.tuple(...t.fields.map(() => fc.oneof(fc.constant<'keep'>('keep'), goodNumber.map((v) => ({ good: v })), badNumber.map((v) => ({ bad: v }))))),
        ),
      ),
    );
    fc.assert(
      fc.property(arb, ([t, choices]) => {
        let intent = t.intent;
        let anyBad = false;
        t.fields.forEach(([path], i) => {
          const choice = choices[i];
          if (choice === undefined || choice === 'keep') return;
          if ('bad' in choice) anyBad = true;
          intent = withValue(intent, path, 'bad' in choice ? choice.bad : choice.good);
        });
        const result = harness().check('s1', intent);
        if (result.ok) {
          if (anyBad) throw new Error(`${t.name}: approved with a bad field: ${JSON.stringify(intent)}`);
          const problem = commandProblem(result.value);
          if (problem !== undefined) throw new Error(`${t.name}: approved command with ${problem}`);
        } else if (anyBad) {
          expect(['INVALID_PRICE', 'INVALID_QUANTITY']).toContain(result.error.code);
        }
      }),
      runs(ANY_FIELDS_RUNS),
    );
  });

  it('a bad field does not disturb the engine: the same template is approved afterwards', () => {
    const h = harness();
    for (const t of TEMPLATES) {
      for (const [path] of t.fields) for (const bad of [dec(Number.NaN), dec(-1), dec('1e30'), Number.NaN]) expect(h.check('s1', withValue(t.intent, path, bad)).ok).toBe(false);
    }
    expect(h.check('s1', TEMPLATES[0]?.intent ?? { type: 'cancel', clientOrderId: 'x' }).ok).toBe(true);
    // The template values are untouched by the cases built from them.
    expect(getAt(TEMPLATES[0]?.intent, ['price'])).toEqual(dec('99999.9'));
  });
});

describe('kernel: a strategy emitting NaN and friends', () => {
  it(`each bad intent comes back as intent.denied, nothing is sent, and the kernel goes on: ${KERNEL_RUNS} cases`, async () => {
    const world = new World();
    const alpha = scripted('alpha', {}, { symbols: [BTC] });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    const placeTemplates = TEMPLATES.filter((t) => t.intent.type === 'place' || t.intent.type === 'plan').filter((t) => t.intent.type !== 'place' || t.intent.reduceOnly !== true);
    const arb = fc.oneof(...placeTemplates.flatMap((t) => t.fields.map(([path, code]) => fc.tuple(fc.constant(t), fc.constant(path), fc.constant(code), badNumber))));
    await fc.assert(
      fc.asyncProperty(arb, async ([t, path, code, value]) => {
        const before = alpha.of('intent.denied').length;
        alpha.emit(withValue(t.intent, path, value));
        await rig.settle();
        const denied = alpha.of('intent.denied');
        expect(denied).toHaveLength(before + 1);
        expect(denied[denied.length - 1]?.denial.code).toBe(code);
      }),
      runs(KERNEL_RUNS),
    );
    expect(rig.of('command.submitted')).toEqual([]);
    expect(world.allOrders()).toEqual([]);
    expect(rig.kernel.state).toBe('running');
    // A sound intent still goes through.
    const mid = dec(100000);
    alpha.emit({ type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.99'), quantity: dec(1) });
    await rig.settle();
    expect(rig.of('command.submitted')).toHaveLength(1);
    await rig.stop(false);
  });
});
