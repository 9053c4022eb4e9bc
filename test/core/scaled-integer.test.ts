import { Decimal, dec } from '../../src/core/decimal.js';
import { decimalOfScaled, midpoint, onGrid, rescaled, scaledInteger } from '../../src/core/scaled-integer.js';
import { decimalTextSamples } from '../support/decimal-text-samples.js';

describe('scaled integers', () => {
  it('rescaled: units of one grid on another, as scaledInteger reads their decimal there', () => {
    const wrong: string[] = [];
    for (const [units, from] of [[999_999, 1], [-1_250, 3], [0, 4], [2 ** 52, 0], [123_456_789, 15], [7, 0]] as const) {
      const x = decimalOfScaled(units, from);
      for (let to = 0; to <= 17; to++) if (rescaled(units, from, to) !== scaledInteger(x, to)) wrong.push(`${units}e-${from} at ${to}`);
    }
    expect(wrong).toEqual([]);
    expect(rescaled(999_999, 1, 3)).toBe(99_999_900);
    expect(rescaled(1_250, 3, 2)).toBe(125);
    expect(rescaled(1_255, 3, 2)).toBeUndefined();
  });

  test('x × 10^scale exactly when it is a safe integer, undefined otherwise', () => {
    const wrong: string[] = [];
    for (const text of decimalTextSamples()) {
      const x = dec(text);
      for (let scale = 0; scale <= 15; scale++) {
        const scaled = x.isFinite() ? x.mul(dec(10).pow(scale)) : undefined;
        const want = scaled !== undefined && scaled.isInteger() && scaled.abs().lte(Number.MAX_SAFE_INTEGER) ? scaled.toNumber() : undefined;
        const got = scaledInteger(x, scale);
        if (got !== want && !(got === 0 && want === 0)) wrong.push(`${text} at ${scale}: ${got}, not ${want}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  test('back to the same decimal, digit words and all, as decimal.js parses its text', () => {
    for (const text of decimalTextSamples().filter((t) => t !== 'Infinity' && t !== 'NaN')) {
      const x = dec(text);
      const scale = x.decimalPlaces();
      const units = scaledInteger(x, scale);
      if (units === undefined) continue;
      for (const at of [scale, scale + 1, scale + 3]) {
        const atUnits = units * 10 ** (at - scale);
        if (!Number.isSafeInteger(atUnits)) continue;
        const got = decimalOfScaled(atUnits, at);
        const want = dec(`${units}e-${scale}`);
        expect({ s: got.s, e: got.e, d: got.d, text: got.toFixed() }).toEqual({ s: units === 0 ? 1 : want.s, e: want.e, d: want.d, text: x.isZero() ? '0' : x.toFixed() });
      }
    }
  });

  test('a midpoint is a.plus(b).div(2), digit words and all', () => {
    const values = decimalTextSamples().map((t) => dec(t));
    const wrong: string[] = [];
    for (let i = 0; i < values.length; i++) {
      for (const j of [i + 1, i + 7, values.length - 1 - i]) {
        const a = values[i]!;
        const b = values[j % values.length]!;
        const got = midpoint(a, b);
        const want = a.plus(b).div(2);
        const same = !want.isFinite() ? got.toString() === want.toString() : got.s === want.s && got.e === want.e && JSON.stringify(got.d) === JSON.stringify(want.d);
        if (!same) wrong.push(`(${a.toString()} + ${b.toString()}) / 2: ${got.toString()}, not ${want.toString()}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  test('onGrid is toNearest of the step, digit words and all, in each rounding it takes', () => {
    const values = decimalTextSamples().map((t) => dec(t)).filter((x) => x.isFinite() && !x.isNegative());
    const steps = ['0.1', '0.5', '0.01', '0.001', '1', '5', '0.25', '0.0000001', '0.3'].map((t) => dec(t));
    const modes = [Decimal.ROUND_FLOOR, Decimal.ROUND_CEIL, Decimal.ROUND_DOWN, Decimal.ROUND_HALF_UP] as const;
    const wrong: string[] = [];
    for (const x of values) {
      for (const step of steps) {
        for (const value of [x, x.toNearest(step, Decimal.ROUND_DOWN).add(step.div(2))]) {
          for (const mode of modes) {
            const got = onGrid(value, step, mode);
            const want = value.toNearest(step, mode);
            if (got.s !== want.s || got.e !== want.e || JSON.stringify(got.d) !== JSON.stringify(want.d)) wrong.push(`${value.toString()} to ${step.toString()} (${mode}): ${got.toString()}, not ${want.toString()}`);
          }
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
