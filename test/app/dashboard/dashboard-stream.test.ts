import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { DashboardAssets, DashboardStream } from '../../../src/app/control/dashboard/index.js';
import { HealthServer } from '../../../src/app/control/server.js';
import { silentLogger } from '../../../src/core/logger.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { waitFor } from '../../venue/stream/session-harness.js';

/**
 * GET /ui/events on a real HealthServer over loopback: the token rules of /status, and throttling on
 * the injected (virtual) scheduler, read as SSE frames on the wire.
 */
const TOKEN = 'a-test-token-of-32-characters-xx';
const THROTTLE_MS = 500;

let clock: VirtualClock;
let changes: Subject<number>;
let stream: DashboardStream;
let server: HealthServer;
let url: string;
let views: number;

beforeEach(async () => {
  clock = new VirtualClock(1_767_225_600_000);
  changes = new Subject<number>();
  views = 0;
  stream = new DashboardStream({
    changes$: changes,
    view: (kind) => {
      views += 1;
      return { kind, n: views, at: clock.now() };
    },
    scheduler: clock,
    throttleMs: THROTTLE_MS,
    maxClients: 2,
  });
  const assets = new DashboardAssets();
  server = new HealthServer({
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    logger: silentLogger,
    token: TOKEN,
    clock,
    dashboard: { asset: (path) => assets.get(path), stream: (res) => stream.open(res) },
  });
  const started = await server.start();
  if (!started.ok) throw started.error;
  url = started.value.url;
});
afterEach(async () => {
  stream.close();
  await server.stop();
});

/** An SSE client: the frames it has read so far, parsed. */
interface Reader {
  readonly frames: Array<{ kind: string; n: number; at: number }>;
  readonly status: number;
  close(): void;
}

async function subscribe(token: string | undefined): Promise<Reader> {
  const abort = new AbortController();
  const reply = await fetch(`${url}/ui/events`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: abort.signal });
  const frames: Reader['frames'] = [];
  if (reply.ok && reply.body !== null) {
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for await (const chunk of reply.body as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data !== undefined) frames.push(JSON.parse(data.slice(6)) as Reader['frames'][number]);
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  } else {
    await reply.body?.cancel();
  }
  return { frames, status: reply.status, close: () => abort.abort() };
}

describe('the dashboard event stream', () => {
  it('is refused without the token or with a wrong one (401), while the page itself loads without it', async () => {
    for (const token of [undefined, 'wrong-token-wrong-token-wrong-tok']) {
      const refused = await subscribe(token);
      expect(refused.status).toBe(401);
    }
    expect(stream.size).toBe(0);
    expect(changes.observed).toBe(false);

    const page = await fetch(`${url}/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('/ui/vendor/lightweight-charts.js');
    expect(html).not.toContain(TOKEN);
    const library = await fetch(`${url}/ui/vendor/lightweight-charts.js`);
    expect(library.status).toBe(200);
    expect(await library.text()).toContain('LightweightCharts');
    expect((await fetch(`${url}/ui/nothing-here.js`)).status).toBe(404);
  });

  it('sends a full view on connect, then at most one update per throttle interval of the injected scheduler', async () => {
    const client = await subscribe(TOKEN);
    expect(client.status).toBe(200);
    await waitFor(() => client.frames.length === 1, 'the first view');
    expect(client.frames[0]?.kind).toBe('full');

    // A burst at one instant: the first change goes out at once, the rest wait for the interval's end.
    for (let i = 0; i < 50; i += 1) changes.next(i);
    await waitFor(() => client.frames.length === 2, 'the leading update');
    expect(stream.pushes).toBe(1);
    clock.advanceBy(THROTTLE_MS);
    await waitFor(() => client.frames.length === 3, 'the trailing update');
    expect(stream.pushes).toBe(2);

    // A change every 50 ms for 3 s: at most one push per 500 ms.
    const before = stream.pushes;
    for (let t = 0; t < 3000; t += 50) {
      changes.next(t);
      clock.advanceBy(50);
    }
    clock.advanceBy(THROTTLE_MS);
    const pushed = stream.pushes - before;
    expect(pushed).toBeGreaterThanOrEqual(3000 / THROTTLE_MS);
    expect(pushed).toBeLessThanOrEqual(3000 / THROTTLE_MS + 2);
    await waitFor(() => client.frames.length === 3 + pushed, 'every update on the wire');
    expect(client.frames.slice(1).every((f) => f.kind === 'update')).toBe(true);
    const times = client.frames.slice(3).map((f) => f.at);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(THROTTLE_MS);
    client.close();
  });

  it('holds at most maxClients streams (503 beyond), and lets a closed one go: the bus is unwatched once nobody listens', async () => {
    const first = await subscribe(TOKEN);
    const second = await subscribe(TOKEN);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(changes.observed).toBe(true);
    const third = await subscribe(TOKEN);
    expect(third.status).toBe(503);

    first.close();
    await waitFor(() => stream.size === 1, 'the closed stream to leave');
    const again = await subscribe(TOKEN);
    expect(again.status).toBe(200);
    second.close();
    again.close();
    await waitFor(() => stream.size === 0, 'every stream to leave');
    expect(changes.observed).toBe(false);
  });
});

test('the compiled daemon (dist, what `npm start` and the Docker image run) finds the page and the chart library', async () => {
  // `npm test` builds dist before the tests run.
  const compiled = join(process.cwd(), 'dist', 'src', 'app', 'dashboard', 'index.js');
  expect(existsSync(compiled)).toBe(true);
  const { DashboardAssets: Compiled } = (await import(pathToFileURL(compiled).href)) as { DashboardAssets: typeof DashboardAssets };
  const assets = new Compiled();
  for (const path of ['/ui', '/ui/dashboard.js', '/ui/dashboard.css', '/ui/vendor/lightweight-charts.js']) expect([path, (assets.get(path)?.body.length ?? 0) > 0]).toEqual([path, true]);
  expect(assets.get('/ui/vendor/lightweight-charts.js')?.body.toString('utf8')).toContain('LightweightCharts');
});
