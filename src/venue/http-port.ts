/** The network as a port: one request out, one reply back. Adapters: node:http (node-http.ts, the REST hot paths) and got (got-http.ts). */
export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Called once the request (headers and body) has been handed to the socket. */
  readonly onWritten?: () => void;
  /** Called once the reply's status line and headers have arrived (before its body is read to the end). */
  readonly onResponse?: () => void;
  /** Aborting it ends the request at once: an HttpTransportError (not timed out); whether the server acted on it is unknown. */
  readonly signal?: AbortSignal;
}

export interface HttpReply {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** Transport-level failure: no HTTP reply arrived. `timedOut` distinguishes a timeout. */
export class HttpTransportError extends Error {
  override readonly name = 'HttpTransportError';
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE_HEADER_TEXT = /[\r\n\0]/;

/**
 * Refuses a header whose name is not an HTTP token or whose value holds a line break or NUL (header
 * injection), before anything is sent: the same answer from every transport.
 */
export function checkRequestHeader(name: string, value: string): void {
  if (!HEADER_NAME.test(name) || UNSAFE_HEADER_TEXT.test(value)) throw new HttpTransportError(`invalid request header ${JSON.stringify(name.slice(0, 40))}`, false);
}

/** Whether text may go into a request line or header as it is (no line break, no NUL). */
export function isSafeHeaderText(text: string): boolean {
  return !UNSAFE_HEADER_TEXT.test(text);
}

export interface HttpPort {
  send(request: HttpRequest): Promise<HttpReply>;
}
