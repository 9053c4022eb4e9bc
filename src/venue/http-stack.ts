import type { NodeHttp, NodeHttpOptions } from './node-http.js';
import { createNodeHttp } from './node-http.js';
import { createSocketHttp } from './socket-http.js';
import { createUndiciHttp } from './undici-http.js';

/** The client's own REST transports (`exchange.http`, got aside): stratd's HTTP/1.1 over sockets, undici, or Node's http. */
export type HttpStack = 'socket' | 'undici' | 'node';

/** The default transport when `exchange.http` names none (README "The exchange client"). */
export const DEFAULT_HTTP_STACK: HttpStack = 'socket';

/** A new transport of the stack named; its owner closes it. */
export function createHttpStack(stack: HttpStack = DEFAULT_HTTP_STACK, options: NodeHttpOptions = {}): NodeHttp {
  return stack === 'undici' ? createUndiciHttp(options) : stack === 'node' ? createNodeHttp(options) : createSocketHttp(options);
}
