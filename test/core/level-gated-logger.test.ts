import { Writable } from 'node:stream';
import pino from 'pino';
import { levelGated } from '../../src/core/level-gated-logger.js';
import type { Logger } from '../../src/core/logger.js';

/** A pino logger writing into `lines`, and a count of the child loggers made from it. */
function recorded(level: string): { readonly logger: Logger; readonly lines: Array<Record<string, unknown>>; children: () => number } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  let made = 0;
  const count = (inner: Logger): Logger => ({
    isLevelEnabled: (at) => inner.isLevelEnabled(at),
    debug: (obj, msg) => inner.debug(obj, msg),
    info: (obj, msg) => inner.info(obj, msg),
    warn: (obj, msg) => inner.warn(obj, msg),
    error: (obj, msg) => inner.error(obj, msg),
    child: (bindings) => {
      made++;
      return count(inner.child(bindings));
    },
  });
  return { logger: count(pino({ level, base: null, timestamp: false }, destination)), lines, children: () => made };
}

describe('a logger gated at a fixed level', () => {
  test('lines below the level make no child logger; those at or above it are written as the logger writes them', async () => {
    const { logger, lines, children } = recorded('warn');
    const gated = levelGated(logger, 'warn');
    const child = gated.child({ strategy: 'quoter', clientOrderId: 'q-1' });
    child.debug({ command: 'place-order' }, 'accepted by the exchange');
    child.info({ failure: 'x' }, 'command refused');
    expect(children()).toBe(0);
    child.warn({ failure: 'timeout' }, 'outcome unknown');
    child.error({ n: 1 });
    gated.child({ a: 1 }).child({ b: 2 }).error({ c: 3 }, 'nested');
    gated.info({}, 'dropped');
    await new Promise((resolve) => setImmediate(resolve));
    expect(children()).toBe(3);
    expect(lines).toEqual([
      { level: 40, strategy: 'quoter', clientOrderId: 'q-1', failure: 'timeout', msg: 'outcome unknown' },
      { level: 50, strategy: 'quoter', clientOrderId: 'q-1', n: 1 },
      { level: 50, a: 1, b: 2, c: 3, msg: 'nested' },
    ]);
  });

  test('a level is enabled when both the gate and the logger pass it; asking makes no child logger below the gate', () => {
    const { logger, children } = recorded('info');
    const atWarn = levelGated(logger, 'warn').child({ strategy: 'quoter' });
    expect([atWarn.isLevelEnabled('debug'), atWarn.isLevelEnabled('info'), children()]).toEqual([false, false, 0]);
    expect(atWarn.isLevelEnabled('warn')).toBe(true);
    const atDebug = levelGated(logger, 'debug');
    expect([atDebug.isLevelEnabled('debug'), atDebug.isLevelEnabled('info')]).toEqual([false, true]);
  });

  test('debug passes everything at or above debug; an unknown level leaves the choice to the logger', async () => {
    const debug = recorded('debug');
    levelGated(debug.logger, 'debug').child({ k: 1 }).debug({ v: 2 }, 'seen');
    const unknown = recorded('info');
    const gated = levelGated(unknown.logger, 'verbose');
    gated.debug({ v: 1 }, 'below the logger');
    gated.info({ v: 2 }, 'kept');
    await new Promise((resolve) => setImmediate(resolve));
    expect(debug.lines).toEqual([{ level: 20, k: 1, v: 2, msg: 'seen' }]);
    expect(unknown.lines).toEqual([{ level: 30, v: 2, msg: 'kept' }]);
  });
});
