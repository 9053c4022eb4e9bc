import type { ServerResponse } from 'node:http';
import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import { interval, throttleTime } from 'rxjs';

export interface DashboardStreamOptions {
  /** Anything that may change what the page shows (the kernel's event bus). */
  readonly changes$: Observable<unknown>;
  /** The JSON a client receives: `full` when it connects (or catches up), `update` after. */
  readonly view: (kind: 'full' | 'update') => unknown;
  /** Throttling and keep-alives run on this (time is a port). */
  readonly scheduler: SchedulerLike;
  /** At most one update per this many ms for every client; default 500 (two a second). */
  readonly throttleMs?: number;
  /** A comment line this often keeps an idle stream under the server's idle timeout; default 4000. */
  readonly keepAliveMs?: number;
  /** Streams held at once; default 8. */
  readonly maxClients?: number;
}

interface Client {
  readonly res: ServerResponse;
  /** The socket's buffer was full: updates are skipped, and the next one after it drains is a full view. */
  blocked: boolean;
}

export const DEFAULT_DASHBOARD_THROTTLE_MS = 500;
export const DEFAULT_DASHBOARD_CLIENTS = 8;

/**
 * The dashboard's Server-Sent Events: one `view` event when a client connects, then at most one per
 * throttle interval while the bus has news (first and last change of each burst), built once and
 * written to every client. A slow client skips updates instead of buffering them. The bus is watched
 * only while somebody listens; a closed connection leaves at once.
 */
export class DashboardStream {
  private readonly clients = new Set<Client>();
  private watching: Subscription[] = [];
  private readonly throttleMs: number;
  private readonly keepAliveMs: number;
  private readonly maxClients: number;
  /** How many views were built for pushes (not counting the one each client gets on connect). */
  pushes = 0;

  constructor(private readonly options: DashboardStreamOptions) {
    this.throttleMs = options.throttleMs ?? DEFAULT_DASHBOARD_THROTTLE_MS;
    this.keepAliveMs = options.keepAliveMs ?? 4000;
    this.maxClients = options.maxClients ?? DEFAULT_DASHBOARD_CLIENTS;
  }

  get size(): number {
    return this.clients.size;
  }

  /** Takes over an authenticated GET: false (nothing written) when `maxClients` streams are open. */
  open(res: ServerResponse): boolean {
    if (this.clients.size >= this.maxClients) return false;
    const client: Client = { res, blocked: false };
    this.clients.add(client);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'keep-alive' });
    res.on('close', () => this.leave(client));
    res.on('drain', () => {
      if (!client.blocked) return;
      client.blocked = false;
      this.write(client, frame(this.options.view('full')));
    });
    if (this.clients.size === 1) this.watch();
    this.write(client, frame(this.options.view('full')));
    return true;
  }

  /** Ends every stream (the daemon stops). */
  close(): void {
    for (const client of [...this.clients]) {
      client.res.end();
      this.leave(client);
    }
  }

  private watch(): void {
    this.watching = [
      this.options.changes$.pipe(throttleTime(this.throttleMs, this.options.scheduler, { leading: true, trailing: true })).subscribe(() => this.push()),
      interval(this.keepAliveMs, this.options.scheduler).subscribe(() => {
        for (const client of this.clients) if (!client.blocked) this.write(client, ': keep-alive\n\n');
      }),
    ];
  }

  private push(): void {
    const ready = [...this.clients].filter((c) => !c.blocked);
    if (ready.length === 0) return;
    this.pushes += 1;
    const text = frame(this.options.view('update'));
    for (const client of ready) this.write(client, text);
  }

  private write(client: Client, text: string): void {
    if (client.res.writableEnded || client.res.destroyed) return;
    if (!client.res.write(text)) client.blocked = true;
  }

  private leave(client: Client): void {
    if (!this.clients.delete(client)) return;
    if (this.clients.size === 0) {
      for (const s of this.watching.splice(0)) s.unsubscribe();
    }
  }
}

/** One SSE event: JSON has no raw newlines, so one `data:` line carries it. */
function frame(view: unknown): string {
  return `event: view\ndata: ${JSON.stringify(view)}\n\n`;
}
