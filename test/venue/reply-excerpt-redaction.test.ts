import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/app/logging/logger.js';
import { systemTime } from '../../src/core/system-time.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';

/**
 * A reply cut short is quoted in the error (the first 80 characters): the real client against a loopback
 * server answering POST /api/v1/listenKey with `{"listenKey":"…` and no end. The listen key must not be
 * in the error, nor in the log line that reports it; so for a token in a failed reply's message.
 */
const LISTEN_KEY = 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu';
const TOKEN = 'tok-6f1d2b7c9a0e4f3b';

let server: Server;
let baseUrl: string;
let body = '';
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/api/v1/time') === true) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ serverTime: Date.now() }));
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(): ExchangeClient {
  return new ExchangeClient({ baseUrl, credentials: { apiKey: 'excerpt-test-key-0001', apiSecret: 'excerpt-test-secret-0001' }, time: systemTime, timeSync: { samples: 1 } });
}

function logged(record: object): string {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  createLogger({ destination: sink, level: 'info' }).error(record, 'user stream: cannot create a listen key');
  return lines.join('');
}

describe('reply excerpts in errors are redacted', () => {
  it('a truncated listen-key reply', async () => {
    body = `{"listenKey":"${LISTEN_KEY}`;
    status = 200;
    const reply = await client().userStream.createListenKey();
    if (reply.ok) throw new Error('a truncated reply was accepted');
    expect(reply.error.kind).toBe('malformed-response');
    expect(reply.error.message).toContain('reply is not JSON ({"listenKey":"[redacted])');
    expect(reply.error.message).not.toContain(LISTEN_KEY.slice(0, 12));
    const line = logged({ err: reply.error, reason: reply.error.message });
    expect(line).not.toContain(LISTEN_KEY.slice(0, 12));
    expect(line).toContain('[redacted]');
  });

  it('an HTTP error whose body quotes a token, and a service message quoting a signature', async () => {
    body = `{"code":-1022,"msg":"Signature for this request is not valid: signature=${'ab'.repeat(32)}&token=${TOKEN}"}`;
    status = 400;
    const reply = await client().userStream.createListenKey();
    if (reply.ok) throw new Error('an error reply was accepted');
    expect(reply.error.message).not.toContain(TOKEN);
    expect(reply.error.message).not.toContain('ab'.repeat(32));
    expect(reply.error.message).toContain('Signature for this request is not valid');
  });
});
