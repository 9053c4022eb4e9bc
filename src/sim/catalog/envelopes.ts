import type { CatalogJsonValue } from '../../protocol/catalog/json.js';
import { writeCatalogJson } from '../../protocol/catalog/json.js';
import type { Pagination } from '../../catalog/schemas.js';
import type { CatalogFailure } from './failure.js';
import type { CatalogHttpReply } from './http.js';

/** The four envelopes of spec 002, as finished HTTP replies. */

const JSON_TYPE = 'application/json; charset=utf-8';

function reply(status: number, body: CatalogJsonValue, extra: Readonly<Record<string, string>> = {}): CatalogHttpReply {
  return { status, body: writeCatalogJson(body), headers: { 'content-type': JSON_TYPE, ...extra } };
}

/** `{success: true, data, message?}` */
export function singleReply(status: number, data: CatalogJsonValue, message?: string): CatalogHttpReply {
  return reply(status, { success: true, data, message });
}

/** `{success: true, data: [...], pagination: {page, limit, total, pages}}` */
export function listReply(rows: readonly CatalogJsonValue[], pagination: Pagination): CatalogHttpReply {
  const { page, limit, total, pages } = pagination;
  return reply(200, { success: true, data: rows, pagination: { page, limit, total, pages } });
}

/** `{success: true, message}` */
export function messageReply(message: string): CatalogHttpReply {
  return reply(200, { success: true, message });
}

/** `{success: false, error: {code, message, field?}}` */
export function failureReply(failure: CatalogFailure, headers: Readonly<Record<string, string>> = {}): CatalogHttpReply {
  const { status, code, message, field } = failure;
  return reply(status, { success: false, error: { code, message, field } }, headers);
}
