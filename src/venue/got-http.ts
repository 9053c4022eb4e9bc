import got, { RequestError, TimeoutError } from 'got';
import type { HttpPort, HttpReply, HttpRequest } from './http-port.js';
import { HttpTransportError } from './http-port.js';

/** HttpPort over got@14: no retries, no redirects, the body sent byte for byte as given. */
export function createGotHttp(): HttpPort {
  const client = got.extend({ retry: { limit: 0 }, throwHttpErrors: false, followRedirect: false, decompress: true });
  return {
    async send(request: HttpRequest): Promise<HttpReply> {
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
