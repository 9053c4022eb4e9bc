import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

/** The state directory: its owner alone may list or enter it. */
export const PRIVATE_DIR_MODE = 0o700;
/** State files (the journal, the strategies' state): readable and writable by their owner alone. */
export const PRIVATE_FILE_MODE = 0o600;

/** SQLite's companions of a database file; they are created with the database file's mode. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Creates the directory (and missing parents) and sets it 0700 whatever the umask and whatever mode an
 * earlier run or a package left on it. A directory whose mode cannot be changed (read-only, immutable,
 * another owner's) is left as it is: the writability check that follows names a read-only one, and
 * the files in it are made 0600 all the same. Throws when the directory cannot be created.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if ((statSync(dir).mode & 0o777) === PRIVATE_DIR_MODE) return;
  try {
    chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (error: unknown) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EROFS' && code !== 'EACCES') throw error;
  }
}

/**
 * Sets an existing file 0600 before it is opened for use, with its SQLite companions if they exist
 * (SQLite creates new ones with the database file's mode). An absent file is left absent.
 */
export function makeFilePrivate(path: string): void {
  for (const file of [path, ...COMPANIONS.map((suffix) => path + suffix)]) {
    if (!existsSync(file) || (statSync(file).mode & 0o777) === PRIVATE_FILE_MODE) continue;
    try {
      chmodSync(file, PRIVATE_FILE_MODE);
    } catch (error: unknown) {
      // A read-only file system: the open that follows reports it.
      if ((error as NodeJS.ErrnoException).code !== 'EROFS') throw error;
    }
  }
}
