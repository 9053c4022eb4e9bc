import { Http1ReplyReader } from '../../src/venue/http1-reply.js';

/** Feeds `reply` one `size`-byte read at a time through one reused buffer, as the socket transport reads plain TCP. */
function readThroughOneBuffer(reply: string, size: number): ReturnType<Http1ReplyReader['feed']> {
  const bytes = Buffer.from(reply, 'latin1');
  const buffer = Buffer.alloc(size);
  const reader = new Http1ReplyReader(1024, () => undefined);
  for (let at = 0; ; at += size) {
    const length = bytes.copy(buffer, 0, at, at + size);
    const progress = reader.feed(buffer.subarray(0, length));
    if (progress.kind !== 'more') return progress;
    reader.ownBytes();
    // The next read overwrites the buffer: what the reader kept must not change with it.
    buffer.fill(0x58);
  }
}

describe('Http1ReplyReader over a reused read buffer', () => {
  it.each([1, 3, 7])('keeps the head and body it has so far out of the buffer (reads of %i bytes)', (size) => {
    const lengthFramed = readThroughOneBuffer('HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: b\r\n\r\nhello world', size);
    expect(lengthFramed.kind === 'done' && [lengthFramed.head.headers['x-a'], lengthFramed.body.toString('latin1')]).toEqual(['b', 'hello world']);
    const chunked = readThroughOneBuffer('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n', size);
    expect(chunked.kind === 'done' && chunked.body.toString('latin1')).toBe('hello world');
  });
});
