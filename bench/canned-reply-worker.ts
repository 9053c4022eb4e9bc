import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The canned-reply server's process: a bare TCP server speaking just enough HTTP/1.1 (keep-alive,
 * Content-Length or chunked request bodies) to answer each request with the fixed bytes recorded for
 * its route ("METHOD /path", query ignored). It does no parsing beyond finding where a request ends,
 * so a client measured against it is measured, not the server. Started by canned-reply-server.ts.
 */
/** Whole HTTP responses (status line, headers, body) by route: the first IPC message of the parent. */
type Replies = Readonly<Record<string, Uint8Array>>;

const replies = new Map<string, Buffer>();
const notFound = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 9\r\n\r\nnot found', 'latin1');
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n', 'latin1');

/** Where the request starting at 0 ends (exclusive), or -1 when more bytes are needed. */
function requestEnd(data: Buffer): number {
  const head = data.indexOf(HEAD_END);
  if (head < 0) return -1;
  const bodyStart = head + 4;
  const headers = data.toString('latin1', 0, head).toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(headers);
  if (length !== null) {
    const end = bodyStart + Number(length[1]);
    return data.length >= end ? end : -1;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(headers)) {
    const last = data.indexOf(CHUNKED_END, bodyStart - 2);
    return last < 0 ? -1 : last + CHUNKED_END.length;
  }
  return bodyStart;
}

function routeOf(data: Buffer): string {
  const lineEnd = data.indexOf('\r\n');
  const line = data.toString('latin1', 0, lineEnd);
  const space = line.indexOf(' ');
  const target = line.slice(space + 1, line.lastIndexOf(' '));
  const query = target.indexOf('?');
  return `${line.slice(0, space)} ${query < 0 ? target : target.slice(0, query)}`;
}

function serve(socket: Socket): void {
  socket.setNoDelay(true);
  let pending: Buffer | undefined;
  socket.on('data', (chunk: Buffer) => {
    let data = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const end = requestEnd(data);
      if (end < 0) break;
      socket.write(replies.get(routeOf(data)) ?? notFound);
      data = data.subarray(end);
    }
    pending = data.length === 0 ? undefined : data;
  });
  socket.on('error', () => socket.destroy());
}

process.once('message', (recorded: Replies) => {
  for (const [route, bytes] of Object.entries(recorded)) replies.set(route, Buffer.from(bytes));
  const server = createServer(serve);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
});
// The parent's end: this server goes with it.
process.once('disconnect', () => process.exit(0));
