import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { preparedDirOf } from '../../src/recording/prepared/index.js';
import { parseSweepGrid } from '../../src/sweep/grid.js';
import type { SweepPlan } from '../../src/sweep/grid.js';
import { runSweep } from '../../src/sweep/runner.js';
import { parseYamlText } from '../../src/settings/yaml-source.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { tempDir, writeGenerated } from './backtest-support.js';
import { BASE_PARAMS, GRID, quoterJob, SOURCE_QUOTER } from './sweep-support.js';

/** Real worker threads load compiled JS: this runs the built runner (npm test builds before jest). */
const DIST = join(process.cwd(), 'dist');
const DIST_RUNNER = join(DIST, 'src', 'sweep', 'runner.js');
const DIST_QUOTER = join(DIST, 'strategies', 'spread-quoter', 'index.js');

const tmp = tempDir();
afterAll(() => tmp.remove());
let recording: string;
let plan: SweepPlan;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 7, 2);
  const source = parseYamlText(GRID, 'grid.yml');
  if (!source.ok) throw source.error;
  const parsed = parseSweepGrid(source.value, [{ id: 'quoter-btc', definition: quoter, params: BASE_PARAMS }]);
  if (!parsed.ok) throw parsed.error;
  plan = parsed.value;
});

/** The in-process sweep of `recording` (the reference both tests compare with), run once. */
let reference: Promise<unknown> | undefined;
function inProcessRows(): Promise<unknown> {
  reference ??= runSweep(quoterJob(recording, SOURCE_QUOTER, plan.axes), plan.combinations, { workers: 0 }).then((rows) => {
    if (!rows.ok) throw new Error(rows.error);
    return rows.value;
  });
  return reference;
}

describe('sweep across worker threads (built dist)', () => {
  it('gives the same rows as the in-process sweep', async () => {
    if (!existsSync(DIST_RUNNER) || !existsSync(DIST_QUOTER)) throw new Error(`${DIST_RUNNER} or ${DIST_QUOTER} is missing: run \`npm run build\` before this test (npm test does)`);
    const built = (await import(pathToFileURL(DIST_RUNNER).href)) as { runSweep: typeof runSweep };
    const inWorkers = await built.runSweep(quoterJob(recording, DIST_QUOTER, plan.axes), plan.combinations, { workers: 3 });
    if (!inWorkers.ok) throw new Error(inWorkers.error);
    expect(inWorkers.value).toEqual(await inProcessRows());
    expect(inWorkers.value).toHaveLength(8);
  }, 120_000);

  it('gives the same rows when the workers replay the prepared form (built by the first of them, read by the others)', async () => {
    if (!existsSync(DIST_RUNNER) || !existsSync(DIST_QUOTER)) throw new Error(`${DIST_RUNNER} or ${DIST_QUOTER} is missing: run \`npm run build\` before this test (npm test does)`);
    const built = (await import(pathToFileURL(DIST_RUNNER).href)) as { runSweep: typeof runSweep };
    // The same bytes as the first test's recording, in a folder of their own (no prepared form yet).
    const fresh = await writeGenerated(tmp.path('prepared.jsonl'), 7, 2);
    expect(readFileSync(fresh).equals(readFileSync(recording))).toBe(true);
    const inWorkers = await built.runSweep({ ...quoterJob(fresh, DIST_QUOTER, plan.axes), prepared: {} }, plan.combinations, { workers: 2 });
    if (!inWorkers.ok) throw new Error(inWorkers.error);
    expect(inWorkers.value).toEqual(await inProcessRows());
    expect(readdirSync(preparedDirOf(fresh)).filter((name) => name.endsWith('.arrow'))).toHaveLength(1);
  }, 120_000);
});
