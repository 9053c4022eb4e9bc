import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { ConfigError } from '../../src/settings/config-error.js';

/** `sim.market: live` (paper on the live market): its keys, their defaults, and located mistakes. */

const SIM_YML = join(process.cwd(), 'config', 'sim.yml');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-live-market-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function loaded(text: string, env: Record<string, string> = {}): ReturnType<typeof loadDaemonConfig> & { readonly file: string } {
  counter += 1;
  const file = join(dir, `config-${counter}.yml`);
  writeFileSync(file, text);
  return { ...loadDaemonConfig(file, { env, defaultSimConfig: SIM_YML, cwd: dir }), file };
}

function load(text: string, env: Record<string, string> = {}): DaemonConfig {
  const result = loaded(text, env);
  if (!result.ok) throw new Error(`expected a valid config, got ${result.error.message}`);
  return result.value;
}

function failure(text: string): { readonly error: ConfigError; readonly file: string } {
  const result = loaded(text);
  if (result.ok) throw new Error('expected a config error');
  return { error: result.error, file: result.file };
}

const PAPER_LIVE = `mode: paper
exchange:
  baseUrl: https://api.toobit.com
sim:
  market: live
market:
  - symbol: BTC-SWAP-USDT
    depth: { every: 1s }
`;

describe('paper on the live market: config', () => {
  test('sim.market: live with only a public exchange.baseUrl: the defaults of sim.live', () => {
    const { venue } = load(PAPER_LIVE);
    if (venue.mode !== 'paper') throw new Error('paper expected');
    expect(venue.live).toEqual({
      baseUrl: 'https://api.toobit.com',
      timeoutMs: 10_000,
      rateLimitShare: 0.8,
      everyMs: 1000,
      fundingEveryMs: 60_000,
      depthLimit: 20,
      maxBookAgeMs: 5000,
      ignoredKeys: [],
    });
  });

  test('sim.live tunes the feed; the default market stays the simulator\'s own', () => {
    const { venue } = load(`${PAPER_LIVE.replace('  market: live\n', '  market: live\n  live: { every: 500ms, fundingEvery: 30s, depthLimit: 50, maxBookAge: 3s, symbols: [ETH-SWAP-USDT], fees: { maker: 0.0001, taker: 0.0005 } }\n')}`);
    expect(venue).toMatchObject({ live: { everyMs: 500, fundingEveryMs: 30_000, depthLimit: 50, maxBookAgeMs: 3000, symbols: ['ETH-SWAP-USDT'], fees: { maker: '0.0001', taker: '0.0005' } } });
    const simulated = load('mode: paper\n').venue;
    expect(simulated.mode === 'paper' && simulated.live).toBe(undefined);
  });

  test('API keys in the exchange section are listed as ignored (never read), even when their variables are unset', () => {
    const text = PAPER_LIVE.replace('  baseUrl: https://api.toobit.com\n', '  baseUrl: https://api.toobit.com\n  apiKey: ${STRATD_API_KEY}\n  apiSecret: ${STRATD_API_SECRET}\n');
    const { venue } = load(text);
    expect(venue).toMatchObject({ live: { ignoredKeys: ['exchange.apiKey', 'exchange.apiSecret'] } });
    // Paper mode trades with the simulator's key: the exchange's keys are not among the credentials.
    expect(venue.credentials.apiKey).toMatch(/^simTraderKey/);
  });

  test.each([
    ['no exchange section', PAPER_LIVE.replace('exchange:\n  baseUrl: https://api.toobit.com\n', ''), 'sim.market', /needs exchange\.baseUrl/],
    ['an exchange without baseUrl', PAPER_LIVE.replace('  baseUrl: https://api.toobit.com\n', '  timeoutMs: 5000\n'), 'exchange.baseUrl', /.+/],
    ['a market that is neither', PAPER_LIVE.replace('market: live', 'market: real'), 'sim.market', /simulated|live/],
    ['sim.live without market: live', PAPER_LIVE.replace('  market: live\n', '  live: { every: 1s }\n'), 'sim.live', /only with sim\.market: live/],
    ['a book age not above the poll interval', PAPER_LIVE.replace('  market: live\n', '  market: live\n  live: { every: 2s, maxBookAge: 2s }\n'), 'sim.live.maxBookAge', /longer than every/],
    ['an unknown depth limit', PAPER_LIVE.replace('  market: live\n', '  market: live\n  live: { depthLimit: 7 }\n'), 'sim.live.depthLimit', /one of/],
    ['an unknown key', PAPER_LIVE.replace('  market: live\n', '  market: live\n  live: { maxAge: 2s }\n'), 'sim.live.maxAge', /unknown key/],
  ])('%s: a located error', (_name, text, path, reason) => {
    const { error, file } = failure(text);
    expect(error.location.file).toBe(file);
    expect(error.location.path).toBe(path);
    expect(error.location.line).toEqual(expect.any(Number));
    expect(error.message).toMatch(reason);
  });
});
