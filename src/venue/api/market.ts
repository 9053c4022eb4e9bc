import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS } from '../endpoints.js';
import type { RestTransport } from '../rest-transport.js';
import type { VenueError } from '../venue-error.js';
import { epochMs } from '../wire/schema.js';

const serverTimeSchema = z.object({ serverTime: epochMs });

/** Public market data (document 001). */
export class MarketApi {
  constructor(private readonly rest: RestTransport) {}

  /** GET /api/v1/time: the server's clock in epoch ms. */
  async serverTime(): Promise<Result<number, VenueError>> {
    const reply = await callParsed(this.rest, { endpoint: ENDPOINTS.time }, serverTimeSchema);
    return reply.ok ? { ok: true, value: reply.value.serverTime } : reply;
  }
}
