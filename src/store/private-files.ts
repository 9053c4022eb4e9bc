import { chmodSync, closeSync, constants, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs';

/** The state directory: its owner alone may list or enter it. */
export const PRIVATE_DIR_MODE = 0o700;
/** State files (the journal, the strategies' state): readable and writable by their owner alone. */
export const PRIVATE_FILE_MODE = 0o600;

/** SQLite's companions of a database file; they are created with the database file's mode. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Creates the directory (and missing parents) and sets it 0700 whatever the umask and whatever mode an
 * earlier run or a package left on it. Throws the file-system error (the caller reports it).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates the file if needed and sets it 0600 before anything is written to it, with its SQLite
 * companions if they exist (SQLite creates new ones with the database file's mode).
 */
export function ensurePrivateFile(path: string): void {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  for (const suffix of COMPANIONS) if (existsSync(path + suffix)) chmodSync(path + suffix, PRIVATE_FILE_MODE);
}
