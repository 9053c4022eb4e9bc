import { createHmac } from 'node:crypto';
import { hmacSha256Hex } from './hmac-sha256.js';

/** HMAC-SHA256 of exactly the text sent, as lowercase hex (API-NOTES §1.1). */
export function signText(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** `signText` for one secret, its key prepared once: what signs every request of a transport (hmac-sha256.ts says why not node:crypto). */
export function textSigner(secret: string): (text: string) => string {
  return hmacSha256Hex(secret);
}
