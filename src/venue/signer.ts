import { createHmac } from 'node:crypto';

/** HMAC-SHA256 of exactly the text sent, as lowercase hex (API-NOTES §1.1). */
export function signText(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}
