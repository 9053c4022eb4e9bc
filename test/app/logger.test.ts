import { Writable } from 'node:stream';
import { createLogger } from '../../src/app/logger.js';

describe('logger redaction', () => {
  it('never writes keys, secrets, tokens, signatures or listen keys', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
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
});
