import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { Notifier } from '../../../src/app/notify/index.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { NotifySettings, NotifySinkSettings } from '../../../src/settings/daemon-config/notify.js';
import { createGotHttp } from '../../../src/venue/got-http.js';
import type { HttpPort } from '../../../src/venue/http-port.js';
import { parseMetrics, sample } from '../daemon/metrics-scrape.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { Receiver } from './receiver.js';

/**
 * The notifier's delivery against real receivers on loopback, retries in virtual time: the kinds'
 * bodies, a 500 then 200, Telegram's retry_after, a 4xx given up, a full queue while a receiver hangs.
 */
const T0 = 1_767_225_600_000;
let clock: VirtualClock;
let registry: Registry;
let receivers: Receiver[];
let sends: number;
let events: Subject<BusEvent>;

beforeEach(() => {
  clock = new VirtualClock(T0);
  registry = new Registry();
  receivers = [];
  sends = 0;
  events = new Subject();
});
afterEach(async () => {
  events.complete();
  await Promise.all(receivers.map((r) => r.stop()));
});

async function receiver(answer?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await Receiver.start(answer);
  receivers.push(r);
  return r;
}

function sink(name: string, kind: NotifySinkSettings['kind'], url: string, extra: Partial<NotifySinkSettings> = {}): NotifySinkSettings {
  return { name, kind, url, secret: url, events: ['killSwitch', 'strategyFailed', 'fill'], queue: 10, timeoutMs: 5000, retry: { attempts: 4, initialMs: 1000, maxMs: 8000 }, ...extra };
}

/** The real HTTP client, counting the requests it is handed (synchronously, as the queue hands them). */
function countingHttp(): HttpPort {
  const http = createGotHttp();
  return {
    send: (request) => {
      sends++;
      return http.send(request);
    },
  };
}

function notifier(sinks: readonly NotifySinkSettings[]): Notifier {
  const settings: NotifySettings = { reconnectStorm: { count: 3, withinMs: 60_000 }, sinks };
  const n = new Notifier({ settings, http: countingHttp(), time: clock, logger: silentLogger, registry, killSwitchEngaged: false });
  n.watch(events);
  return n;
}

const halt = (reason: string): BusEvent => ({ type: 'risk.killSwitch', time: clock.now(), engaged: true, reason, dayPnl: dec('-12.5') });
const release = (): BusEvent => ({ type: 'risk.killSwitch', time: clock.now(), engaged: false, reason: 'reset by hand', dayPnl: dec('-12.5') });

/** Waits (real time, with a deadline) for an asynchronous condition, such as a counter read from the registry. */
async function until(done: () => Promise<boolean>, what: string, limitMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function counter(name: string, sinkName: string): Promise<number | undefined> {
  return sample(parseMetrics(await registry.metrics()), name, { sink: sinkName });
}

describe('notification delivery', () => {
  it('each kind gets its own body: webhook JSON, Slack text, Discord content, Telegram chat_id and text', async () => {
    const r = await receiver();
    notifier([sink('hook', 'webhook', `${r.url}/hook`), sink('slack', 'slack', `${r.url}/slack`), sink('discord', 'discord', `${r.url}/discord`), { ...sink('tg', 'telegram', `${r.url}/botT0K/sendMessage`), chatId: '-100123' }]);
    events.next(halt('daily loss limit'));
    await waitFor(() => r.received.length === 4, 'four deliveries');
    const byPath = Object.fromEntries(r.received.map((q) => [q.path, q]));
    const text = 'Kill switch ENGAGED: daily loss limit\nopen orders are being cancelled; opening intents are denied until resume or the daily reset\nPnL today: -12.5';
    expect(byPath['/hook']).toEqual({
      method: 'POST',
      path: '/hook',
      contentType: 'application/json',
      body: { source: 'stratd', sink: 'hook', event: 'killSwitch', time: new Date(T0).toISOString(), title: 'Kill switch ENGAGED: daily loss limit', text, data: { engaged: true, reason: 'daily loss limit', dayPnl: '-12.5' } },
    });
    expect(byPath['/slack']?.body).toEqual({ text });
    expect(byPath['/discord']?.body).toEqual({ content: text });
    expect(byPath['/botT0K/sendMessage']?.body).toEqual({ chat_id: '-100123', text, disable_web_page_preview: true });
    for (const name of ['hook', 'slack', 'discord', 'tg']) await until(async () => (await counter('stratd_notify_sent_total', name)) === 1, `${name} counted as sent`);
    expect(sends).toBe(4);
  });

  it('a receiver answering 500 then 200 gets the message after a backoff on the daemon\'s clock', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
    notifier([sink('hook', 'webhook', r.url)]);
    events.next(halt('maintenance'));
    await until(async () => (await counter('stratd_notify_failures_total', 'hook')) === 1, 'the failed attempt');
    expect(sends).toBe(1);
    clock.advanceBy(999);
    expect(sends).toBe(1);
    clock.advanceBy(1);
    expect(sends).toBe(2);
    await until(async () => (await counter('stratd_notify_sent_total', 'hook')) === 1, 'the delivery after the retry');
    expect(r.received.map((q) => (q.body as { event: string }).event)).toEqual(['killSwitch', 'killSwitch']);
    expect(await counter('stratd_notify_dropped_total', 'hook')).toBe(0);
  });

  it('Telegram\'s 429 retry_after is honoured: no new attempt before it has passed', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 30', parameters: { retry_after: 30 } } } : { status: 200, body: { ok: true } }));
    notifier([{ ...sink('tg', 'telegram', `${r.url}/botT0K/sendMessage`), chatId: '42' }]);
    events.next(halt('manual'));
    await until(async () => (await counter('stratd_notify_failures_total', 'tg')) === 1, 'the 429');
    clock.advanceBy(29_999);
    expect(sends).toBe(1);
    clock.advanceBy(1);
    expect(sends).toBe(2);
    await until(async () => (await counter('stratd_notify_sent_total', 'tg')) === 1, 'the delivery after retry_after');
    expect(r.received.map((q) => q.path)).toEqual(['/botT0K/sendMessage', '/botT0K/sendMessage']);
  });

  it('a 4xx other than 408/429 is not tried again: the message is dropped and the next one goes out', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 404, body: { ok: false, description: 'Not Found' } } : { status: 200 }));
    notifier([sink('hook', 'webhook', r.url)]);
    events.next(halt('first'));
    events.next(release());
    await until(async () => (await counter('stratd_notify_sent_total', 'hook')) === 1, 'the second message');
    expect(r.received.map((q) => (q.body as { data: { engaged: boolean } }).data.engaged)).toEqual([true, false]);
    expect(await counter('stratd_notify_failures_total', 'hook')).toBe(1);
    expect(await counter('stratd_notify_dropped_total', 'hook')).toBe(1);
  });

  it('retries stop after the last attempt, with the backoff doubling up to its maximum', async () => {
    const r = await receiver(() => ({ status: 503 }));
    notifier([sink('hook', 'webhook', r.url)]);
    events.next(halt('x'));
    for (const [attempt, backoff] of [[1, 1000], [2, 2000], [3, 4000]] as const) {
      await until(async () => (await counter('stratd_notify_failures_total', 'hook')) === attempt, `attempt ${attempt}`);
      clock.advanceBy(backoff - 1);
      expect(sends).toBe(attempt);
      clock.advanceBy(1);
      expect(sends).toBe(attempt + 1);
    }
    await until(async () => (await counter('stratd_notify_dropped_total', 'hook')) === 1, 'the message given up after 4 attempts');
    clock.advanceBy(60_000);
    expect(sends).toBe(4);
  });

  it('a receiver that never answers holds nothing up: push returns at once and a full queue drops the oldest, counted', async () => {
    const r = await receiver(() => 'hang');
    const n = notifier([sink('stuck', 'webhook', r.url, { queue: 2, timeoutMs: 60_000 })]);
    for (const reason of ['a', 'b', 'c', 'd', 'e']) {
      events.next(halt(reason));
      events.next(release());
    }
    // Ten messages: one in flight, two waiting, seven pushed out.
    expect(n.backlog()).toEqual({ stuck: 3 });
    expect(await counter('stratd_notify_queued', 'stuck')).toBe(3);
    expect(await counter('stratd_notify_dropped_total', 'stuck')).toBe(7);
    await waitFor(() => r.received.length === 1, 'the first request at the receiver');
    expect((r.received[0]?.body as { data: { reason: string } }).data.reason).toBe('a');
    expect(await counter('stratd_notify_sent_total', 'stuck')).toBe(0);
  });

  it('drain (shutdown) gives what waits one attempt; a dead receiver drops the rest without waiting for retries', async () => {
    const r = await receiver(() => ({ status: 502 }));
    const n = notifier([sink('down', 'webhook', r.url)]);
    events.next(halt('a'));
    events.next(release());
    events.next(halt('b'));
    await until(async () => (await counter('stratd_notify_failures_total', 'down')) === 1, 'the first failure');
    await n.drain();
    expect(n.backlog()).toEqual({ down: 0 });
    expect(r.received).toHaveLength(2);
    expect(await counter('stratd_notify_dropped_total', 'down')).toBe(3);
  });
});
