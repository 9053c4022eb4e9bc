import { closeSync, openSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/**
 * File names of a recording. Without rotation it is the `out` file itself (part 0) and its account
 * sibling; rotated parts, and a new recording next to an existing one, are numbered:
 *   rec.jsonl          rec.account.jsonl            part 0 (no rotation)
 *   rec.0001.jsonl     rec.0001.account.jsonl       part 1, 2, … (rotation, or `existing: next`)
 * `.gz` stays last (rec.0001.account.jsonl.gz), so `rec.????.jsonl*` matches only market parts.
 */
export interface RecordingNames {
  readonly dir: string;
  /** The name without its extension: "rec" of "rec.jsonl.gz". */
  readonly stem: string;
  /** ".jsonl", ".jsonl.gz", or "" for a name without one. */
  readonly ext: string;
}

export interface PartPaths {
  readonly market: string;
  readonly account: string;
}

/** The names of a recording at `out`; `gzip` adds ".gz" when the name lacks it (a ".gz" name is always gzipped). */
export function recordingNames(out: string, gzip = false): RecordingNames {
  const name = basename(out);
  const gz = name.endsWith('.gz') ? '.gz' : '';
  const rest = name.slice(0, name.length - gz.length);
  const ext = extname(rest);
  const stem = ext === '' ? rest : rest.slice(0, rest.length - ext.length);
  return { dir: dirname(out), stem, ext: `${ext}${gz === '' && gzip ? '.gz' : gz}` };
}

export function partPaths(names: RecordingNames, index: number): PartPaths {
  const number = index === 0 ? '' : `.${String(index).padStart(4, '0')}`;
  const { dir, stem, ext } = names;
  return { market: join(dir, `${stem}${number}${ext}`), account: join(dir, `${stem}${number}.account${ext}`) };
}

/** Indexes of the parts (market or account file) already on disk, ascending; 0 is the un-numbered pair. */
export function existingParts(names: RecordingNames): number[] {
  let entries: string[];
  try {
    entries = readdirSync(names.dir);
  } catch {
    return [];
  }
  const stem = escapeRegExp(names.stem);
  const ext = escapeRegExp(names.ext);
  const pattern = new RegExp(`^${stem}(?:\\.(\\d{4,}))?(?:\\.account)?${ext}$`);
  const found = new Set<number>();
  for (const entry of entries) {
    const match = pattern.exec(entry);
    if (match !== null) found.add(match[1] === undefined ? 0 : Number(match[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** Creates `path` empty, failing with EEXIST when it exists: a recording never truncates a file by accident. */
export function claimFile(path: string): void {
  closeSync(openSync(path, 'wx'));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
