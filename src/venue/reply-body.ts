import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { InputType, ZlibOptions } from 'node:zlib';
import { HttpTransportError } from './http-port.js';

type Inflater = (buffer: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;

const INFLATERS: Readonly<Record<string, Inflater>> = { gzip: gunzip, 'x-gzip': gunzip, deflate: inflate, br: brotliDecompress };

/**
 * A reply body as text: UTF-8, decompressed first when `Content-Encoding` says gzip, deflate or br
 * (off the event loop, and never to more than `maxBytes`). Answers the text, or the transport error
 * that stands for it (an unknown encoding, a corrupt or oversized stream). `raw` is read before this
 * returns or copied (it may be a view of a read buffer its caller reuses).
 */
export function decodeBody(raw: Buffer, encoding: string | undefined, maxBytes: number, done: (body: string | HttpTransportError) => void): void {
  const name = encoding?.trim().toLowerCase();
  if (name === undefined || name === '' || name === 'identity') {
    done(raw.toString('utf8'));
    return;
  }
  const inflater = INFLATERS[name];
  if (inflater === undefined) {
    done(new HttpTransportError(`reply in an unsupported content encoding ${JSON.stringify(name.slice(0, 40))}`, false));
    return;
  }
  inflater(Buffer.from(raw), { maxOutputLength: maxBytes }, (error, result) => {
    if (error === null) done(result.toString('utf8'));
    else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') done(new HttpTransportError(`reply body larger than ${maxBytes} bytes once decompressed`, false));
    else done(new HttpTransportError(`reply body could not be decompressed (${name}): ${error.message}`, false));
  });
}
