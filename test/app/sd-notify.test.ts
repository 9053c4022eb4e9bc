import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { SdNotifier } from '../../src/app/systemd/sd-notify.js';
import { systemdNotifyTransport } from '../../src/app/systemd/transport.js';
import type { NotifyTransport } from '../../src/app/systemd/transport.js';
import { startWatchdogPings } from '../../src/app/systemd/watchdog.js';
import type { NotifyListener } from '../deploy/notify-listener.js';
import { startNotifyListener } from '../deploy/notify-listener.js';
import { describeWithTools, itWithTools } from '../support/host-tools.js';

/**
 * sd_notify against a real unix datagram socket (a python3 listener standing in for systemd), sent by
 * the real systemd-notify; the daemon's side is the same code `stratd run` uses under systemd.
 */
let dir: string;
const listeners: NotifyListener[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-sd-notify-'));
});
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function listen(address: string): Promise<NotifyListener> {
  const listener = await startNotifyListener(address);
  listeners.push(listener);
  return listener;
}

let counter = 0;
function socketPath(): string {
  counter += 1;
  return join(dir, `notify-${counter}.sock`);
}

const ENV = { PATH: process.env['PATH'] };

describeWithTools(['systemd-notify', 'python3'], 'SdNotifier over $NOTIFY_SOCKET (systemd-notify, unix datagram socket)', () => {
  it('sends READY=1, WATCHDOG=1, STATUS and STOPPING=1 in call order, STATUS on one line', async () => {
    const listener = await listen(socketPath());
    const notifier = SdNotifier.fromEnv({ ...ENV, NOTIFY_SOCKET: listener.address }, silentLogger);
    expect(notifier.enabled).toBe(true);
    void notifier.ready('reconciled\n2 strategies running');
    void notifier.watchdog();
    void notifier.status('halted by the kill switch');
    await notifier.stopping();
    const datagrams = await listener.waitFor(4);
    expect(datagrams.map((d) => d.text)).toEqual(['READY=1\nSTATUS=reconciled 2 strategies running', 'WATCHDOG=1', 'STATUS=halted by the kill switch', 'STOPPING=1']);
    expect(datagrams[0]?.assignments.get('READY')).toBe('1');
    expect(datagrams[0]?.assignments.has('2 strategies running')).toBe(false);
  });

  it('reaches an abstract socket (@name)', async () => {
    const listener = await listen(`@stratd-test-${process.pid}-${randomBytes(6).toString('hex')}`);
    const notifier = SdNotifier.fromEnv({ ...ENV, NOTIFY_SOCKET: listener.address }, silentLogger);
    await notifier.ready();
    await notifier.stopping('stopping: cancelling open orders');
    expect((await listener.waitFor(2)).map((d) => d.text)).toEqual(['READY=1', 'STOPPING=1\nSTATUS=stopping: cancelling open orders']);
  });

  it('a watchdog ping already waiting is not queued twice', async () => {
    const listener = await listen(socketPath());
    const notifier = SdNotifier.fromEnv({ ...ENV, NOTIFY_SOCKET: listener.address }, silentLogger);
    void notifier.ready();
    void notifier.watchdog();
    void notifier.watchdog();
    await notifier.watchdog();
    await notifier.status('end');
    expect((await listener.waitFor(3)).map((d) => d.text)).toEqual(['READY=1', 'WATCHDOG=1', 'STATUS=end']);
  });

  it('a message nobody receives resolves (the daemon goes on) and later ones are delivered', async () => {
    const path = socketPath();
    const notifier = SdNotifier.fromEnv({ ...ENV, NOTIFY_SOCKET: path }, silentLogger);
    await expect(notifier.ready()).resolves.toBeUndefined();
    const listener = await listen(path);
    await notifier.watchdog();
    expect((await listener.waitFor(1)).map((d) => d.text)).toEqual(['WATCHDOG=1']);
  });

  it('pings WATCHDOG=1 every WATCHDOG_USEC/2 from the scheduler while alive, and stops', async () => {
    const listener = await listen(socketPath());
    const notifier = SdNotifier.fromEnv({ ...ENV, NOTIFY_SOCKET: listener.address, WATCHDOG_USEC: '4000000' }, silentLogger);
    const clock = new VirtualClock();
    let alive = true;
    const pings = startWatchdogPings(notifier, clock, () => alive);
    clock.advanceBy(2000);
    await notifier.watchdog();
    expect((await listener.waitFor(1)).map((d) => d.text)).toEqual(['WATCHDOG=1']);
    alive = false;
    clock.advanceBy(2000);
    alive = true;
    clock.advanceBy(2000);
    pings.stop();
    clock.advanceBy(10_000);
    await notifier.status('end');
    expect((await listener.waitFor(3)).map((d) => d.text)).toEqual(['WATCHDOG=1', 'WATCHDOG=1', 'STATUS=end']);
  });
});

describe('SdNotifier without a service manager', () => {
  it('does nothing when NOTIFY_SOCKET is unset or not a socket address', async () => {
    for (const env of [{}, { NOTIFY_SOCKET: '' }, { NOTIFY_SOCKET: 'relative/notify' }]) {
      const made: string[] = [];
      const notifier = SdNotifier.fromEnv({ ...env, WATCHDOG_USEC: '30000000' }, silentLogger, {
        transport: (socket) => {
          made.push(socket);
          return { send: () => Promise.reject(new Error('must not send')) };
        },
      });
      expect(notifier.enabled).toBe(false);
      expect(notifier.watchdogIntervalMs()).toBeUndefined();
      await notifier.ready('x');
      await notifier.watchdog();
      await notifier.status('x');
      await notifier.stopping();
      expect(made).toEqual([]);
    }
  });
});

describe('SdNotifier.watchdogIntervalMs', () => {
  const recorder = (): { sent: string[][]; transport: () => NotifyTransport } => {
    const sent: string[][] = [];
    return {
      sent,
      transport: () => ({
        send: async (assignments) => {
          sent.push([...assignments]);
          return { ok: true, value: undefined };
        },
      }),
    };
  };
  const interval = (env: Record<string, string>, pid = 4242): number | undefined =>
    SdNotifier.fromEnv({ NOTIFY_SOCKET: '/run/systemd/notify', ...env }, silentLogger, { pid, transport: recorder().transport }).watchdogIntervalMs();

  it('is half of WATCHDOG_USEC, in milliseconds', () => {
    expect(interval({ WATCHDOG_USEC: '30000000' })).toBe(15_000);
    expect(interval({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '4242' })).toBe(15_000);
    expect(interval({ WATCHDOG_USEC: '1500' })).toBe(1);
  });

  it('is undefined without a watchdog, for another process, or for a value that is not a number', () => {
    expect(interval({})).toBeUndefined();
    expect(interval({ WATCHDOG_USEC: '0' })).toBeUndefined();
    expect(interval({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '1' })).toBeUndefined();
    expect(interval({ WATCHDOG_USEC: '30s' })).toBeUndefined();
  });

  it('defaults WATCHDOG_PID to this process', () => {
    const made = recorder();
    const env = { NOTIFY_SOCKET: '@x', WATCHDOG_USEC: '20000000', WATCHDOG_PID: String(process.pid) };
    expect(SdNotifier.fromEnv(env, silentLogger, { transport: made.transport }).watchdogIntervalMs()).toBe(10_000);
  });
});

describe('systemdNotifyTransport', () => {
  it('a missing systemd-notify is an error value, not a throw', async () => {
    const transport = systemdNotifyTransport({ socket: '/run/nothing/notify', command: join(dir, 'no-such-systemd-notify') });
    const sent = await transport.send(['READY=1']);
    expect(sent.ok).toBe(false);
  });

  itWithTools(['systemd-notify'], 'a refused message is an error value naming systemd-notify', async () => {
    const transport = systemdNotifyTransport({ socket: join(dir, 'nobody-listens.sock'), path: process.env['PATH'] ?? '/usr/bin:/bin' });
    const sent = await transport.send(['READY=1']);
    expect(sent.ok ? 'sent' : sent.error.message).toMatch(/^systemd-notify exited with/);
  });
});
