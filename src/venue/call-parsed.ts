import type { z } from 'zod';
import type { Result } from '../core/result.js';
import { ok } from '../core/result.js';
import { endpointLabel } from '../protocol/endpoints.js';
import type { RestCaller, RestRequest } from './rest-transport.js';
import type { VenueError } from './venue-error.js';
import { parseWire } from './wire/schema.js';

/**
 * Sends a request and validates its payload (v1 body or v2 `data`) with `schema`; skipped list rows go to `rest.reportSkipped`.
 * `read`: a plain reader of a payload the schema would take whole (the same value), undefined otherwise: then the schema decides.
 */
export async function callParsed<S extends z.ZodType>(
  rest: RestCaller,
  request: RestRequest,
  schema: S,
  read?: (payload: unknown) => z.output<S> | undefined,
): Promise<Result<z.output<S>, VenueError>> {
  const reply = await rest.call(request);
  if (!reply.ok) return reply;
  const whole = read?.(reply.value);
  if (whole !== undefined) return ok(whole);
  return parseWire(schema, reply.value, endpointLabel(request.endpoint), (skipped) => rest.reportSkipped(skipped));
}
