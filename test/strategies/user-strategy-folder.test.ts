import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A user's own strategy kept in a folder outside the repository (no node_modules, no copy of stratd)
 * imports only `stratd/strategy` and runs in the built CLI like a bundled one: the package's exports map
 * and the loader's resolve hook make the name resolve to the running stratd. Needs `npm run build`.
 */
const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-user-strategy-'));
  const folder = join(dir, 'my-strategies', 'first-buy');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  // Plain JavaScript, as a user writes it without a build step: one market buy on the first kline.
  writeFileSync(
    join(folder, 'index.js'),
    `import { defineStrategy, dec, z } from 'stratd/strategy';

export default defineStrategy({
  name: 'first-buy',
  params: z.object({ quantity: z.number().int().positive().default(2) }),
  create: (ctx) => {
    let sent = false;
    return {
      onEvent(event) {
        if (sent || event.type !== 'market.kline') return;
        sent = true;
        ctx.emit({ type: 'place', key: 'first', symbol: event.symbol, side: 'BUY', orderType: 'MARKET', quantity: dec(ctx.params.quantity) });
      },
    };
  },
});
`,
  );
  writeFileSync(
    join(dir, 'config.yml'),
    `mode: paper
stateDir: ./state
sim: { config: ${JSON.stringify(join(process.cwd(), 'config', 'sim.yml'))}, key: trader, port: 0 }
market:
  - symbol: BTC-SWAP-USDT
    depth: { every: 1s, limit: 20 }
    klines: { every: 5s, intervals: [1m] }
    markPrice: { every: 2s }
strategies:
  - id: mine
    module: ./my-strategies/first-buy
    symbols: [BTC-SWAP-USDT]
    params: { quantity: 3 }
health: { host: 127.0.0.1, port: 0 }
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('validate loads the strategy through stratd/strategy', async () => {
  const { stdout } = await run(process.execPath, [BIN, 'validate', '--config', join(dir, 'config.yml')]);
  expect(stdout).toMatch(/^ok: /);
});

test('a backtest runs it: its order is placed and filled', async () => {
  const out = join(dir, 'out');
  await run(process.execPath, [BIN, 'backtest', '--config', join(dir, 'config.yml'), '--data', SAMPLE, '--to', '2026-01-01T00:05:00Z', '--out', out, '--no-cache']);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { strategies: Record<string, { orders: number; fills: number }> };
  expect(summary.strategies['mine']).toMatchObject({ orders: 1 });
  expect(summary.strategies['mine']?.fills).toBeGreaterThan(0);
});
