import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';

/** `log.summaryEvery`: the trade log's per-strategy summary line; a duration, `0`/`off` for none, default 1 minute. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-summary-every-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function load(logLine: string): ReturnType<typeof loadDaemonConfig> {
  const file = join(dir, 'config.yml');
  writeFileSync(file, `mode: paper\nstateDir: ./state\n${logLine}\n`);
  return loadDaemonConfig(file, { env: {}, defaultSimConfig: SIM_YML, cwd: dir });
}

function summaryEveryMs(logLine: string): number {
  const loaded = load(logLine);
  if (!loaded.ok) throw loaded.error;
  return loaded.value.log.summaryEveryMs;
}

describe('log.summaryEvery', () => {
  it('defaults to one minute; reads durations; 0 and off turn the summary off', () => {
    expect(summaryEveryMs('')).toBe(60_000);
    expect(summaryEveryMs('log: { level: info }')).toBe(60_000);
    expect(summaryEveryMs('log: { summaryEvery: 30s }')).toBe(30_000);
    expect(summaryEveryMs('log: { summaryEvery: 1h }')).toBe(3_600_000);
    expect(summaryEveryMs('log: { summaryEvery: 0 }')).toBe(0);
    expect(summaryEveryMs('log: { summaryEvery: off }')).toBe(0);
    expect(summaryEveryMs('log: { summaryEvery: "0" }')).toBe(0);
  });

  it('a mistake is located at the field, with what to write instead', () => {
    for (const [value, reason] of [
      ['5', '5 has no unit: write a duration such as 30s, 1m or 1h, or 0 / off for none'],
      ['soon', '"soon" is not a duration'],
      ['100ms', '100ms is out of range: from 1s to 1d'],
      ['2d', '2d is out of range: from 1s to 1d'],
      ['[1m]', 'a duration such as 30s, 1m or 1h, or 0 / off for none'],
    ] as const) {
      const loaded = load(`log:\n  level: info\n  summaryEvery: ${value}`);
      if (loaded.ok) throw new Error(`summaryEvery: ${value} was accepted`);
      expect(loaded.error.location).toMatchObject({ line: 5, column: 17 });
      expect(loaded.error.message).toContain('log.summaryEvery');
      expect(loaded.error.message).toContain(reason);
    }
  });
});
