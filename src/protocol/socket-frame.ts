import type { RawData } from 'ws';

/** The text of a received WebSocket frame, whichever buffer shape ws handed it in. */
export function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
