import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Result } from '../../src/core/result.js';
import { NAMESPACE_PATTERN } from '../../src/store/state-file/identity.js';
import { STATE_FILE, StateStore } from '../../src/store/state-file/state-store.js';
import type { StateStoreError } from '../../src/store/state-file/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

/**
 * Opening the state: only a missing file is a fresh start. An empty, foreign or damaged file and a
 * read-only directory are refused with a reason naming the file or directory.
 */
let tmp: ReturnType<typeof tmpStateDir>;
beforeEach(() => {
  tmp = tmpStateDir();
});
afterEach(() => {
  tmp.remove();
});

function unwrap(result: Result<StateStore, StateStoreError>): StateStore {
  if (!result.ok) throw result.error;
  return result.value;
}

function refusal(result: Result<StateStore, StateStoreError>): StateStoreError {
  if (result.ok) {
    result.value.close();
    throw new Error('the state opened');
  }
  return result.error;
}

/** A state with enough journal entries and keys to span many pages. */
function filledState(dir: string): void {
  const store = unwrap(StateStore.open(dir, { synchronous: 'NORMAL' }));
  const kv = store.keyValue('filler');
  for (let i = 0; i < 400; i += 1) kv.set(`key-${i}`, 'x'.repeat(200));
  store.close();
}

describe('StateStore.open', () => {
  it('a missing file is a fresh state with a random namespace; reopening keeps it', () => {
    const first = unwrap(StateStore.open(tmp.dir));
    expect(first.created).toBe(true);
    const namespace = first.identity.namespace;
    expect(namespace).toMatch(NAMESPACE_PATTERN);
    expect(first.identity.account).toBeUndefined();
    first.identity.bind('879141111', new Set());
    first.close();
    const again = unwrap(StateStore.open(tmp.dir));
    expect(again.created).toBe(false);
    expect(again.identity.namespace).toBe(namespace);
    expect(again.identity.account).toBe('879141111');
    again.close();
  });

  it('binding draws another namespace while the account has ids of the current one', () => {
    const draws = ['aaaaa', 'aaaaa', 'bbbbb', 'ccccc'];
    const store = unwrap(StateStore.open(tmp.dir, { newNamespace: () => draws.shift() ?? 'zzzzz' }));
    expect(store.identity.namespace).toBe('aaaaa');
    store.identity.bind('1', new Set(['aaaaa', 'bbbbb']));
    expect(store.identity.namespace).toBe('ccccc');
    expect(() => store.identity.bind('2', new Set())).toThrow(/already belongs to account 1/);
    store.close();
  });

  it('a creation a crash interrupted leaves no stratd.db: the next start creates the state whole', () => {
    // What a kill during the first start leaves: the temporary file of the creation, half written.
    writeFileSync(join(tmp.dir, `${STATE_FILE}.creating-999999`), 'half');
    const store = unwrap(StateStore.open(tmp.dir));
    expect(store.created).toBe(true);
    expect(store.describe().schemaVersion).toBeGreaterThan(0);
    store.close();
    expect(readdirSync(tmp.dir).filter((name) => name.includes('.creating-'))).toEqual([]);
  });

  it('a write-ahead log without its state file is a state deleted in part, not a fresh start', () => {
    filledState(tmp.dir);
    writeFileSync(join(tmp.dir, `${STATE_FILE}-wal`), 'frames');
    rmSync(join(tmp.dir, STATE_FILE));
    const error = refusal(StateStore.open(tmp.dir));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain(`${STATE_FILE}-wal`);
  });

  it('an empty (0-byte) state file is corruption, never a fresh start', () => {
    writeFileSync(join(tmp.dir, STATE_FILE), '');
    const error = refusal(StateStore.open(tmp.dir));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain(join(tmp.dir, STATE_FILE));
    expect(error.message).toContain('empty');
    // Nothing was written over it.
    expect(statSync(join(tmp.dir, STATE_FILE)).size).toBe(0);
  });

  it('a file that is not a database is corruption', () => {
    writeFileSync(join(tmp.dir, STATE_FILE), 'this is not sqlite '.repeat(300));
    const error = refusal(StateStore.open(tmp.dir));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain(join(tmp.dir, STATE_FILE));
  });

  it('a database without a stratd schema is corruption', () => {
    const raw = new Database(join(tmp.dir, STATE_FILE));
    raw.exec('CREATE TABLE other (x INTEGER)');
    raw.close();
    const error = refusal(StateStore.open(tmp.dir));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain('no stratd state');
  });

  it('a damaged page fails quick_check at open: STATE_CORRUPT naming the file', () => {
    filledState(tmp.dir);
    const path = join(tmp.dir, STATE_FILE);
    const pageSize = 4096;
    const pages = statSync(path).size / pageSize;
    expect(pages).toBeGreaterThan(10);
    // Garbage over a b-tree page in the middle of the file (page 1 holds the header and schema).
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, Math.floor(pages / 2) * pageSize);
    closeSync(fd);
    const error = refusal(StateStore.open(tmp.dir));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain(path);
    expect(readFileSync(path).length).toBe(pages * pageSize);
  });

  it('a read-only state directory is named as such', () => {
    filledState(tmp.dir);
    if (process.getuid?.() === 0) {
      // Root writes through chmod: make the directory immutable instead. Without the capability
      // (CAP_LINUX_IMMUTABLE) or chattr, root cannot be stopped from writing: that case is skipped.
      try {
        execFileSync('chattr', ['+i', tmp.dir], { stdio: 'ignore' });
      } catch {
        return;
      }
    } else chmodSync(tmp.dir, 0o555);
    try {
      const error = refusal(StateStore.open(tmp.dir));
      expect(error.code).toBe('STATE_READ_ONLY');
      expect(error.message).toContain(`the state directory ${tmp.dir} is read-only`);
    } finally {
      if (process.getuid?.() === 0) execFileSync('chattr', ['-i', tmp.dir], { stdio: 'ignore' });
      else chmodSync(tmp.dir, 0o755);
    }
  });
});
