import type { HttpPort, HttpReply, HttpRequest } from '../../../src/venue/http-port.js';

/**
 * Wraps a real HttpPort (the got adapter, over loopback) and records the traffic: requests per path
 * and the most requests of one path that were ever on the wire at once.
 */
export class RecordingHttp implements HttpPort {
  private readonly open = new Map<string, number>();
  readonly sent = new Map<string, number>();
  readonly maxConcurrent = new Map<string, number>();

  constructor(private readonly inner: HttpPort) {}

  async send(request: HttpRequest): Promise<HttpReply> {
    const path = new URL(request.url).pathname;
    const now = (this.open.get(path) ?? 0) + 1;
    this.open.set(path, now);
    this.sent.set(path, (this.sent.get(path) ?? 0) + 1);
    this.maxConcurrent.set(path, Math.max(this.maxConcurrent.get(path) ?? 0, now));
    try {
      return await this.inner.send(request);
    } finally {
      this.open.set(path, (this.open.get(path) ?? 1) - 1);
    }
  }
}
