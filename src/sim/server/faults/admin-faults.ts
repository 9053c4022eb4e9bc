import { bearerMatches } from '../../../core/secret-compare.js';
import type { FaultState } from './state.js';
import type { RawRequest } from '../raw-request.js';
import type { ServerReply } from '../server-reply.js';
import { jsonReply } from '../server-reply.js';

export const ADMIN_FAULTS_PATH = '/admin/faults';

/**
 * `GET /admin/faults` answers the settings in force; `PUT /admin/faults` applies a partial JSON update
 * (400 with zod's message when invalid). Both need `Authorization: Bearer <admin token>` (else 401),
 * compared in constant time.
 */
export function handleAdminFaults(raw: RawRequest, faults: FaultState, adminToken: string): ServerReply {
  if (!bearerMatches(raw.headers['authorization'], adminToken)) {
    return jsonReply(401, { error: 'unauthorized: send Authorization: Bearer <admin token>' }, { 'WWW-Authenticate': 'Bearer' });
  }
  if (raw.method === 'GET') return jsonReply(200, faults.current);
  if (raw.method !== 'PUT') return jsonReply(405, { error: `method ${raw.method} not allowed` }, { Allow: 'GET, PUT' });
  let input: unknown;
  try {
    input = JSON.parse(raw.rawBody) as unknown;
  } catch {
    return jsonReply(400, { error: 'the body must be a JSON object of fault settings' });
  }
  const updated = faults.update(input);
  return updated.ok ? jsonReply(200, updated.value) : jsonReply(400, { error: updated.error });
}
