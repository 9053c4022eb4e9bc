import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { MarketEvent } from '../../sim/market-stream/events.js';
import { MarketStreamReader } from '../../sim/market-stream/reader.js';
import type { MarketStreamWarning } from '../../sim/market-stream/stream-error.js';
import { MarketStreamError } from '../../sim/market-stream/stream-error.js';
import type { PreparedColumns } from './columns.js';

/** What the cache did for one recording (tests count reads and writes; the CLI prints the others as warnings). */
export type PreparedCacheEvent =
  | { readonly type: 'read'; readonly recording: string; readonly file: string }
  | { readonly type: 'written'; readonly recording: string; readonly file: string }
  /** A prepared file that could not be trusted: it is rebuilt. */
  | { readonly type: 'ignored'; readonly recording: string; readonly file: string; readonly reason: string }
  /** Neither beside the recording nor in the fallback directory could it be written: the backtest goes on without. */
  | { readonly type: 'unwritable'; readonly recording: string; readonly reason: string };

/** How backtests, sweeps and parity use the prepared form (absent: they read the JSONL only, as with --no-cache). */
export interface PreparedCacheOptions {
  /** Where prepared files go when the recording's directory is not writable (e.g. ~/.cache/stratd/prepared). */
  readonly fallbackDir?: string;
  readonly onEvent?: (event: PreparedCacheEvent) => void;
}

/** The directory beside a recording that holds its prepared form. */
export function preparedDirOf(recording: string): string {
  return join(dirname(recording), `${basename(recording)}.stratd-cache`);
}

export function preparedFileName(sha256: string): string {
  return `${sha256}.arrow`;
}

/** sha256 (hex) and size of a file's bytes; throws MarketStreamError UNREADABLE. */
export async function fileSha256(path: string): Promise<{ readonly sha256: string; readonly bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    throw new MarketStreamError('UNREADABLE', path, undefined, code === 'ENOENT' ? 'no such file' : `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * The prepared form of the recording at `path`: read from beside it (or the fallback directory) when a
 * file for its current bytes is there and passes every check; otherwise the recording is read as JSONL
 * (the whole of it) and the prepared form written atomically for the next time. A recording the JSONL
 * reader cannot read throws its MarketStreamError (the caller then reads it as JSONL, to report it).
 */
export async function loadPrepared(path: string, options: PreparedCacheOptions): Promise<PreparedColumns> {
  // The Arrow reader and writer (apache-arrow, ~150 modules) load here, when a prepared form is read or
  // written, not with everything that imports this module (sweep shards hash recordings with it).
  const { PreparedColumns, PreparedFormatError } = await import('./columns.js');
  const { sha256, bytes } = await fileSha256(path);
  const name = preparedFileName(sha256);
  const places = [preparedDirOf(path), ...(options.fallbackDir === undefined ? [] : [options.fallbackDir])];
  for (const dir of places) {
    const file = join(dir, name);
    let content: Uint8Array;
    try {
      content = await readFile(file);
    } catch {
      continue;
    }
    try {
      const columns = PreparedColumns.decode(content, sha256);
      options.onEvent?.({ type: 'read', recording: path, file });
      return columns;
    } catch (error) {
      if (!(error instanceof PreparedFormatError)) throw error;
      options.onEvent?.({ type: 'ignored', recording: path, file, reason: error.message });
    }
  }
  const built = await readWhole(path);
  const { encodePrepared } = await import('./write.js');
  const encoded = encodePrepared({ header: built.header, events: built.events, recordingSha256: sha256, recordingBytes: bytes, ...(built.torn === undefined ? {} : { torn: built.torn }) });
  const reasons: string[] = [];
  for (const dir of places) {
    try {
      const file = await writeAtomically(dir, name, encoded);
      options.onEvent?.({ type: 'written', recording: path, file });
      if (dir === places[0]) await removeStale(dir, name);
      break;
    } catch (error) {
      reasons.push(`${dir}: ${error instanceof Error ? error.message : String(error)}`);
      if (reasons.length === places.length) options.onEvent?.({ type: 'unwritable', recording: path, reason: reasons.join('; ') });
    }
  }
  return PreparedColumns.decode(encoded, sha256);
}

/** Every event of a recording (no `to`: the prepared form is the whole recording) and its torn last line. */
async function readWhole(path: string): Promise<{ header: MarketStreamReader['header']; events: MarketEvent[]; torn?: { line: number; message: string } }> {
  let torn: MarketStreamWarning | undefined;
  const reader = await MarketStreamReader.open(path, {
    onWarning: (warning) => {
      torn = warning;
    },
  });
  const events: MarketEvent[] = [];
  try {
    for await (const batch of reader.eventBatches()) for (const event of batch) events.push(event);
  } finally {
    await reader.close();
  }
  const last = torn as MarketStreamWarning | undefined;
  return { header: reader.header, events, ...(last === undefined ? {} : { torn: { line: last.line, message: last.message } }) };
}

/** Writes `dir/name` through a temporary file, synced and renamed into place: readers see all of it or nothing. */
export async function writeAtomically(dir: string, name: string, content: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/** Prepared files beside a recording for its earlier contents: never read again. */
async function removeStale(dir: string, keep: string): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [])) {
    if (entry === keep || !entry.endsWith('.arrow')) continue;
    const file = join(dir, entry);
    if ((await stat(file).catch(() => undefined))?.isFile() === true) await rm(file, { force: true });
  }
}
