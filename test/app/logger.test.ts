import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, scrubber } from '../../src/app/logging/logger.js';

/** Every line the logger writes, as text. */
function capture(): { sink: Writable; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { sink, lines };
}

const LISTEN_KEY = 'qWertyUiopAsdfGhjkLzxcvBnmQWERTYUIOPasdfghjklZXCVBNMqwertyuiopAS';
const SIGNATURE = createHmac('sha256', 'SECRET-9').update('symbol=BTC-SWAP-USDT&timestamp=1').digest('hex');

describe('logger redaction', () => {
  it('never writes keys, secrets, tokens, signatures or listen keys', () => {
    const { sink, lines } = capture();
    const log = createLogger({ destination: sink, level: 'debug' });
    log.info({ apiKey: 'KEY-1', apiSecret: 'SECRET-1' }, 'top level');
    log.info({ credentials: { apiKey: 'KEY-2', apiSecret: 'SECRET-2' } }, 'nested');
    log.info({ request: { headers: { 'x-bb-apikey': 'KEY-3', authorization: 'Bearer TOKEN-1' }, signature: 'SIG-1' } }, 'request');
    log.child({ component: 'stream' }).info({ stream: { listenKey: 'LK-1' }, token: 'TOKEN-2' }, 'child');
    const all = lines.join('');
    for (const secret of ['KEY-1', 'SECRET-1', 'KEY-2', 'SECRET-2', 'KEY-3', 'TOKEN-1', 'SIG-1', 'LK-1', 'TOKEN-2']) expect(all).not.toContain(secret);
    expect(lines).toHaveLength(4);
    expect(all).toContain('[redacted]');
  });

  it('scrubs secrets inside text: signed query strings, user-stream URLs, HMAC digests, the configured key and secret', () => {
    const { sink, lines } = capture();
    const log = createLogger({ destination: sink, level: 'debug', secrets: ['configured-api-key-1', 'configured "secret" 2'] });
    log.warn({ error: `GET /api/v2/futures/open-orders?symbol=BTC-SWAP-USDT&timestamp=1&signature=${SIGNATURE}: timed out` }, 'request failed');
    log.warn({ url: `wss://stream.toobit.com/api/v1/ws/${LISTEN_KEY}`, reason: 'closed' }, 'user stream: connection lost');
    log.info({ body: `listenKey=${LISTEN_KEY}&recvWindow=5000` }, 'keepalive');
    log.debug({ digest: SIGNATURE }, 'a digest under another name');
    log.error({ reason: 'the key configured-api-key-1 was refused', detail: { text: 'configured "secret" 2' } }, 'rejected');
    const all = lines.join('');
    for (const secret of [SIGNATURE, LISTEN_KEY, 'configured-api-key-1', 'configured \\"secret\\" 2']) expect(all).not.toContain(secret);
    // What is not secret stays readable.
    expect(all).toContain('/api/v2/futures/open-orders?symbol=BTC-SWAP-USDT&timestamp=1&signature=[redacted]');
    expect(all).toContain('wss://stream.toobit.com/api/v1/ws/[redacted]');
    expect(lines.map((l) => JSON.parse(l) as { msg: string }).map((l) => l.msg)).toEqual(['request failed', 'user stream: connection lost', 'keepalive', 'a digest under another name', 'rejected']);
  });

  it('leaves ordinary text alone', () => {
    const scrub = scrubber(['short', 'a-longer-secret']);
    const line = '{"msg":"short orders on BTC-SWAP-USDT","url":"wss://stream.toobit.com/quote/ws/v1","id":"1234567890123456789"}';
    expect(scrub(line)).toBe(line);
  });
});

describe('logger lines', () => {
  it('one JSON object per line, with the bindings of child loggers (component, strategy, clientOrderId)', () => {
    const { sink, lines } = capture();
    const log = createLogger({ destination: sink, level: 'trace' });
    const strategy = log.child({ component: 'strategy', strategy: 'quoter-btc' });
    strategy.child({ clientOrderId: 'quoter-btc-1a2b' }).info({ status: 'NEW' }, 'order accepted');
    log.trace({}, 'trace is written at level trace');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    expect(parsed[0]).toMatchObject({ level: 30, component: 'strategy', strategy: 'quoter-btc', clientOrderId: 'quoter-btc-1a2b', status: 'NEW', msg: 'order accepted' });
    expect(parsed[1]).toMatchObject({ level: 10, msg: 'trace is written at level trace' });
  });
});
