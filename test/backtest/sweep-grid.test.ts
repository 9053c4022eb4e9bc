import { parseSweepGrid } from '../../src/sweep/grid.js';
import type { SweepBase } from '../../src/sweep/grid.js';
import { valuesOf } from '../../src/sweep/types.js';
import type { ConfigError } from '../../src/settings/config-error.js';
import { parseYamlText } from '../../src/settings/yaml-source.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { BASE_PARAMS, GRID } from './sweep-support.js';

const bases: SweepBase[] = [{ id: 'quoter-btc', definition: quoter, params: BASE_PARAMS }];

function plan(text: string): ReturnType<typeof parseSweepGrid> {
  const source = parseYamlText(text, 'grid.yml');
  if (!source.ok) throw source.error;
  return parseSweepGrid(source.value, bases);
}

function failure(text: string): ConfigError {
  const result = plan(text);
  if (result.ok) throw new Error('expected the grid to be refused');
  return result.error;
}

describe('sweep grid', () => {
  it('expands to the cartesian product, the first axis varying slowest', () => {
    const result = plan(GRID);
    if (!result.ok) throw result.error;
    const { axes, combinations } = result.value;
    expect(axes.map((a) => `${a.section}.${a.key}`)).toEqual(['params.halfSpreadBps', 'params.requoteBps', 'risk.maxPosition']);
    expect(combinations.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(combinations.map((c) => valuesOf(axes, c))).toEqual([
      [1, 1, 2],
      [1, 1, 10],
      [1, 3, 2],
      [1, 3, 10],
      [4, 1, 2],
      [4, 1, 10],
      [4, 3, 2],
      [4, 3, 10],
    ]);
  });

  it('points at a param value the strategy’s schema refuses', () => {
    const error = failure('strategies:\n  quoter-btc:\n    params:\n      halfSpreadBps: [2, -1]\n');
    expect(error.location).toMatchObject({ file: 'grid.yml', line: 4, column: 26, path: 'strategies.quoter-btc.params.halfSpreadBps[1]' });
    expect(error.message).toContain('halfSpreadBps=-1');
  });

  it('refuses a param the strategy does not have', () => {
    const error = failure('strategies:\n  quoter-btc:\n    params:\n      nope: [1]\n');
    expect(error.location).toMatchObject({ file: 'grid.yml', line: 4, path: 'strategies.quoter-btc.params' });
  });

  it('points at a risk value the config schema refuses, and refuses unknown limits', () => {
    expect(failure('strategies:\n  quoter-btc:\n    risk:\n      maxPosition:\n        - 5\n        - 0\n').location).toMatchObject({ line: 6, path: 'strategies.quoter-btc.risk.maxPosition[1]' });
    expect(failure('strategies:\n  quoter-btc:\n    risk: { maxFun: [1] }\n').message).toMatch(/grid\.yml:3:.*unknown risk limit "maxFun"/);
  });

  it('refuses a strategy the config does not run, an empty list and an empty grid', () => {
    expect(failure('strategies:\n  other:\n    params: { a: [1] }\n').message).toMatch(/grid\.yml:3:5: strategies\.other: no enabled strategy "other"/);
    expect(failure('strategies:\n  quoter-btc:\n    params: { halfSpreadBps: [] }\n').location).toMatchObject({ line: 3 });
    expect(failure('strategies: {}\n').message).toContain('varies nothing');
  });
});
