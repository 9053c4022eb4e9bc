import type * as GotPackage from 'got';
import type { Got } from 'got';
import type { HttpPort, HttpReply, HttpRequest } from './http-port.js';
import { HttpTransportError } from './http-port.js';

type GotModule = typeof GotPackage;

/**
 * HttpPort over got@14: no retries, no redirects, the body sent byte for byte as given. got (and its ~60
 * modules) loads at the first request, not when the port is made: many processes make one they never
 * send through (a daemon's notifier without channels, a catalog client with no catalog configured).
 */
export function createGotHttp(): HttpPort {
  let loaded: { readonly got: GotModule; readonly client: Got } | undefined;
  const load = async (): Promise<{ readonly got: GotModule; readonly client: Got }> => {
    if (loaded !== undefined) return loaded;
    const got = await import('got');
    loaded ??= { got, client: got.default.extend({ retry: { limit: 0 }, throwHttpErrors: false, followRedirect: false, decompress: true }) };
    return loaded;
  };
  return {
    async send(request: HttpRequest): Promise<HttpReply> {
      const { got, client } = loaded ?? (await load());
      const { RequestError, TimeoutError } = got;
      try {
        const pending = client(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          timeout: { request: request.timeoutMs },
          ...(request.signal === undefined ? {} : { signal: request.signal }),
          responseType: 'text',
        });
        const { onWritten, onResponse } = request;
        if (onWritten !== undefined || onResponse !== undefined) {
          // The node:http request under got: 'finish' once the request is handed to the socket.
          pending.on('request', (sent) => {
            if (onWritten !== undefined) {
              if (sent.writableFinished) onWritten();
              else sent.once('finish', onWritten);
            }
            if (onResponse !== undefined) sent.once('response', onResponse);
          });
        }
        const response = await pending;
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        return { status: response.statusCode, headers, body: response.body };
      } catch (error: unknown) {
        if (error instanceof TimeoutError) throw new HttpTransportError(error.message, true);
        if (error instanceof RequestError) throw new HttpTransportError(`${error.code}: ${error.message}`, false);
        if (request.signal?.aborted === true) throw new HttpTransportError('aborted', false);
        throw error;
      }
    },
  };
}
