import { z } from 'zod';
import type { ProtectionSpec } from '../../model/protections.js';
import { PROTECTION_ACTIONS } from '../../model/protections.js';
import { decimal } from '../../venue/wire/schema.js';
import { durationMs } from '../duration.js';

/**
 * `risk.protections:` — the layered protections of the risk engine (model/protections.ts). Each entry
 * names its `kind`, an `action` and a `scope`; mistakes are reported at the entry's path.
 */

const positiveDecimal = decimal.refine((d) => d.gt(0), 'must be greater than 0');
const percent = decimal.refine((d) => d.gt(0) && d.lte(100), 'a percentage greater than 0 and at most 100 (5 = 5%)');
const strategyId = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a strategy id, such as mm-btc');

const common = {
  name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, '1-40 letters, digits, _ or -').optional(),
  action: z.enum(PROTECTION_ACTIONS as ['block-entries', 'reduce-only', 'flatten', 'pause'], { error: `one of ${PROTECTION_ACTIONS.join(', ')}` }).default('block-entries'),
  scope: z.enum(['strategy', 'global'], { error: 'strategy (each strategy on its own figures) or global (the account)' }).default('global'),
  resumeAfter: durationMs({ min: 1000, max: 30 * 86_400_000 }).optional(),
  strategies: z.array(strategyId).min(1).optional(),
};

const entry = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('trailingDrawdown'), ...common, maxPct: percent.optional(), maxAmount: positiveDecimal.optional(), capital: positiveDecimal.optional() }),
    z.strictObject({ kind: z.literal('stopLossStreak'), ...common, count: z.number().int().min(1), window: durationMs({ min: 1000, max: 30 * 86_400_000 }) }),
    z.strictObject({ kind: z.literal('cooldown'), ...common }),
    z.strictObject({ kind: z.literal('notionalCap'), ...common, maxGross: positiveDecimal.optional(), maxNet: positiveDecimal.optional() }),
    z.strictObject({ kind: z.literal('leverageCap'), ...common, max: positiveDecimal }),
    z.strictObject({ kind: z.literal('marginRatioCap'), ...common, maxPct: percent }),
    z.strictObject({ kind: z.literal('liquidationDistance'), ...common, minPct: percent }),
    z.strictObject({ kind: z.literal('dailyLoss'), ...common, limit: positiveDecimal }),
  ],
  { error: 'kind: one of trailingDrawdown, stopLossStreak, cooldown, notionalCap, leverageCap, marginRatioCap, liquidationDistance, dailyLoss' },
);

type Entry = z.output<typeof entry>;

/** Rules between an entry's fields: each answers [field, message] or undefined. */
function entryProblem(e: Entry): readonly [string, string] | undefined {
  if (e.action === 'pause' && e.resumeAfter === undefined && e.kind !== 'dailyLoss') return ['resumeAfter', 'action pause needs resumeAfter (such as 1h): the pause ends by itself then'];
  if (e.strategies !== undefined && e.scope !== 'strategy') return ['strategies', 'only with scope: strategy'];
  switch (e.kind) {
    case 'trailingDrawdown':
      if (e.maxPct === undefined && e.maxAmount === undefined) return ['maxPct', 'give maxPct (percent of peak equity) or maxAmount (quote units)'];
      if (e.capital !== undefined && e.scope !== 'strategy') return ['capital', 'only with scope: strategy (global uses the account equity)'];
      return undefined;
    case 'cooldown':
      return e.resumeAfter === undefined ? ['resumeAfter', 'a cooldown needs resumeAfter: how long after an exit no new entries go'] : undefined;
    case 'notionalCap':
      return e.maxGross === undefined && e.maxNet === undefined ? ['maxGross', 'give maxGross or maxNet (quote units)'] : undefined;
    case 'dailyLoss':
      if (e.scope !== 'global') return ['scope', 'the daily loss limit is the account kill switch: scope global'];
      if (e.action !== 'pause' && e.action !== 'block-entries') return ['action', 'the daily loss limit pauses trading until the daily reset (action pause)'];
      return e.resumeAfter === undefined ? undefined : ['resumeAfter', 'the daily loss limit lasts until the daily reset (or an operator override)'];
    case 'stopLossStreak':
    case 'leverageCap':
    case 'marginRatioCap':
    case 'liquidationDistance':
      return undefined;
  }
}

/** The spec of a checked entry: absent fields left out (not undefined), the duration fields as ms. */
function toSpec(e: Entry): ProtectionSpec {
  const { resumeAfter, name, ...rest } = e;
  const fields: Record<string, unknown> = { ...rest, name: name ?? e.kind, resumeAfterMs: resumeAfter };
  if (e.kind === 'stopLossStreak') {
    fields['windowMs'] = e.window;
    delete fields['window'];
  }
  if (e.kind === 'dailyLoss') fields['action'] = 'pause';
  // The fields are the entry's own, checked by its schema: only the absent ones are dropped here.
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as unknown as ProtectionSpec;
}

export const protectionsSchema = z
  .array(entry)
  .superRefine((entries, ctx) => {
    const names = new Map<string, number>();
    entries.forEach((e, index) => {
      const problem = entryProblem(e);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [index, problem[0]], message: problem[1] });
      const name = e.name ?? e.kind;
      const first = names.get(name);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `protection ${name} is also entry ${first + 1}: give one a name` });
      else names.set(name, index);
    });
    if (entries.filter((e) => e.kind === 'dailyLoss').length > 1) ctx.addIssue({ code: 'custom', path: [], message: 'one dailyLoss protection at most' });
  })
  .transform((entries) => entries.map(toSpec));
