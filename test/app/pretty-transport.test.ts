import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The compiled logger (needs `npm run build`) in pretty mode: pino loads stratd's pretty transport by
 * its module path in a worker thread, and each entry comes out as one line, trade lines compact, secrets
 * scrubbed, no colour under NO_COLOR.
 */
const run = promisify(execFile);
const LOGGER = join(process.cwd(), 'dist', 'src', 'app', 'logging', 'logger.js');

const SCRIPT = `
const { createLogger } = await import(process.argv[1]);
const log = createLogger({ pretty: true, secrets: ['sekret-value-123'] });
log.child({ component: 'trade' }).info({ event: 'filled', strategy: 'quoter', symbol: 'BTC-SWAP-USDT', side: 'BUY', qty: '0.010', price: '64210.5', fee: '0.0257', feeAsset: 'USDT', realizedPnl: '1.32', fillKind: 'full', orderId: '1', tradeId: '2' }, 'FILL');
log.info({ apiSecret: 'sekret-value-123', note: 'the key sekret-value-123' }, 'stratd running');
log.flush();
`;

describe('the pretty transport in the worker thread of pino', () => {
  it('one line per entry: the fill compact with its amounts grouped, the other line with its fields, secrets scrubbed', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT, LOGGER], { env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' } });
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: FILL {4}quoter BTC-SWAP-USDT BUY 0\.010 @ 64,210\.5 fee 0\.0257 USDT pnl \+1\.32$/);
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: stratd running \{.*"note":"the key \[redacted\]"\}$/);
    expect(stdout).not.toContain('sekret-value-123');
    expect(stdout).not.toContain('\u001b[');
  });
});
