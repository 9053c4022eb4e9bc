import { createHmac, createSecretKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** HMAC-SHA256 of exactly the text sent, as lowercase hex (API-NOTES §1.1). */
export function signText(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** `signText` for one secret, its key prepared once (no re-encoding of the secret per request). */
export function textSigner(secret: string): (text: string) => string {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  return (text) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
}
