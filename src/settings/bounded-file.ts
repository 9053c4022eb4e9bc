import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';

/** Largest config or secret file read: anything bigger is not a config (and /dev/zero never ends). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What a refused read says; `stats` is there when the file was opened (secret files check its mode). */
export interface BoundedFile {
  readonly text: string;
  readonly stats: Stats;
}

/**
 * Reads a regular file of at most `maxBytes`. It is opened without blocking and checked on the open
 * descriptor before a byte is read, so a named pipe, a device (/dev/zero) or a huge file is refused at
 * once instead of blocking or filling memory. The error is a short reason (the caller names the file).
 */
export function readBoundedFile(file: string, maxBytes: number = MAX_CONFIG_BYTES): Result<BoundedFile, string> {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error: unknown) {
    return err(`cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return err(`not a regular file (${kindOf(stats)}): a config is read from a regular file only`);
    if (stats.size > maxBytes) return err(`the file is ${stats.size} bytes, above the limit of ${maxBytes} bytes`);
    // The size may change after fstat: read one byte beyond the limit to notice a file that grew.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) return err(`the file is above the limit of ${maxBytes} bytes`);
    }
    return ok({ text: buffer.subarray(0, length).toString('utf8'), stats });
  } catch (error: unknown) {
    return err(`cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'an unusual file type';
}
