import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeEventLine } from '../sim/market-stream/event-lines.js';
import { lineBatches } from '../sim/market-stream/line-batches.js';

const TAIL_BYTES = 64 * 1024;

/**
 * Time of the last complete event of a recording, for a progress display: a plain file is read from
 * its tail; a gzipped one is decompressed without parsing. Undefined when none is found.
 */
export async function lastEventTime(path: string): Promise<number | undefined> {
  if (path.endsWith('.gz')) {
    let last: number | undefined;
    for await (const lines of lineBatches(path)) last = lastTimeOf(lines) ?? last;
    return last;
  }
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    for (let span = TAIL_BYTES; ; span *= 4) {
      const start = Math.max(0, size - span);
      const buffer = Buffer.alloc(size - start);
      readSync(fd, buffer, 0, buffer.length, start);
      const lines = buffer.toString('utf8').split('\n');
      // The first line is the header, or cut by the window.
      const found = lastTimeOf(lines.slice(1));
      if (found !== undefined || start === 0) return found;
    }
  } finally {
    closeSync(fd);
  }
}

/** The newest of several recordings' last event times. */
export async function lastEventTimeOf(paths: readonly string[]): Promise<number | undefined> {
  let last: number | undefined;
  for (const path of paths) {
    const time = await lastEventTime(path);
    if (time !== undefined && (last === undefined || time > last)) last = time;
  }
  return last;
}

function lastTimeOf(lines: readonly string[]): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i]!.trim();
    if (text === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      continue;
    }
    const event = decodeEventLine(raw);
    if (event !== undefined) return event.ts;
  }
  return undefined;
}
