import fc from 'fast-check';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Logger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import type { AccountEvent } from '../../src/model/account-events.js';
import type { UserStreamFrame, UserStreamFrameError } from '../../src/venue/parsers/user-stream-frames.js';
import { parseUserStreamFrame } from '../../src/venue/parsers/user-stream-frames.js';
import { StreamInbox } from '../../src/venue/stream/stream-inbox.js';
import type { UserStreamEvent } from '../../src/venue/stream/user-stream-session.js';
import { UserStreamSession } from '../../src/venue/stream/user-stream-session.js';
import type { SocketListener, WebSocketLike } from '../../src/venue/stream/web-socket.js';
import type { Result } from '../../src/core/result.js';
import { LIVE_EXAMPLES } from '../sim/user-stream/fixtures.js';
import { pathOf, ScriptedHttp, scriptedClient } from './bad-input-http.js';
import { badText, DEEP_FIELD_TEXTS, idsAsNumbers, junkText, MAX_MESSAGE_LENGTH, mutated, nonFinitePath, oversizedIdPath, oversizedText, runs, unsafeIntegerPath } from './bad-input-support.js';

/**
 * Issue 8, bad input on the user data stream: the frame parser (parsers/user-stream-frames.ts,
 * stream/frames/*), the inbox that routes frames (stream/stream-inbox.ts, fill-sides.ts) and the session
 * around a socket (stream/user-stream-session.ts, heartbeat.ts) never throw on any frame; a bad frame is a
 * typed error value, logged and skipped, and the stream stays open. Cases per property: the `numRuns` constants.
 */
const FRAME_MUTATION_RUNS = 10_000;
const FRAME_ANYTHING_RUNS = 10_000;
const FRAME_OVERSIZED_RUNS = 30;
const INBOX_RUNS = 600;
const SESSION_RUNS = 200;

/** The §7 live examples, plus the heartbeat reply and an error frame. */
const FRAMES: Readonly<Record<string, string>> = {
  ...LIVE_EXAMPLES,
  pong: '{"pong":1767536100360}',
  error: '{"code":"-10001","desc":"Invalid JSON!"}',
  fill: `[${JSON.parse(LIVE_EXAMPLES.contractExecutionReport.replace('"l":"0.00000000"', '"l":"0.205"').replace('"z":"0.00000000"', '"z":"0.205"').replace('"X":"NEW"', '"X":"FILLED"').replace('"i":"4293153"', '"i":"1291488620167835136"')).map((o: unknown) => JSON.stringify(o)).join(',')},${LIVE_EXAMPLES.ticketInfo.slice(1)}`,
};
const FRAME_NAMES = Object.keys(FRAMES);
const SAMPLES: ReadonlyArray<readonly [string, unknown]> = FRAME_NAMES.map((name) => [name, JSON.parse(FRAMES[name] ?? 'null') as unknown]);

/** Every cut point of every example. */
const TRUNCATIONS = Object.values(FRAMES).reduce((sum, text) => sum + text.length, 0);

const ERROR_KINDS: readonly UserStreamFrameError['kind'][] = ['not-json', 'unknown-event', 'invalid'];
const context = { contractMultiplier: (symbol: string) => (symbol.startsWith('BTC') ? dec('0.001') : undefined) };

function expectTypedFrame(result: Result<UserStreamFrame, UserStreamFrameError>, where: string): void {
  if (result.ok) {
    const nonFinite = nonFinitePath(result.value);
    if (nonFinite !== undefined) throw new Error(`${where}: accepted a non-finite number at ${nonFinite}`);
    const unsafe = unsafeIntegerPath(result.value);
    if (unsafe !== undefined) throw new Error(`${where}: accepted an integer beyond 2^53 at ${unsafe}`);
    const longId = oversizedIdPath(result.value);
    if (longId !== undefined) throw new Error(`${where}: accepted an id of more than 20 digits at ${longId}`);
    if (result.value.kind === 'error' || result.value.kind === 'pong') {
      const text = result.value.kind === 'error' ? result.value.code + result.value.message : result.value.value;
      if (text.length > MAX_MESSAGE_LENGTH) throw new Error(`${where}: ${result.value.kind} frame text of ${text.length} characters`);
    }
    return;
  }
  const error = result.error;
  if (!ERROR_KINDS.includes(error.kind)) throw new Error(`${where}: unknown error kind ${String(error.kind)}`);
  if (typeof error.message !== 'string' || error.message.length > MAX_MESSAGE_LENGTH) throw new Error(`${where}: message of ${error.message.length} characters`);
  if (error.event !== undefined && error.event.length > MAX_MESSAGE_LENGTH) throw new Error(`${where}: event name of ${error.event.length} characters`);
}

function parseFrame(text: string): Result<UserStreamFrame, UserStreamFrameError> {
  return parseUserStreamFrame(text, context);
}

describe('user-stream frames: the valid examples', () => {
  it.each(FRAME_NAMES)('%s is read, also with its 64-bit ids as JSON numbers', (name) => {
    const text = FRAMES[name] ?? '';
    const result = parseFrame(text);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(parseFrame(idsAsNumbers(text))).toEqual(result);
  });
});

describe('user-stream frames: bad frames never throw', () => {
  it(`every truncation of every example is a typed error: ${TRUNCATIONS} cases`, () => {
    let cases = 0;
    for (const name of FRAME_NAMES) {
      const text = FRAMES[name] ?? '';
      for (let cut = 0; cut < text.length; cut++) {
        const result = parseFrame(text.slice(0, cut));
        expectTypedFrame(result, `${name} cut at ${cut}`);
        // A strict prefix of an object or array is never JSON.
        expect(result.ok).toBe(false);
        cases++;
      }
    }
    expect(cases).toBe(TRUNCATIONS);
  });

  it(`mutated, damaged and junk frames: ${FRAME_MUTATION_RUNS} cases`, () => {
    const arb = fc.oneof(...SAMPLES.map(([name, sample]) => fc.tuple(fc.constant(name), badText(sample))));
    fc.assert(
      fc.property(arb, ([name, text]) => expectTypedFrame(parseFrame(text), name)),
      runs(FRAME_MUTATION_RUNS),
    );
  });

  it(`arbitrary JSON values and junk text as frames: ${FRAME_ANYTHING_RUNS} cases`, () => {
    const arb = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      junkText(),
      // Objects keyed like frames, with anything in them.
      fc.record({ e: fc.jsonValue({ maxDepth: 1 }), E: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }).map((v) => JSON.stringify([v])),
      fc.record({ eventType: fc.jsonValue({ maxDepth: 2 }), pong: fc.jsonValue({ maxDepth: 2 }), code: fc.jsonValue({ maxDepth: 2 }), desc: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(arb, (text) => expectTypedFrame(parseFrame(text), 'anything')),
      runs(FRAME_ANYTHING_RUNS),
    );
  });

  it(`fields nested 10,000 and 100,000 deep (pong, code, eventType, e, E): ${DEEP_FIELD_TEXTS.length} cases`, () => {
    for (const text of DEEP_FIELD_TEXTS) expectTypedFrame(parseFrame(text), text.slice(0, 20));
  });

  it(`oversized frames (100 kB to 2 MB): ${FRAME_OVERSIZED_RUNS} cases`, () => {
    const arb = fc.oneof(...SAMPLES.map(([name, sample]) => fc.tuple(fc.constant(name), oversizedText(sample))));
    fc.assert(
      fc.property(arb, ([name, text]) => expectTypedFrame(parseFrame(text), name)),
      runs(FRAME_OVERSIZED_RUNS),
    );
  });
});

/** A logger that records warnings (the inbox logs every unreadable frame). */
function recordingLogger(): { logger: Logger; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (fields: object) => {
      warnings.push(fields);
    },
  };
  return { logger, warnings };
}

/** A frame for a sequence: a valid example (as is, or mutated) or junk. */
const sequenceFrame = fc.oneof(
  { arbitrary: fc.constantFrom(...Object.values(FRAMES)), weight: 3 },
  { arbitrary: fc.oneof(...SAMPLES.map(([, sample]) => badText(sample))), weight: 5 },
  { arbitrary: fc.oneof(...SAMPLES.map(([, sample]) => mutated(sample).map((v) => JSON.stringify(v) ?? ''))), weight: 2 },
);

function expectWellFormed(event: AccountEvent): void {
  expect(typeof event.type).toBe('string');
  expect(Number.isSafeInteger(event.time)).toBe(true);
  const nonFinite = nonFinitePath(event);
  if (nonFinite !== undefined) throw new Error(`${event.type} carries a non-finite number at ${nonFinite}`);
}

describe('user-stream inbox', () => {
  it(`any sequence of valid, mutated and junk frames: no throw, events well formed, one warning per unreadable frame: ${INBOX_RUNS} cases`, () => {
    fc.assert(
      fc.property(fc.array(sequenceFrame, { minLength: 1, maxLength: 12 }), (frames) => {
        const { logger, warnings } = recordingLogger();
        const events: AccountEvent[] = [];
        let pongs = 0;
        const inbox = new StreamInbox(context, logger, { account: (e) => events.push(e), pong: () => (pongs += 1), willExpire: () => undefined });
        let unreadable = 0;
        for (const text of frames) {
          if (!parseFrame(text).ok) unreadable++;
          inbox.receive(text);
        }
        events.forEach(expectWellFormed);
        expect(warnings.length).toBeGreaterThanOrEqual(unreadable);
        expect(pongs).toBeLessThanOrEqual(frames.length);
      }),
      runs(INBOX_RUNS),
    );
  });
});

/** A socket the test writes frames into. */
class ScriptedSocket implements WebSocketLike {
  listener: SocketListener | undefined;
  readonly sent: string[] = [];
  closed = false;

  listen(listener: SocketListener): void {
    this.listener = listener;
  }

  send(text: string): void {
    this.sent.push(text);
  }

  terminate(): void {
    this.end();
  }

  close(): void {
    this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.listener?.closed({ code: 1006, reason: '' });
  }
}

describe('user-stream session', () => {
  it(`a session fed bad frames stays open, emits only well-formed events and keeps its heartbeat: ${SESSION_RUNS} cases`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sequenceFrame, { minLength: 1, maxLength: 20 }), async (frames) => {
        const clock = new VirtualClock();
        const http = new ScriptedHttp((request) => ({ status: 200, headers: {}, body: pathOf(request) === '/api/v1/listenKey' ? '{"listenKey":"k1"}' : '{}' }));
        const sockets: ScriptedSocket[] = [];
        const session = new UserStreamSession({
          userStream: scriptedClient(http).userStream,
          streamUrl: 'ws://venue.invalid',
          time: clock,
          logger: silentLogger,
          pingIntervalMs: 1_000,
          pongTimeoutMs: 5_000,
          contractMultiplier: context.contractMultiplier,
          openSocket: () => {
            const socket = new ScriptedSocket();
            sockets.push(socket);
            return socket;
          },
        });
        const events: UserStreamEvent[] = [];
        session.events$.subscribe((e) => events.push(e));
        const starting = session.start();
        await Promise.resolve();
        await new Promise((resolve) => setImmediate(resolve));
        const socket = sockets[0];
        if (socket?.listener === undefined) throw new Error('the session opened no socket');
        socket.listener.open();
        expect((await starting).ok).toBe(true);
        for (const text of frames) {
          socket.listener.message(text);
          clock.advanceBy(100);
          // The heartbeat is answered: bad frames in between must not make it time out.
          socket.listener.message(FRAMES['pong'] ?? '');
        }
        expect(session.state).toBe('open');
        expect(sockets).toHaveLength(1);
        for (const event of events) if (event.type !== 'stream.connected' && event.type !== 'stream.disconnected') expectWellFormed(event);
        await session.stop();
      }),
      runs(SESSION_RUNS),
    );
  });
});
