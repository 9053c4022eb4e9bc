import { z } from 'zod';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { StrategyDefinition } from '../engine/strategy/api.js';
import { ConfigError } from '../settings/config-error.js';
import { strategyRiskSchema } from '../settings/daemon-config/schema.js';
import type { YamlSource } from '../settings/yaml-source.js';
import { formatPath, validateYaml } from '../settings/yaml-source.js';
import type { SweepAxis, SweepCombination } from './types.js';

/** More combinations than this is surely a mistake in the grid. */
export const MAX_COMBINATIONS = 100_000;

const values = z.record(z.string(), z.array(z.unknown()).min(1, 'a list of at least one value'));
const gridSchema = z.strictObject({
  strategies: z.record(z.string(), z.strictObject({ params: values.optional(), risk: values.optional() })),
});

/** A configured strategy the grid may vary: its id, module definition and params as written in the config. */
export interface SweepBase {
  readonly id: string;
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface SweepPlan {
  readonly axes: readonly SweepAxis[];
  /** The cartesian product, the first axis varying slowest. */
  readonly combinations: readonly SweepCombination[];
}

/**
 * GRID.yml: `strategies: { <id>: { params: { key: [v1, v2] }, risk: { key: [v1, v2] } } }`. Every
 * combination's params are checked by the strategy's own schema, and every risk value by the config's
 * risk schema, before anything runs; a mistake points at the line of GRID.yml.
 */
export function parseSweepGrid(source: YamlSource, bases: readonly SweepBase[]): Result<SweepPlan, ConfigError> {
  const grid = validateYaml(source, gridSchema);
  if (!grid.ok) return grid;
  const axes: SweepAxis[] = [];
  for (const [strategy, sections] of Object.entries(grid.value.strategies)) {
    if (!bases.some((b) => b.id === strategy)) {
      const known = bases.map((b) => b.id).join(', ');
      return located(source, ['strategies', strategy], `no enabled strategy "${strategy}" in the config (enabled: ${known === '' ? 'none' : known})`);
    }
    for (const [key, list] of Object.entries(sections.params ?? {})) axes.push({ strategy, section: 'params', key, values: list });
    for (const [key, list] of Object.entries(sections.risk ?? {})) axes.push({ strategy, section: 'risk', key, values: list });
  }
  if (axes.length === 0) return located(source, ['strategies'], 'the grid varies nothing: list values under strategies.<id>.params or .risk');
  const total = axes.reduce((n, axis) => n * axis.values.length, 1);
  if (total > MAX_COMBINATIONS) return located(source, ['strategies'], `${total} combinations: at most ${MAX_COMBINATIONS}`);
  const risk = checkRisk(source, axes);
  if (!risk.ok) return risk;
  const combinations = expand(axes);
  for (const combination of combinations) {
    const checked = checkParams(source, axes, bases, combination);
    if (!checked.ok) return checked;
  }
  return ok({ axes, combinations });
}

/** The cartesian product of the axes' values, in row order. */
export function expand(axes: readonly SweepAxis[]): SweepCombination[] {
  const total = axes.reduce((n, axis) => n * axis.values.length, 1);
  const combinations: SweepCombination[] = [];
  for (let index = 0; index < total; index++) {
    const choice = new Array<number>(axes.length);
    let rest = index;
    for (let a = axes.length - 1; a >= 0; a--) {
      const size = axes[a]!.values.length;
      choice[a] = rest % size;
      rest = Math.floor(rest / size);
    }
    combinations.push({ index, choice });
  }
  return combinations;
}

/** The params of one strategy with the combination's values put in. */
export function paramsFor(base: Readonly<Record<string, unknown>>, strategy: string, axes: readonly SweepAxis[], combination: SweepCombination): Record<string, unknown> {
  return mergeSection(base, strategy, 'params', axes, combination);
}

/** A strategy's params or risk limits with the combination's values put in. */
export function mergeSection(base: Readonly<Record<string, unknown>>, strategy: string, section: SweepAxis['section'], axes: readonly SweepAxis[], combination: SweepCombination): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  axes.forEach((axis, a) => {
    if (axis.strategy === strategy && axis.section === section) merged[axis.key] = axis.values[combination.choice[a] ?? 0];
  });
  return merged;
}

function checkRisk(source: YamlSource, axes: readonly SweepAxis[]): Result<void, ConfigError> {
  for (const axis of axes) {
    if (axis.section !== 'risk') continue;
    const at = ['strategies', axis.strategy, 'risk', axis.key];
    if (!(axis.key in strategyRiskSchema.shape)) return located(source, at, `unknown risk limit "${axis.key}" (known: ${Object.keys(strategyRiskSchema.shape).join(', ')})`);
    for (const [i, value] of axis.values.entries()) {
      const parsed = strategyRiskSchema.safeParse({ [axis.key]: value });
      if (!parsed.success) return located(source, [...at, i], parsed.error.issues[0]?.message ?? 'invalid');
    }
  }
  return ok(undefined);
}

function checkParams(source: YamlSource, axes: readonly SweepAxis[], bases: readonly SweepBase[], combination: SweepCombination): Result<void, ConfigError> {
  for (const base of bases) {
    if (!axes.some((axis) => axis.strategy === base.id && axis.section === 'params')) continue;
    const parsed = base.definition.params.safeParse(paramsFor(base.params, base.id, axes, combination));
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const a = axes.findIndex((axis) => axis.strategy === base.id && axis.section === 'params' && axis.key === key);
    const at = a < 0 ? ['strategies', base.id, 'params'] : ['strategies', base.id, 'params', String(key), combination.choice[a] ?? 0];
    const path = issue === undefined || issue.path.length === 0 ? '' : ` at ${formatPath(issue.path)}`;
    return located(source, at, `${issue?.message ?? 'invalid'}${path} (combination ${combination.index + 1}: ${describe(axes, combination, base.id)})`);
  }
  return ok(undefined);
}

function describe(axes: readonly SweepAxis[], combination: SweepCombination, strategy: string): string {
  return axes
    .flatMap((axis, a) => (axis.strategy === strategy && axis.section === 'params' ? [`${axis.key}=${JSON.stringify(axis.values[combination.choice[a] ?? 0])}`] : []))
    .join(', ');
}

function located(source: YamlSource, path: ReadonlyArray<string | number>, message: string): Result<never, ConfigError> {
  return err(new ConfigError(message, { file: source.file, ...source.locate(path), path: formatPath(path) }));
}
