import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Database as Db } from 'better-sqlite3';

/**
 * Checks of the state file and its directory made at open, each answering a readable reason (or
 * undefined when all is well). SQLite's own messages for these cases (`disk I/O error`, `file is not
 * a database`) name neither the file nor what to do.
 */

/** The state file as found before opening: absent (a fresh start), empty, or there. */
export type StateFileFound = 'absent' | 'empty' | 'present';

export function stateFileFound(path: string): StateFileFound {
  try {
    return statSync(path).size === 0 ? 'empty' : 'present';
  } catch (error: unknown) {
    if (errnoOf(error) === 'ENOENT') return 'absent';
    throw error;
  }
}

/**
 * Whether this process can create files in `dir` (SQLite needs its -wal and -shm files beside the
 * state file). Tried, not asked: `access(W_OK)` says yes to root on a read-only mount or an
 * immutable directory.
 */
export function unwritableDirectory(dir: string): { readonly readOnly: boolean; readonly message: string } | undefined {
  const probe = join(dir, `.stratd-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
    return undefined;
  } catch (error: unknown) {
    const code = errnoOf(error);
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
      return { readOnly: true, message: `the state directory ${dir} is read-only for this process (${code}): stratd must write its order journal there` };
    }
    if (code === 'ENOSPC' || code === 'EDQUOT') return { readOnly: false, message: `the state directory ${dir} has no space left (${code})` };
    return undefined;
  }
}

/** SQLite's `quick_check`: undefined when the file is sound, else its first complaints. */
export function quickCheckProblem(db: Db): string | undefined {
  const answer: unknown = db.pragma('quick_check(5)');
  const rows: readonly unknown[] = Array.isArray(answer) ? answer : [answer];
  const lines = rows.map((row) => (typeof row === 'object' && row !== null ? String(Object.values(row)[0]) : String(row)));
  return lines.length === 1 && lines[0] === 'ok' ? undefined : lines.join('; ');
}

function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
