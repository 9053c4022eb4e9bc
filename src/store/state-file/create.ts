import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../migrations.js';
import { StateIdentity } from './identity.js';

/**
 * Creates a new state file whole or not at all: it is built (schema, namespace) under a temporary
 * name, synced, then linked into place, which fails if the name exists. So a crash during the first
 * start leaves no half-made `stratd.db` that the next start would have to call corrupt, and two
 * processes creating at once cannot both believe they made it. Answers false when another process
 * created the file first.
 */
export function createStateFile(path: string, newNamespace: () => string): boolean {
  const dir = dirname(path);
  const prefix = `${basename(path)}.creating-`;
  const temporary = `${path}.creating-${process.pid}`;
  // Leftovers of creations a crash interrupted: never a state anybody used.
  for (const name of readdirSync(dir)) if (name.startsWith(prefix)) rmSync(join(dir, name), { force: true });
  const db = new Database(temporary);
  try {
    db.pragma('synchronous = FULL');
    migrate(db);
    new StateIdentity(db, newNamespace);
  } finally {
    db.close();
  }
  syncPath(temporary, 'r+');
  let created = true;
  try {
    linkSync(temporary, path);
  } catch (error: unknown) {
    if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST')) throw error;
    created = false;
  } finally {
    rmSync(temporary, { force: true });
  }
  syncPath(dir, 'r');
  return created;
}

/** A write-ahead log without its database: the state was deleted in part (its newest commits may be in it). */
export function orphanedLog(path: string): string | undefined {
  const log = `${path}-wal`;
  return existsSync(log) ? log : undefined;
}

function syncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
