import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { controlCall } from '../../../src/app/control/client.js';
import { watchStatus } from '../../../src/app/commands/status-watch.js';
import { ok } from '../../../src/core/result.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { BTC, T0 } from '../../sim/e2e/sim-harness.js';
import { stratd } from './control-cli.js';
import { paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runFor, runUntil } from './virtual-steps.js';

/**
 * `stratd status --watch` against a running paper daemon: without a terminal, one snapshot per
 * interval after a blank line; on a terminal, each frame clears the screen and fits its height, and
 * Ctrl-C ends the watch cleanly.
 */
let dir: string;
let clock: VirtualClock;
let daemon: Daemon;
let probe: Probe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-status-watch-'));
  clock = new VirtualClock(T0);
  probe = new Probe('probe', [BTC]);
  daemon = await startDaemon(writeConfig(dir, 'paper.yml', paperYaml(join(dir, 'state'))), clock, [probe.instance()]);
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
  probe.emit({ type: 'place', key: 'w-market', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) });
  await runUntil(clock, () => probe.filled(probe.clientOrderId('w-market')) === '1', 'the fill');
});
afterEach(async () => {
  await daemon.stop();
  rmSync(dir, { recursive: true, force: true });
});

function token(): string {
  return readFileSync(join(dir, 'state', 'control.token'), 'utf8').trim();
}

const CLEAR = '\u001b[H\u001b[2J';

describe('stratd status --watch', () => {
  it('without a terminal: one snapshot per interval, separated by a blank line, then exit 0 after --count', async () => {
    const ran = await stratd(['status', '--watch', '--interval', '200ms', '--count', '2', '--url', daemon.health.url], { STRATD_HEALTH_TOKEN: token() });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toContain('\u001b[');
    const snapshots = ran.stdout.split('\n\n');
    expect(snapshots).toHaveLength(2);
    for (const snapshot of snapshots) {
      expect(snapshot).toMatch(/^stratd status · every 200ms · \d\d:\d\d:\d\d UTC\nstratd paper · running · /);
      expect(snapshot).toMatch(/\n {2}probe {2}running {2}BTC-SWAP-USDT {2}fills today [1-9]\d* · realized pnl today -?\d/);
      expect(snapshot).toContain('\naccount (');
      expect(snapshot).toContain('\npositions (1):\n  BTC-SWAP-USDT LONG 1');
      expect(snapshot).toContain('user streams: USDT open');
    }
  });

  it('flag mistakes are usage errors naming the flag (exit 2)', async () => {
    const env = { STRATD_HEALTH_TOKEN: token() };
    const url = ['--url', daemon.health.url];
    expect(await stratd(['status', '--watch', '--interval', 'soon', ...url], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--interval soon: not a duration') as unknown });
    expect(await stratd(['status', '--watch', '--interval', '10ms', ...url], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--interval 10ms: from 200ms to 1h') as unknown });
    expect(await stratd(['status', '--watch', '--count', '0', ...url], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--count 0') as unknown });
    expect(await stratd(['status', '--watch', '--json', ...url], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--watch draws the status for a person') as unknown });
    expect(await stratd(['status', '--interval', '2s', ...url], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--interval goes with --watch') as unknown });
  });

  it('on a terminal: every frame clears the screen and fits its height; Ctrl-C during the wait ends it with exit 0', async () => {
    const frames: string[] = [];
    const interrupt = new AbortController();
    const address = { url: daemon.health.url, token: token() };
    let waits = 0;
    const code = await watchStatus({
      fetch: async () => {
        const reply = await controlCall(address, 'GET', '/status');
        return reply.ok ? ok(reply.value.body) : reply;
      },
      screen: { write: (text) => frames.push(text), isTTY: true, rows: () => 8 },
      intervalMs: 2000,
      // The waits run the daemon's virtual time; the third one is interrupted (Ctrl-C).
      sleep: async (ms, signal) => {
        waits += 1;
        if (waits === 3) {
          interrupt.abort();
          return;
        }
        await runFor(clock, ms);
        expect(signal.aborted).toBe(false);
      },
      signal: interrupt.signal,
      now: () => clock.now(),
    });
    expect(code).toBe(0);
    expect(frames).toHaveLength(3);
    for (const frame of frames) {
      expect(frame.startsWith(CLEAR)).toBe(true);
      const lines = frame.slice(CLEAR.length).replace(/\n$/, '').split('\n');
      expect(lines.length).toBeLessThanOrEqual(7);
      expect(lines[0]).toMatch(/^stratd status · every 2s · \d\d:\d\d:\d\d UTC · Ctrl-C quits$/);
      expect(lines.at(-1)).toMatch(/^… \d+ more lines \(a taller terminal shows them\)$/);
    }
  });

  it('a daemon that stops answering is shown as such and watched on; the exit code says the last frame failed', async () => {
    const frames: string[] = [];
    const address = { url: daemon.health.url, token: token() };
    let waits = 0;
    const code = await watchStatus({
      fetch: async () => {
        const reply = await controlCall(address, 'GET', '/status');
        return reply.ok ? ok(reply.value.body) : reply;
      },
      screen: { write: (text) => frames.push(text), isTTY: false },
      intervalMs: 1000,
      sleep: async () => {
        waits += 1;
        if (waits === 1) await daemon.stop();
      },
      signal: new AbortController().signal,
      count: 2,
      now: () => clock.now(),
    });
    expect(code).toBe(1);
    expect(frames).toHaveLength(2);
    expect(frames[0]).toContain('stratd paper · running');
    expect(frames[1]).toMatch(/^\nstratd status · every 1s · .*\ncannot read the status: cannot reach the daemon at http:\/\/127\.0\.0\.1:\d+/);
  });
});
