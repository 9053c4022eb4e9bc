import type { WireStyle } from '../../protocol/endpoints.js';
import { statusOfCode } from '../../protocol/error-codes.js';
import { garble } from './faults/garbage.js';
import type { RouteReply } from './routing/types.js';

/** A complete HTTP answer before it is written (the server adds `traceId` and the length). */
export interface ServerReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const JSON_TYPE = 'application/json';

export function jsonReply(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): ServerReply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** Unknown paths: 404 with a small HTML body (API-NOTES §3). */
export function notFoundReply(): ServerReply {
  return {
    status: 404,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    body: '<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>',
  };
}

const REASONS: Readonly<Record<number, string>> = {
  413: 'Payload Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A short non-JSON answer for transport-level failures (injected 5xx, oversized body). */
export function plainReply(status: number): ServerReply {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: `${status} ${REASONS[status] ?? 'Error'}` };
}

/**
 * The envelope of a route's reply (API-NOTES §3): v1 success is the data itself, v2 success is
 * `{"code":200,"msg":"success","data":...}`; errors are `{"code":n,"msg":"..."}` with the route's
 * status, or 429 for -1003/-1015 and 400 for the rest.
 */
export function renderRouteReply(reply: RouteReply, wire: WireStyle): ServerReply {
  switch (reply.kind) {
    case 'ok':
      return jsonReply(200, wire === 'v2' ? { code: 200, msg: 'success', data: reply.data ?? null } : (reply.data ?? null));
    case 'error':
      return jsonReply(reply.status ?? statusOfCode(reply.code), { code: reply.code, msg: reply.msg });
    case 'raw':
      return { status: reply.status, headers: { 'Content-Type': reply.contentType ?? JSON_TYPE }, body: reply.body };
  }
}

/** The garbage fault: the same status and headers around a corrupted body (see garble). */
export function garbledReply(reply: ServerReply, kindDraw: number, cutDraw: number): ServerReply {
  return { ...reply, body: garble(reply.body, kindDraw, cutDraw).text };
}

export function withHeaders(reply: ServerReply, headers: Readonly<Record<string, string>>): ServerReply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}
