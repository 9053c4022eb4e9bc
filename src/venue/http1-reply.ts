/**
 * An incremental reader of one HTTP/1.1 response from a byte stream (RFC 9112): status line,
 * headers, then a body framed by Content-Length, by chunked transfer coding, or by the connection's
 * close. Interim 1xx responses are skipped. Feed it the socket's bytes as they come; it answers what
 * it found: need more, the head (once), the whole reply, or a protocol error.
 */

export interface ReplyHead {
  readonly status: number;
  /** Header names lower-cased; a repeated header's values joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The connection may carry another request after this reply. */
  readonly keepAlive: boolean;
  /** Seconds from a `Keep-Alive: timeout=N` header, when the server sent one. */
  readonly keepAliveSeconds: number | undefined;
}

export type ReplyProgress =
  | { readonly kind: 'more' }
  | { readonly kind: 'done'; readonly head: ReplyHead; readonly body: Buffer; readonly extra: boolean }
  | { readonly kind: 'error'; readonly message: string };

const MORE: ReplyProgress = { kind: 'more' };
const CRLF2 = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');
/** Longest status line + headers accepted (Node's own default). */
const MAX_HEAD_BYTES = 16 * 1024;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/;

type Framing = { readonly kind: 'length'; readonly length: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' };

export class Http1ReplyReader {
  private buffered: Buffer | undefined;
  private head: ReplyHead | undefined;
  private framing: Framing | undefined;
  private readonly parts: Buffer[] = [];
  private size = 0;
  /** Chunked: bytes of the current chunk still to read (then its CRLF); -1 while reading a size line; -2 in the trailers. */
  private chunkLeft = -1;

  constructor(
    private readonly maxBody: number,
    /** Called once, when the head of the final (non-1xx) response has been read. */
    private readonly onHead: (head: ReplyHead) => void,
  ) {}

  /** Adds bytes read from the socket and answers how far the reply is. */
  feed(chunk: Buffer): ReplyProgress {
    this.buffered = this.buffered === undefined || this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (this.head === undefined) {
      const head = this.readHead();
      if (head.kind !== 'more') return head;
      if (this.head === undefined) return MORE;
    }
    return this.readBody();
  }

  /**
   * Copies the bytes it keeps (an unread rest, the body's parts so far) out of the chunks it was fed:
   * for a caller that reads the socket into one buffer it reuses, after a `feed` that answered `more`.
   */
  ownBytes(): void {
    if (this.buffered !== undefined && this.buffered.length > 0) this.buffered = Buffer.from(this.buffered);
    for (let i = 0; i < this.parts.length; i++) this.parts[i] = Buffer.from(this.parts[i] as Buffer);
  }

  /** The connection closed: a reply framed by the close is complete now; any other is cut short. */
  end(): ReplyProgress {
    if (this.head !== undefined && this.framing?.kind === 'close') return this.done(false);
    return { kind: 'error', message: 'ECONNRESET: the connection closed before the reply was complete' };
  }

  private readHead(): ReplyProgress {
    for (;;) {
      const buffered = this.buffered as Buffer;
      const at = buffered.indexOf(CRLF2);
      if (at < 0) return buffered.length > MAX_HEAD_BYTES ? { kind: 'error', message: `reply headers larger than ${MAX_HEAD_BYTES} bytes` } : MORE;
      // One pass over the head's text by index (no line array, no per-line copies beyond name and value).
      const text = buffered.toString('latin1', 0, at);
      this.buffered = buffered.subarray(at + 4);
      const firstEnd = text.indexOf('\r\n');
      const statusLine = firstEnd < 0 ? text : text.slice(0, firstEnd);
      const status = STATUS_LINE.exec(statusLine);
      if (status === null) return { kind: 'error', message: `not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 40))}` };
      const code = Number(status[2]);
      if (code >= 100 && code < 200 && code !== 101) continue; // interim reply (100 Continue, 103 Early Hints)
      if (code === 101) return { kind: 'error', message: 'the server switched protocols (101)' };
      const headers: Record<string, string | undefined> = {};
      for (let start = firstEnd < 0 ? text.length : firstEnd + 2; start < text.length; ) {
        const found = text.indexOf('\r\n', start);
        const end = found < 0 ? text.length : found;
        const colon = text.indexOf(':', start);
        if (colon <= start || colon >= end) return { kind: 'error', message: `malformed reply header line ${JSON.stringify(text.slice(start, Math.min(end, start + 40)))}` };
        const name = text.slice(start, colon).trim().toLowerCase();
        const value = text.slice(colon + 1, end).trim();
        const seen = headers[name];
        headers[name] = seen === undefined ? value : `${seen}, ${value}`;
        start = end + 2;
      }
      const framing = framingOf(code, headers);
      if (typeof framing === 'string') return { kind: 'error', message: framing };
      if (framing.kind === 'length' && framing.length > this.maxBody) return { kind: 'error', message: `reply body larger than ${this.maxBody} bytes` };
      const connection = headers['connection'];
      const closes = connection !== undefined && connection.toLowerCase().includes('close');
      const keepAlive = framing.kind !== 'close' && (status[1] === '1' ? !closes : connection !== undefined && connection.toLowerCase().includes('keep-alive'));
      const keepAliveHeader = headers['keep-alive'];
      const timeout = keepAliveHeader === undefined ? null : /(?:^|[,\s])timeout=(\d+)/i.exec(keepAliveHeader);
      this.head = { status: code, headers, keepAlive, keepAliveSeconds: timeout === null ? undefined : Number(timeout[1]) };
      this.framing = framing;
      this.onHead(this.head);
      return MORE;
    }
  }

  private readBody(): ReplyProgress {
    const framing = this.framing as Framing;
    const buffered = this.buffered as Buffer;
    if (framing.kind === 'length') {
      const missing = framing.length - this.size;
      if (buffered.length < missing) {
        this.take(buffered);
        this.buffered = undefined;
        return MORE;
      }
      this.take(buffered.subarray(0, missing));
      this.buffered = buffered.subarray(missing);
      return this.done(this.buffered.length > 0);
    }
    if (framing.kind === 'close') {
      this.take(buffered);
      this.buffered = undefined;
      return this.size > this.maxBody ? { kind: 'error', message: `reply body larger than ${this.maxBody} bytes` } : MORE;
    }
    return this.readChunks();
  }

  private readChunks(): ReplyProgress {
    let buffered = this.buffered as Buffer;
    for (;;) {
      if (this.chunkLeft >= 0) {
        // chunk data, then its CRLF
        if (buffered.length < this.chunkLeft + 2) {
          const data = Math.min(buffered.length, this.chunkLeft);
          this.take(buffered.subarray(0, data));
          this.chunkLeft -= data;
          this.buffered = buffered.subarray(data);
          return this.size > this.maxBody ? { kind: 'error', message: `reply body larger than ${this.maxBody} bytes` } : MORE;
        }
        this.take(buffered.subarray(0, this.chunkLeft));
        if (buffered[this.chunkLeft] !== 13 || buffered[this.chunkLeft + 1] !== 10) return { kind: 'error', message: 'malformed chunked reply body (no CRLF after a chunk)' };
        buffered = buffered.subarray(this.chunkLeft + 2);
        this.chunkLeft = -1;
        if (this.size > this.maxBody) return { kind: 'error', message: `reply body larger than ${this.maxBody} bytes` };
        continue;
      }
      const eol = buffered.indexOf(CRLF);
      if (eol < 0) {
        this.buffered = buffered;
        return buffered.length > MAX_HEAD_BYTES ? { kind: 'error', message: 'malformed chunked reply body (line too long)' } : MORE;
      }
      const line = buffered.toString('latin1', 0, eol);
      buffered = buffered.subarray(eol + 2);
      if (this.chunkLeft === -2) {
        // trailer section: ends at an empty line
        if (line === '') {
          this.buffered = buffered;
          return this.done(buffered.length > 0);
        }
        continue;
      }
      const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
      if (size === null) return { kind: 'error', message: `malformed chunk size line ${JSON.stringify(line.slice(0, 20))}` };
      const length = parseInt(size[1] as string, 16);
      this.chunkLeft = length === 0 ? -2 : length;
    }
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.parts.push(part);
    this.size += part.length;
  }

  private done(extra: boolean): ReplyProgress {
    const body = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size);
    return { kind: 'done', head: this.head as ReplyHead, body, extra };
  }
}

/** How the reply's body ends (RFC 9112 §6.3), or what is wrong with its framing headers. */
function framingOf(status: number, headers: Readonly<Record<string, string | undefined>>): Framing | string {
  if (status === 204 || status === 304) return { kind: 'length', length: 0 };
  const coding = headers['transfer-encoding'];
  if (coding !== undefined) {
    const codings = coding.toLowerCase().split(',').map((c) => c.trim());
    if (codings[codings.length - 1] === 'chunked') return { kind: 'chunked' };
    return { kind: 'close' };
  }
  const length = headers['content-length'];
  if (length === undefined) return { kind: 'close' };
  if (!/^\d{1,15}$/.test(length)) return `invalid Content-Length ${JSON.stringify(length.slice(0, 30))}`;
  return { kind: 'length', length: Number(length) };
}
