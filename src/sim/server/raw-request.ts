import type { IncomingMessage } from 'node:http';

/** A request as it arrived: path, query and body still encoded, exactly the bytes the client signed. */
export interface RawRequest {
  readonly method: string;
  /** The path, still percent-encoded, without the query. */
  readonly path: string;
  /** The text after the first `?`; empty when none. */
  readonly rawQuery: string;
  readonly rawBody: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly ip: string;
}

export type RawRequestOutcome = { readonly kind: 'ok'; readonly request: RawRequest } | { readonly kind: 'too-large' };

/** Reads the whole request; bodies above `maxBodyBytes` are refused. Rejects when the client goes away. */
export function readRawRequest(req: IncomingMessage, maxBodyBytes: number): Promise<RawRequestOutcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (tooLarge) {
        resolve({ kind: 'too-large' });
        return;
      }
      const { path, rawQuery } = splitTarget(req.url ?? '/');
      resolve({
        kind: 'ok',
        request: {
          method: (req.method ?? 'GET').toUpperCase(),
          path,
          rawQuery,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          headers: flattenHeaders(req.headers),
          ip: req.socket.remoteAddress ?? 'unknown',
        },
      });
    });
  });
}

/** Splits a request target into path and raw query; an absolute-form target loses its scheme and host. */
export function splitTarget(target: string): { path: string; rawQuery: string } {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target);
  const rest = origin === null ? target : target.slice(origin[0].length) || '/';
  const mark = rest.indexOf('?');
  if (mark < 0) return { path: rest, rawQuery: '' };
  return { path: rest.slice(0, mark), rawQuery: rest.slice(mark + 1) };
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
