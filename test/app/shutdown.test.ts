import { EventEmitter } from 'node:events';
import { installSignalHandlers } from '../../src/app/daemon/shutdown.js';
import { silentLogger } from '../../src/core/logger.js';

function gate(): { readonly promise: Promise<void>; readonly open: () => void; readonly fail: (e: Error) => void } {
  let open = (): void => undefined;
  let fail = (_e: Error): void => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Signals from an EventEmitter (never the test process's own), exit codes recorded. */
function harness(onStop: () => Promise<void>, timeoutMs = 10_000) {
  const signals = new EventEmitter();
  const exits: number[] = [];
  let exited: () => void = () => undefined;
  const exitSeen = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const dispose = installSignalHandlers({
    onStop,
    timeoutMs,
    logger: silentLogger,
    signals,
    exit: (code) => {
      exits.push(code);
      exited();
    },
  });
  return { signals, exits, exitSeen, dispose };
}

describe('installSignalHandlers', () => {
  it('the first SIGTERM runs onStop and then exits 0', async () => {
    const stop = gate();
    let stops = 0;
    const h = harness(() => {
      stops += 1;
      return stop.promise;
    });
    h.signals.emit('SIGTERM', 'SIGTERM');
    expect(stops).toBe(1);
    expect(h.exits).toEqual([]);
    stop.open();
    await h.exitSeen;
    expect(h.exits).toEqual([0]);
    h.dispose();
  });

  it('exits 1 when onStop fails (rejects or throws)', async () => {
    const rejecting = harness(() => Promise.reject(new Error('journal flush failed')));
    rejecting.signals.emit('SIGINT', 'SIGINT');
    await rejecting.exitSeen;
    expect(rejecting.exits).toEqual([1]);
    rejecting.dispose();
    const throwing = harness(() => {
      throw new Error('sync failure');
    });
    throwing.signals.emit('SIGTERM', 'SIGTERM');
    await throwing.exitSeen;
    expect(throwing.exits).toEqual([1]);
    throwing.dispose();
  });

  it('exits 1 when onStop outlasts the timeout', async () => {
    const never = gate();
    const h = harness(() => never.promise, 20);
    h.signals.emit('SIGTERM', 'SIGTERM');
    await h.exitSeen;
    expect(h.exits).toEqual([1]);
    never.open();
    await Promise.resolve();
    expect(h.exits).toEqual([1]);
    h.dispose();
  });

  it('a second signal exits at once with 130 (SIGINT) or 143 (SIGTERM), and nothing exits after', async () => {
    const stop = gate();
    const h = harness(() => stop.promise);
    h.signals.emit('SIGTERM', 'SIGTERM');
    h.signals.emit('SIGINT', 'SIGINT');
    expect(h.exits).toEqual([130]);
    stop.open();
    await stop.promise;
    await Promise.resolve();
    h.signals.emit('SIGTERM', 'SIGTERM');
    expect(h.exits).toEqual([130]);
    h.dispose();

    const again = gate();
    const t = harness(() => again.promise);
    t.signals.emit('SIGINT', 'SIGINT');
    t.signals.emit('SIGTERM', 'SIGTERM');
    expect(t.exits).toEqual([143]);
    again.open();
    t.dispose();
  });

  it('the disposer removes the handlers', () => {
    const h = harness(() => Promise.resolve());
    expect(h.signals.listenerCount('SIGINT')).toBe(1);
    expect(h.signals.listenerCount('SIGTERM')).toBe(1);
    h.dispose();
    expect(h.signals.listenerCount('SIGINT')).toBe(0);
    expect(h.signals.listenerCount('SIGTERM')).toBe(0);
    h.signals.emit('SIGTERM', 'SIGTERM');
    expect(h.exits).toEqual([]);
  });
});
