import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether two secrets are equal, in time that depends on neither (both are hashed to one length first). */
export function constantTimeEquals(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether an `Authorization` header is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && constantTimeEquals(match[1] ?? '', token);
}
