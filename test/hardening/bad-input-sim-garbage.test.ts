import fc from 'fast-check';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { garble } from '../../src/sim/server/faults/garbage.js';
import { callParsed } from '../../src/venue/call-parsed.js';
import { ENDPOINTS } from '../../src/protocol/endpoints.js';
import { parseUserStreamFrame } from '../../src/venue/parsers/user-stream-frames.js';
import { LIVE_EXAMPLES } from '../sim/user-stream/fixtures.js';
import { completes, ScriptedHttp, scriptedClient, v2 } from './bad-input-http.js';
import { PARSER_SAMPLES } from './bad-input-samples.js';
import { runs } from './bad-input-support.js';

/**
 * The simulator's garbage fault (src/sim/server/faults/garbage.ts) corrupts replies and frames so that a client
 * cannot take them for a different answer: read through the real client, a garbled reply or frame is an
 * error, or (an empty list, `{}`, a null `data`, with every value of the wrong type) exactly the answer it
 * replaced, or, where the parsing rule skipped a garbled list row and reported it, the answer's other rows. Cases per property: the `numRuns` constants.
 */
const REPLY_RUNS = 400;
const FRAME_RUNS = 400;

const draw = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

/** The reply read through the real client, and how many list rows the parsing rule left out of it. */
async function read(name: string, wire: 'v1' | 'v2', body: string): Promise<{ result: unknown; skipped: number }> {
  const s = PARSER_SAMPLES.find((p) => p.name === name);
  if (s === undefined) throw new Error(`no sample ${name}`);
  const clock = new VirtualClock();
  const client = scriptedClient(new ScriptedHttp(() => ({ status: 200, headers: {}, body })), clock);
  let skipped = 0;
  const watch = client.rest.skippedRows$.subscribe((report) => (skipped += report.rows.length));
  const endpoint = wire === 'v2' ? ENDPOINTS.orderV2Get : ENDPOINTS.orderV1Get;
  const result = JSON.parse(JSON.stringify(await completes(clock, () => callParsed(client.rest, { endpoint }, s.schema)))) as unknown;
  watch.unsubscribe();
  return { result, skipped };
}

/** Every row of `part` is a row of `whole` (both lists), or `part` is not a list. */
function rowsOf(part: unknown, whole: unknown): boolean {
  if (!Array.isArray(part) || !Array.isArray(whole)) return !Array.isArray(part);
  const rows = new Set(whole.map((row) => JSON.stringify(row)));
  return part.every((row) => rows.has(JSON.stringify(row)));
}

describe('the simulator’s garbage fault', () => {
  it(`a garbled REST reply never reads as a different answer: ${REPLY_RUNS} cases`, async () => {
    const arb = fc.tuple(fc.constantFrom(...PARSER_SAMPLES.map((s) => s.name)), fc.constantFrom<'v1' | 'v2'>('v1', 'v2'), draw, draw);
    await fc.assert(
      fc.asyncProperty(arb, async ([name, wire, kindDraw, cutDraw]) => {
        const sample = PARSER_SAMPLES.find((p) => p.name === name)?.sample;
        const text = JSON.stringify(wire === 'v2' ? v2(sample) : sample);
        const garbled = garble(text, kindDraw, cutDraw);
        expect(garbled.text).not.toBe(text);
        const { result, skipped } = await read(name, wire, garbled.text);
        const clean = await read(name, wire, text);
        if (!(result as { ok: boolean }).ok) return;
        // The parsing rule leaves a garbled list row out, reported: the answer is the rest of the rows.
        if (skipped > 0) expect(rowsOf((result as { value: unknown }).value, (clean.result as { value: unknown }).value)).toBe(true);
        else expect(result).toEqual(clean.result);
      }),
      runs(REPLY_RUNS),
    );
  });

  it(`a garbled user-stream frame never reads as a different event: ${FRAME_RUNS} cases`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(LIVE_EXAMPLES)), draw, draw, (text, kindDraw, cutDraw) => {
        const garbled = garble(text, kindDraw, cutDraw);
        expect(garbled.text).not.toBe(text);
        const result = parseUserStreamFrame(garbled.text);
        if (result.ok) expect(result).toEqual(parseUserStreamFrame(text));
      }),
      runs(FRAME_RUNS),
    );
  });

  it('each kind of garbage appears', () => {
    const text = LIVE_EXAMPLES.contractExecutionReport;
    expect([0, 0.3, 0.6, 0.9].map((k) => garble(text, k, 0.5).kind)).toEqual(['truncated', 'wrong-types', 'oversized', 'not-json']);
    expect(garble(text, 0.6, 0).text.length).toBeGreaterThan(1024 * 1024);
  });
});
