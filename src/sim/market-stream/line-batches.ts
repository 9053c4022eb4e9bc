import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { constants as zlibConstants, createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { MarketStreamError } from './stream-error.js';

const CHUNK_BYTES = 256 * 1024;

/**
 * The lines of a text file (gunzipped when the name ends in `.gz`), streamed: one batch per chunk
 * read, so a consumer pays one await per chunk rather than per line. Line ends are "\n" or "\r\n".
 * A last line without a line end is still yielded. A gzip file cut short yields what decodes.
 */
export async function* lineBatches(path: string): AsyncGenerator<string[], void, undefined> {
  const source = openText(path);
  const decoder = new StringDecoder('utf8');
  let carry = '';
  try {
    for await (const chunk of source) {
      const text = carry + decoder.write(chunk as Buffer);
      const lines: string[] = [];
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        lines.push(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end));
        start = end + 1;
      }
      carry = text.slice(start);
      if (lines.length > 0) yield lines;
    }
  } catch (error) {
    throw asReadError(path, error);
  } finally {
    source.destroy();
  }
  const last = carry + decoder.end();
  if (last !== '') yield [last];
}

function openText(path: string): Readable {
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  if (!path.endsWith('.gz')) return file;
  // Z_SYNC_FLUSH at the end: a recording cut off mid-write decodes up to where it stops instead of failing.
  const gunzip = createGunzip({ finishFlush: zlibConstants.Z_SYNC_FLUSH, chunkSize: CHUNK_BYTES });
  file.on('error', (error) => gunzip.destroy(error));
  gunzip.on('close', () => file.destroy());
  return file.pipe(gunzip);
}

function asReadError(path: string, error: unknown): MarketStreamError {
  if (error instanceof MarketStreamError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') return new MarketStreamError('UNREADABLE', path, undefined, 'no such file');
  if (code.startsWith('Z_')) return new MarketStreamError('UNREADABLE', path, undefined, `gzip data is corrupt (${message})`);
  return new MarketStreamError('UNREADABLE', path, undefined, `cannot read: ${message}`);
}
