import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { BTC, T0 } from '../../sim/e2e/sim-harness.js';
import { Receiver } from '../notify/receiver.js';
import type { Received } from '../notify/receiver.js';
import { paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * A paper daemon with a notify section: a fill and the kill switch reach a webhook and a fake Telegram
 * Bot API on loopback; a webhook that never answers does not hold up trading, and its drops are counted.
 */
let dir: string;
let clock: VirtualClock;
let daemon: Daemon | undefined;
let receivers: Receiver[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-notify-'));
  clock = new VirtualClock(T0);
  receivers = [];
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await Promise.all(receivers.map((r) => r.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function receiver(answer?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await Receiver.start(answer);
  receivers.push(r);
  return r;
}

async function start(notify: string, env: Record<string, string>, probe: Probe): Promise<Daemon> {
  daemon = await startDaemon(writeConfig(dir, 'paper.yml', `${paperYaml(join(dir, 'state'))}${notify}`), clock, [probe.instance()], env);
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
  return d;
}

const eventOf = (r: Received): unknown => (r.body as { event?: unknown }).event;
const textOf = (r: Received): string => String((r.body as { text?: unknown }).text);

describe('notifications from a running paper daemon', () => {
  it('a fill and the kill switch reach a webhook and Telegram (whose first answer is a 500: retried); start and stop too', async () => {
    const hook = await receiver(() => ({ status: 204 }));
    const telegram = await receiver((n) => (n === 0 ? { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } } : { status: 200, body: { ok: true, result: { message_id: n } } }));
    const probe = new Probe('probe', [BTC]);
    const d = await start(
      `notify:
  sinks:
    - name: ops
      kind: webhook
      url: \${TEST_HOOK_URL}
      events: [fill, killSwitch, daemonStart, daemonStop]
    - name: phone
      kind: telegram
      token: \${TEST_BOT_TOKEN}
      chatId: -1001234567890
      apiUrl: \${TEST_TELEGRAM_API}
      events: [fill, killSwitch]
`,
      { TEST_HOOK_URL: `${hook.url}/hooks/ops`, TEST_BOT_TOKEN: '123456:test-token', TEST_TELEGRAM_API: telegram.url },
      probe,
    );
    probe.emit({ type: 'place', key: 'n-mkt', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(2) });
    const id = probe.clientOrderId('n-mkt');
    await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'FILLED' && probe.filled(id) === '2', 'the order filled');
    // Telegram's first request fails: the same message comes again after the backoff (virtual time runs meanwhile).
    await runUntil(clock, () => hook.received.some((r) => eventOf(r) === 'fill') && telegram.received.length > 1, 'the fill at both receivers');
    expect(telegram.received[1]?.body).toEqual(telegram.received[0]?.body);
    const fill = hook.received.find((r) => eventOf(r) === 'fill');
    expect(fill).toMatchObject({ method: 'POST', path: '/hooks/ops', body: { source: 'stratd', sink: 'ops', data: { symbol: BTC, side: 'BUY', clientOrderId: id } } });
    expect(textOf(fill as Received)).toMatch(new RegExp(`^Fill: BUY \\d+ ${BTC} @ \\d`));
    expect(telegram.received[0]).toMatchObject({ method: 'POST', path: '/bot123456:test-token/sendMessage', body: { chat_id: '-1001234567890', text: expect.stringMatching(/^Fill: BUY/) } });

    d.halt('notify test');
    await runUntil(clock, () => hook.received.some((r) => eventOf(r) === 'killSwitch') && telegram.received.some((r) => textOf(r).startsWith('Kill switch')), 'the kill switch at both receivers');
    expect(hook.received.find((r) => eventOf(r) === 'killSwitch')?.body).toMatchObject({ title: 'Kill switch ENGAGED: notify test', data: { engaged: true, reason: 'notify test' } });
    expect(telegram.received.find((r) => textOf(r).startsWith('Kill switch'))?.body).toMatchObject({ chat_id: '-1001234567890', text: expect.stringContaining('Kill switch ENGAGED: notify test') });
    expect(hook.received[0]?.body).toMatchObject({ event: 'daemonStart', data: { mode: 'paper', strategies: 'probe' } });

    // The first fill twice (500, then delivered).
    const fills = telegram.received.filter((r) => textOf(r).startsWith('Fill')).length - 1;
    expect(fills).toBeGreaterThanOrEqual(1);
    // The counter moves once the reply is read: scrape until it has (or give up after 5 s).
    let samples = await scrape(d.health.url);
    for (const giveUpAt = Date.now() + 30_000; sample(samples, 'stratd_notify_sent_total', { sink: 'phone' }) !== fills + 1 && Date.now() < giveUpAt; ) samples = await scrape(d.health.url);
    expect(sample(samples, 'stratd_notify_sent_total', { sink: 'phone' })).toBe(fills + 1);
    expect(sample(samples, 'stratd_notify_failures_total', { sink: 'phone' })).toBe(1);
    expect(sample(samples, 'stratd_notify_dropped_total', { sink: 'phone' })).toBe(0);
    expect(sample(samples, 'stratd_notify_dropped_total', { sink: 'ops' })).toBe(0);

    await d.stop();
    daemon = undefined;
    expect(hook.received.at(-1)?.body).toMatchObject({ event: 'daemonStop', data: { mode: 'paper', cancelOpenOrders: true } });
    // Telegram did not ask for start/stop: the fills and one kill switch only.
    expect(telegram.received.map((r) => textOf(r).split(':')[0])).toEqual([...Array<string>(fills + 1).fill('Fill'), 'Kill switch ENGAGED']);
  });

  it('a webhook that never answers does not hold up trading; its full queue drops the oldest, counted in /metrics', async () => {
    const stuck = await receiver(() => 'hang');
    const probe = new Probe('probe', [BTC]);
    const d = await start(
      `notify:
  sinks:
    - name: stuck
      kind: webhook
      url: \${TEST_HOOK_URL}
      events: [fill, killSwitch]
      queue: 1
      timeout: 2s
`,
      { TEST_HOOK_URL: stuck.url },
      probe,
    );
    d.halt('one');
    d.resume();
    d.halt('two');
    d.resume();
    // Trading goes on while the receiver holds the first request.
    probe.emit({ type: 'place', key: 's-mkt', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) });
    const id = probe.clientOrderId('s-mkt');
    await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'FILLED' && d.kernel.cache.position(BTC, 'LONG')?.qty.eq(1) === true, 'the fill');
    expect(stuck.received.length).toBeGreaterThanOrEqual(1);
    const samples = await scrape(d.health.url);
    // Four kill-switch messages and at least one fill: one in flight, one waiting, the rest dropped.
    expect(sample(samples, 'stratd_notify_dropped_total', { sink: 'stuck' })).toBeGreaterThanOrEqual(3);
    expect(sample(samples, 'stratd_notify_sent_total', { sink: 'stuck' })).toBe(0);
  });
});
