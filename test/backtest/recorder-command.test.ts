import { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerRecordCommand } from '../../src/app/commands/record-command.js';
import { runRecord } from '../../src/app/commands/record.js';
import type { RecordCommandDeps } from '../../src/app/commands/record.js';
import { readAccountStream } from '../../src/recording/recorder/account-reader.js';
import { silentLogger } from '../../src/core/logger.js';
import { ConfigError } from '../../src/settings/config-error.js';
import { NEVER, SIM_YML } from '../app/daemon/daemon-harness.js';
import { waitFor } from '../support/wait-for.js';
import { BTC, ETH, SIM_INSTRUMENTS, T0, VirtualClock, readBack, tempDir } from './recorder-fixtures.js';

/**
 * `stratd record` in-process against the embedded simulator (paper config), in virtual time: the
 * daemon's sources without strategies, recorded until the duration elapses or a signal arrives.
 */
let tmp: ReturnType<typeof tempDir>;
let clock: VirtualClock;
beforeEach(() => {
  tmp = tempDir();
  clock = new VirtualClock(T0);
});
afterEach(() => tmp.remove());

function paperConfig(dir: string): string {
  const file = join(dir, 'record.yml');
  writeFileSync(
    file,
    `mode: paper
stateDir: ${join(dir, 'state')}
sim:
  config: ${SIM_YML}
  key: trader
  port: 0
market:
  - symbol: ${BTC}
    depth: { every: 1s, limit: 5 }
    trades: { every: 1s }
    markPrice: { every: 2s }
    klines: { every: 5s, intervals: [1m] }
  - symbol: ${ETH}
    depth: { every: 1s, limit: 5 }
    trades: { every: 2s }
    markPrice: { every: 2s }
userStream: { pingEvery: 20s, pongTimeout: 2m, backoff: { initial: 500ms, max: 4s } }
jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}" }
orphans: cancel
shutdown: { cancelOpenOrders: true, timeout: 10s }
health: { host: 127.0.0.1, port: 0 }
log: { level: silent }
`,
  );
  return file;
}

interface Captured {
  readonly deps: RecordCommandDeps;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exits: number[];
  readonly signals: EventEmitter;
  exitCode: number | undefined;
}

function capture(): Captured {
  const signals = new EventEmitter();
  const captured: Captured = {
    stdout: [],
    stderr: [],
    exits: [],
    signals,
    exitCode: undefined,
    deps: {
      env: {},
      out: (text) => captured.stdout.push(text),
      err: (text) => captured.stderr.push(text),
      setExitCode: (code) => {
        captured.exitCode = code;
      },
      time: clock,
      logger: silentLogger,
      signals,
      exit: (code) => captured.exits.push(code),
    },
  };
  return captured;
}

/** Steps virtual time, with real pauses for the loopback I/O, until `work` settles. */
async function settle<T>(work: Promise<T>, onStep: () => void = () => undefined, maxMs = 180_000): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  const giveUpAt = clock.now() + maxMs;
  while (!settled) {
    if (clock.now() >= giveUpAt) throw new Error(`not done after ${maxMs} ms of virtual time`);
    clock.advanceBy(250);
    onStep();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return watched;
}

describe('stratd record', () => {
  it('records depth, trades and mark prices of the configured symbols for the duration, and prints where', async () => {
    const out = join(tmp.dir, 'paper.jsonl');
    const c = capture();
    const program = new Command().exitOverride();
    registerRecordCommand(program, c.deps);
    const started = clock.now();
    await settle(program.parseAsync(['record', '--config', paperConfig(tmp.dir), '--out', out, '--duration', '20s'], { from: 'user' }));

    expect(c.exitCode).toBeUndefined();
    expect(c.exits).toEqual([]);
    expect(c.stdout.join('')).toContain(`${out}: `);
    expect(c.stdout.join('')).toContain(join(tmp.dir, 'paper.account.jsonl'));
    const { header, events, warnings } = await readBack(out);
    expect(warnings).toEqual([]);
    expect(header).toMatchObject({ symbols: [BTC, ETH], channels: ['depth', 'trade', 'mark'], source: 'recorder' });
    // The first trades poll also returns trades from before the start (the simulator's warm-up minute).
    expect(header.startTime).toBeLessThanOrEqual(events[0]?.ts ?? -1);
    expect(header.startTime).toBeGreaterThanOrEqual(started - 60_000);
    // The simulator's own instruments, exactly (risk tiers and fees included); start prices are recorded ones.
    expect(header.instruments.map(({ initialPrice: _, ...rest }) => rest)).toEqual(SIM_INSTRUMENTS.map(({ initialPrice: _, ...rest }) => rest));
    for (const symbol of [BTC, ETH]) {
      const kinds = new Set(events.filter((e) => e.symbol === symbol).map((e) => e.type));
      expect([symbol, [...kinds].sort()]).toEqual([symbol, ['depth', 'mark', 'trade']]);
    }
    const depth = events.filter((e) => e.type === 'depth' && e.symbol === BTC);
    expect(depth.length).toBeGreaterThanOrEqual(15);
    expect(events[events.length - 1]?.ts ?? 0).toBeLessThanOrEqual(clock.now());
    // Klines are polled but the stream has no line for them.
    expect(c.stderr.join('')).toMatch(/skipped: \d+ market\.kline/);
    const account = await readAccountStream(join(tmp.dir, 'paper.account.jsonl'));
    expect(account.header).toMatchObject({ market: 'paper.jsonl', symbols: [BTC, ETH] });
  });

  it('stops at SIGINT, writes everything, and exits 0', async () => {
    const out = join(tmp.dir, 'signal.jsonl.gz');
    const c = capture();
    let sent = false;
    const summary = await settle(runRecord({ config: paperConfig(tmp.dir), out }, c.deps), () => {
      if (!sent && c.stderr.some((line) => line.includes('until SIGINT'))) {
        sent = true;
        // Ten virtual seconds from now, on the scheduler the command waits on.
        clock.schedule(() => c.signals.emit('SIGINT', 'SIGINT'), 10_000);
      }
    });
    await waitFor(() => c.exits.length > 0, 'the exit after the recording stopped');
    expect(c.exits).toEqual([0]);
    expect(summary?.parts.map((p) => p.market)).toEqual([out]);
    const { events } = await readBack(out);
    expect(events.length).toBe(summary?.events);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['depth', 'trade', 'mark']));
  });

  it('refuses to overwrite a recording before starting anything', async () => {
    const out = join(tmp.dir, 'exists.jsonl');
    writeFileSync(out, 'precious\n');
    const c = capture();
    await expect(runRecord({ config: paperConfig(tmp.dir), out, duration: '5s' }, c.deps)).rejects.toThrow(ConfigError);
    await expect(runRecord({ config: paperConfig(tmp.dir), out, duration: 'soon' }, c.deps)).rejects.toThrow(/--duration soon/);
    await expect(runRecord({ config: paperConfig(tmp.dir), out: join(tmp.dir, 'x.jsonl'), rotateSize: 'big' }, c.deps)).rejects.toThrow(/--rotate-size big/);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
  });
});
