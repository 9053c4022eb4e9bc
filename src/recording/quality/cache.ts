import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PreparedCacheOptions } from '../prepared/cache.js';
import { fileSha256, preparedDirOf, writeAtomically } from '../prepared/cache.js';
import { recordingScan } from './recording-scan.js';
import type { QualityThresholds, RecordingQuality } from './types.js';
import { DEFAULT_QUALITY_THRESHOLDS } from './types.js';

const FORMAT = 'stratd-data-quality';
const VERSION = 1;

const count = z.number().int().nonnegative();
const cachedSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  recordingSha256: z.string(),
  thresholds: z.object({ gapFactor: z.number(), minGapMs: z.number(), frozenMs: z.number(), frozenTrades: z.number() }),
  events: count,
  counts: z.object({ gap: count, duplicate: count, 'out-of-order': count, 'frozen-book': count }),
  findings: z.array(
    z.object({
      kind: z.enum(['gap', 'duplicate', 'out-of-order', 'frozen-book']),
      symbol: z.string(),
      stream: z.string(),
      line: count.optional(),
      from: z.number(),
      to: z.number(),
      detail: z.string(),
    }),
  ),
});

/** The file beside a recording's prepared form that holds its scan for these bytes. */
export function qualityFileName(sha256: string): string {
  return `${sha256}.quality.json`;
}

/**
 * The scan of the recording at `path`, read from beside its prepared form (or the fallback directory)
 * when one for its current bytes and these thresholds is there; otherwise scanned and written there for
 * the next time. Without a cache (`--no-cache`) it is scanned every time. A cache that cannot be written
 * costs only the next scan.
 */
export async function scanWithCache(path: string, thresholds: QualityThresholds = DEFAULT_QUALITY_THRESHOLDS, cache?: PreparedCacheOptions): Promise<RecordingQuality> {
  if (cache === undefined) return recordingScan(path, thresholds);
  const { sha256 } = await fileSha256(path);
  const name = qualityFileName(sha256);
  const places = [preparedDirOf(path), ...(cache.fallbackDir === undefined ? [] : [cache.fallbackDir])];
  for (const dir of places) {
    const cached = await readCached(join(dir, name), sha256, thresholds);
    if (cached !== undefined) return { path, events: cached.events, counts: cached.counts, findings: cached.findings.map(({ line, ...rest }) => ({ ...rest, ...(line === undefined ? {} : { line }) })) };
  }
  const scanned = await recordingScan(path, thresholds);
  const content = `${JSON.stringify({ format: FORMAT, version: VERSION, recordingSha256: sha256, thresholds, events: scanned.events, counts: scanned.counts, findings: scanned.findings })}\n`;
  for (const dir of places) {
    try {
      await writeAtomically(dir, name, Buffer.from(content));
      if (dir === places[0]) await removeStale(dir, name);
      break;
    } catch {
      // The next place, or none: the scan is only a cache.
    }
  }
  return scanned;
}

/** Scans kept for the recording's earlier contents: never read again. */
async function removeStale(dir: string, keep: string): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [])) {
    if (entry !== keep && entry.endsWith('.quality.json')) await rm(join(dir, entry), { force: true });
  }
}

async function readCached(file: string, sha256: string, thresholds: QualityThresholds): Promise<z.infer<typeof cachedSchema> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = cachedSchema.safeParse(value);
  if (!parsed.success || parsed.data.recordingSha256 !== sha256) return undefined;
  const t = parsed.data.thresholds;
  const same = t.gapFactor === thresholds.gapFactor && t.minGapMs === thresholds.minGapMs && t.frozenMs === thresholds.frozenMs && t.frozenTrades === thresholds.frozenTrades;
  return same ? parsed.data : undefined;
}
