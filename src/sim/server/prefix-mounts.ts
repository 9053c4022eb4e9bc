import type { RawRequest } from './raw-request.js';
import type { PrefixHandleFn, PrefixHandler } from './routing/types.js';
import type { ServerReply } from './server-reply.js';

export interface PrefixMount {
  readonly prefix: string;
  readonly handle: PrefixHandleFn;
}

/** Raw sub-applications under path prefixes; the longest matching prefix wins. */
export class PrefixMounts {
  private readonly mounts: PrefixMount[] = [];

  add(prefix: string, handler: PrefixHandler): void {
    if (!/^\/[^?#]*[^/?#]$/.test(prefix)) throw new RangeError(`a mount prefix starts with / and does not end with one, got ${prefix}`);
    if (this.mounts.some((m) => m.prefix === prefix)) throw new RangeError(`prefix ${prefix} is mounted twice`);
    const handle: PrefixHandleFn = typeof handler === 'function' ? handler : (request) => handler.handle(request);
    this.mounts.push({ prefix, handle });
    this.mounts.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  find(path: string): PrefixMount | undefined {
    return this.mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
  }

  /** The sub-application's answer, or undefined when it knows no such path. */
  async serve(mount: PrefixMount, raw: RawRequest, now: number): Promise<ServerReply | undefined> {
    const reply = await mount.handle({
      method: raw.method,
      path: raw.path.slice(mount.prefix.length) || '/',
      query: new URLSearchParams(raw.rawQuery),
      headers: raw.headers,
      body: raw.rawBody,
      now,
    });
    if (reply === undefined) return undefined;
    const headers = reply.headers ?? {};
    const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    return { status: reply.status, headers: typed ? headers : { ...headers, 'Content-Type': 'application/json' }, body: reply.body };
  }
}
