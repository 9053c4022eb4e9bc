import fc from 'fast-check';
import { ALTERNATIVES, corpusFile, LISTS, optionalKeys } from './corpus.js';

/**
 * The parsing rule's promise for list replies: a field stratd does not need is optional. For every list
 * reply of the corpus, a row with any set of its optional fields dropped still parses (keeping one field
 * of each one-of group such as `coin`/`asset`, which the row needs one of).
 */

const cases = Object.entries(LISTS).flatMap(([file, lists]) =>
  lists.flatMap((list, l) =>
    corpusFile(file).samples.flatMap((sample, s) => {
      const rows = list.rows(sample.reply) ?? [];
      return rows.length === 0 ? [] : [{ name: `${file} list ${l} sample ${s}`, rows: rows as Record<string, unknown>[], list }];
    }),
  ),
);

describe('dropping optional fields of corpus list rows', () => {
  it('has list rows to work on', () => {
    expect(cases.length).toBeGreaterThan(15);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: any optional fields dropped, the row still parses', (_name, c) => {
    const optional = optionalKeys(c.list.row);
    fc.assert(
      fc.property(
        fc.nat({ max: c.rows.length - 1 }).chain((index) => {
          const row = c.rows[index] ?? {};
          const present = optional.filter((k) => k in row);
          return fc.tuple(fc.constant(row), fc.subarray(present));
        }),
        ([row, dropped]) => {
          const kept = new Set(Object.keys(row).filter((k) => !dropped.includes(k)));
          // A one-of group keeps the member the row had first.
          for (const group of ALTERNATIVES) {
            const had = group.filter((k) => k in row);
            if (had.length > 0 && !had.some((k) => kept.has(k))) kept.add(had[0] ?? '');
          }
          const trimmed = Object.fromEntries(Object.entries(row).filter(([k]) => kept.has(k)));
          const parsed = c.list.row.safeParse(trimmed);
          if (!parsed.success) throw new Error(`dropping ${dropped.join(', ')}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
