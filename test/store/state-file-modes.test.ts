import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STATE_FILE, StateStore } from '../../src/store/state-file/state-store.js';

/** The state directory is 0700 and its files 0600 whatever the umask and whatever mode they had before. */
let root: string;
let umask: number;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'stratd-state-modes-'));
  umask = process.umask(0o000);
});
afterEach(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8).padStart(3, '0');
}

function openAndWrite(dir: string): void {
  const opened = StateStore.open(dir);
  if (!opened.ok) throw opened.error;
  const store = opened.value;
  store.keyValue('s1').set('seq', 1);
  expect(existsSync(join(dir, `${STATE_FILE}-wal`))).toBe(true);
  expect(modeOf(join(dir, `${STATE_FILE}-wal`))).toBe('600');
  store.close();
}

describe('state file modes', () => {
  it('a new directory (and its missing parents) under umask 000: 0700, the database 0600', () => {
    const dir = join(root, 'a', 'state');
    openAndWrite(dir);
    expect(modeOf(dir)).toBe('700');
    expect(modeOf(join(dir, STATE_FILE))).toBe('600');
  });

  it('an existing directory 0777 with a database 0666 left by an earlier run: made private at open', () => {
    const dir = join(root, 'old');
    openAndWrite(dir);
    chmodSync(dir, 0o777);
    chmodSync(join(dir, STATE_FILE), 0o666);
    openAndWrite(dir);
    expect(modeOf(dir)).toBe('700');
    expect(modeOf(join(dir, STATE_FILE))).toBe('600');
  });
});
