import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ParsedRecording } from '../../../src/recording/parsed-recording.js';
import { expand } from '../../../src/sweep/grid.js';
import type { SweepAxis } from '../../../src/sweep/types.js';
import { walkForwardEquityCsv, walkForwardJson } from '../../../src/sweep/walk-forward/output.js';
import { runWalkForward } from '../../../src/sweep/walk-forward/run.js';
import { walkForwardWindows } from '../../../src/sweep/walk-forward/windows.js';
import { tempDir, writeGenerated } from '../backtest-support.js';
import { quoterJob, SOURCE_QUOTER } from '../sweep-support.js';

/** Real worker threads load compiled JS: this runs the built walk-forward (npm test builds before jest). */
const DIST = join(process.cwd(), 'dist');
const DIST_RUN = join(DIST, 'src', 'sweep', 'walk-forward', 'run.js');
const DIST_QUOTER = join(DIST, 'strategies', 'spread-quoter', 'index.js');
const axes: SweepAxis[] = [{ strategy: 'quoter-btc', section: 'params', key: 'halfSpreadBps', values: [1, 4] }];

const tmp = tempDir();
afterAll(() => tmp.remove());

test('a walk-forward across worker threads (windows cut from the shared recording) equals the in-process one', async () => {
  if (!existsSync(DIST_RUN) || !existsSync(DIST_QUOTER)) throw new Error(`${DIST_RUN} or ${DIST_QUOTER} is missing: run \`npm run build\` before this test (npm test does)`);
  const recording = await writeGenerated(tmp.path('market.jsonl'), 11, 10);
  const parsed = await ParsedRecording.parse([recording]);
  const feed = parsed.replay();
  const span = { from: feed.peekTime()!, to: parsed.lastTime! };
  const windows = walkForwardWindows(span, { kind: 'count', windows: 2, inSampleRatio: 2, anchored: true });
  if (!windows.ok) throw new Error(windows.error);
  const combinations = expand(axes);
  const built = (await import(pathToFileURL(DIST_RUN).href)) as { runWalkForward: typeof runWalkForward };
  const inWorkers = await built.runWalkForward(quoterJob(recording, DIST_QUOTER, axes), combinations, windows.value, 'netPnl', { workers: 2 });
  const inProcess = await runWalkForward(quoterJob(recording, SOURCE_QUOTER, axes), combinations, windows.value, 'netPnl', { workers: 0 });
  if (!inWorkers.ok) throw new Error(inWorkers.error);
  if (!inProcess.ok) throw new Error(inProcess.error);
  const setup = { recordings: [recording], anchored: true, axes, combinations: combinations.length };
  expect(walkForwardJson(inWorkers.value, setup)).toBe(walkForwardJson(inProcess.value, setup));
  expect(walkForwardEquityCsv(inWorkers.value)).toBe(walkForwardEquityCsv(inProcess.value));
  expect(inWorkers.value.inSampleRows).toEqual(inProcess.value.inSampleRows);
  // The windows' parts differ, so equal outputs are not equal by accident.
  expect(new Set(inProcess.value.inSampleRows.map((r) => r.metrics.fillsSha256)).size).toBeGreaterThan(1);
}, 180_000);
