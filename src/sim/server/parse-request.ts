import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { serverErrors } from './exchange-errors.js';
import type { RawRequest } from './raw-request.js';
import { classifyBody, NO_BODY } from './request-body.js';
import { DecodedParams } from './request-params.js';
import type { RequestParams, RouteError, SimRoute } from './routing/types.js';
import type { SignatureParts } from './signature-parts.js';
import { cutSignature } from './signature-parts.js';

export interface ParsedRequest {
  readonly parts: SignatureParts;
  /** Decoded after the signature was cut (decoding never touches the text that is hashed). */
  readonly params: RequestParams;
  readonly json: unknown;
  /** A body the route cannot take (-1130); the query is still parsed so the request can be weighed. */
  readonly bodyError: RouteError | undefined;
}

export function parseRequest(raw: RawRequest, endpoint: EndpointDef): ParsedRequest {
  const classified = classifyBody(raw.method, raw.rawBody, raw.headers['content-type'], endpoint.wire);
  const body = classified.ok ? classified.value : NO_BODY;
  const parts = cutSignature(raw.rawQuery, body);
  return {
    parts,
    params: new DecodedParams(parts.query, body.kind === 'form' ? parts.body : ''),
    json: body.kind === 'json' ? body.value : undefined,
    bodyError: classified.ok ? undefined : classified.error,
  };
}

/** `category`: USDT unless USDC is sent; anything else is -1130. */
export function resolveCategory(params: RequestParams): Result<'USDT' | 'USDC', RouteError> {
  const category = params.get('category');
  if (category === undefined || category === '' || category === 'USDT') return ok('USDT');
  if (category === 'USDC') return ok('USDC');
  return err(serverErrors.invalidParam('category'));
}

const BATCH_PATHS: ReadonlySet<string> = new Set([ENDPOINTS.batchOrdersV1.path, ENDPOINTS.batchOrdersV2.path]);

/** Whether a route accepts the batch signing variants (API-NOTES §1.2). */
export function acceptsBatchSigning(route: SimRoute): boolean {
  if (route.batchSigning !== undefined) return route.batchSigning;
  const e = route.endpoint;
  return e.method === 'POST' && (e.signsQueryOnly === true || BATCH_PATHS.has(e.path));
}
