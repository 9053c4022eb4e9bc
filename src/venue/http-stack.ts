import type { NodeHttp, NodeHttpOptions } from './node-http.js';
import { createNodeHttp } from './node-http.js';
import { createSocketHttp } from './socket-http.js';

/** The client's own REST transports (`exchange.http`, got aside): stratd's HTTP/1.1 over sockets, undici, or Node's http. */
export type HttpStack = 'socket' | 'undici' | 'node';

/** The default transport when `exchange.http` names none (README "The exchange client"). */
export const DEFAULT_HTTP_STACK: HttpStack = 'socket';

/** A new transport of the stack named; its owner closes it. */
export function createHttpStack(stack: HttpStack = DEFAULT_HTTP_STACK, options: NodeHttpOptions = {}): NodeHttp {
  return stack === 'undici' ? lazyUndiciHttp(options) : stack === 'node' ? createNodeHttp(options) : createSocketHttp(options);
}

/**
 * The undici transport, with undici itself (~110 modules) loaded at the first request rather than when
 * the transport is made: a process that never sends (`stratd validate`, a daemon refused at start) does
 * not pay for it. Requests and close() keep their order across the load.
 */
function lazyUndiciHttp(options: NodeHttpOptions): NodeHttp {
  let http: NodeHttp | undefined;
  let loading: Promise<NodeHttp> | undefined;
  const load = (): Promise<NodeHttp> =>
    (loading ??= import('./undici-http.js').then(({ createUndiciHttp }) => {
      http = createUndiciHttp(options);
      return http;
    }));
  return {
    send: (request) => (http !== undefined ? http.send(request) : load().then((loaded) => loaded.send(request))),
    close: () => {
      if (http !== undefined) http.close();
      // A request waiting for the load is in flight: closed after it starts, as it would have been.
      else if (loading !== undefined) void loading.then((loaded) => loaded.close());
    },
  };
}
