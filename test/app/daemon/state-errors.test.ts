import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STATE_FILE } from '../../../src/store/state-file/state-store.js';
import { defaultYaml, writeConfig } from './daemon-harness.js';

/**
 * `stratd run` (the built CLI) on a state file that is empty: it does not start afresh over it, it
 * exits non-zero and leaves the file as it was.
 */
const BIN = fileURLToPath(new URL('../../../bin/stratd.js', import.meta.url));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-state-errors-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function stratdRun(file: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, 'run', '--config', file], { env: { PATH: process.env['PATH'] }, timeout: 30_000 }, (error) => {
      resolve(error === null ? 0 : child.exitCode);
    });
  });
}

describe('stratd run on a damaged state', () => {
  it('an empty stratd.db (a truncated state) exits 1 before anything trades, the file untouched', async () => {
    const state = join(dir, 'state');
    mkdirSync(state);
    writeFileSync(join(state, STATE_FILE), '');
    const file = writeConfig(dir, 'paper.yml', defaultYaml(state));
    expect(await stratdRun(file)).toBe(1);
    expect(statSync(join(state, STATE_FILE)).size).toBe(0);
  });
});
