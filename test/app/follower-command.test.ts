import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerFollowerCommands } from '../../src/app/commands/follower.js';
import { ConfigError } from '../../src/settings/config-error.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { MINUTE, startSim, value } from '../sim/e2e/sim-harness.js';

/** `stratd follower …` in-process against the simulator over loopback, with the copy-trading key of config/sim.yml. */
const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const S5 = '123456789';
const HOUR = 60 * MINUTE;

let s: RunningSim;
let copy: ExchangeClient;
let env: Record<string, string>;
/** The command's working directory: its config files are written here. */
const dir = mkdtempSync(join(tmpdir(), 'stratd-follower-'));

beforeAll(async () => {
  s = await startSim({ tickMs: 10 * MINUTE });
  copy = s.client('copy-trading');
  const key = s.config.keys.find((k) => k.name === 'copy-trading');
  if (key === undefined) throw new Error('no copy-trading key in config/sim.yml');
  env = { STRATD_BASE_URL: s.sim.address.baseUrl, STRATD_FOLLOWER_API_KEY: key.apiKey, STRATD_FOLLOWER_API_SECRET: key.secret };
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await s.stop();
});

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as parsed JSON lines. */
  readonly rows: Array<Record<string, unknown>>;
}

/** Runs the command as cli.ts would: ConfigError and commander usage errors exit 2. */
async function stratd(args: readonly string[], withEnv: Record<string, string> = env): Promise<Ran> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command()
    .name('stratd')
    .exitOverride()
    .configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerFollowerCommands(program, {
    env: withEnv,
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    time: s.clock,
    cwd: dir,
    defaultSimConfig: SIM_YML,
  });
  try {
    await program.parseAsync(['follower', ...args], { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`stratd: ${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) {
      code = 2;
    } else {
      throw error;
    }
  }
  const stdout = out.join('');
  const rows = stdout === '' ? [] : stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, stdout, stderr: errs.join(''), rows };
}

async function advanceUntil(done: () => Promise<boolean>, limitMs: number): Promise<void> {
  const until = s.clock.now() + limitMs;
  while (!(await done())) {
    if (s.clock.now() >= until) throw new Error(`not reached within ${limitMs / HOUR} h of virtual time`);
    s.clock.advanceBy(10 * MINUTE);
  }
}

describe('stratd follower against the simulator', () => {
  it('without credentials or a URL: one readable line, exit 2', async () => {
    const noKeys = await stratd(['leaders'], { STRATD_BASE_URL: env['STRATD_BASE_URL'] ?? '' });
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toContain('STRATD_FOLLOWER_API_KEY');
    const noUrl = await stratd(['leaders'], { STRATD_FOLLOWER_API_KEY: 'k', STRATD_FOLLOWER_API_SECRET: 's' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--base-url');
  });

  it('before following: the exchange error as one line, exit 1', async () => {
    const out = await stratd(['positions']);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain('-32045');
  });

  it('config set: a new follow needs its amounts; given them, follows and prints the configuration read back', async () => {
    const missing = await stratd(['config', 'set', S5, '--invest-amount', '2000']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--single-place-amount');
    expect(missing.stderr).toContain('--max-invest-rate');

    const out = await stratd(['config', 'set', S5, '--invest-amount', '2000', '--single-place-amount', '100', '--leverage', '10', '--max-invest-rate', '0.5', '--stop-loss-rate', '0.5']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.rows).toEqual([
      expect.objectContaining({ leaderUserId: S5, investAmount: '2000', singlePlaceAmount: '100', leverage: '10', maxInvestRate: '0.5', stopLossRate: '0.5', followSymbolIds: 'all', followAmountMode: 0, zeroSlippageSwitch: false }),
    ]);
    expect(value(await copy.follower.getConfig(S5)).stopLossRate.eq('0.5')).toBe(true);
  });

  it('config set changes only the named settings; config get prints the configuration', async () => {
    const out = await stratd(['config', 'set', S5, '--stop-loss-rate', '0.4', '--symbols', 'BTC-SWAP-USDT,ETH-SWAP-USDT']);
    expect(out.code).toBe(0);
    expect(out.rows[0]).toMatchObject({ investAmount: '2000', stopLossRate: '0.4', followSymbolIds: 'BTC-SWAP-USDT,ETH-SWAP-USDT' });
    const got = await stratd(['config', 'get', S5]);
    expect(got.code).toBe(0);
    expect(got.rows).toEqual([expect.objectContaining({ leaderUserId: S5, stopLossRate: '0.4' })]);
  });

  it('a setting the rules refuse is not sent: exit 1 with the rule; a malformed value exits 2', async () => {
    const refused = await stratd(['config', 'set', S5, '--max-invest-rate', '2']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('follower-config-rule-2');
    expect(value(await copy.follower.getConfig(S5)).maxInvestRate.eq('0.5')).toBe(true);
    expect((await stratd(['config', 'set', S5, '--leverage', 'ten'])).code).toBe(2);
    expect((await stratd(['config', 'set', S5, '--follow-amount-mode', 'sometimes'])).code).toBe(2);
    expect((await stratd(['history', '--size', '0'])).code).toBe(2);
    expect((await stratd(['config', 'set', S5, '--no-such-option', '1'])).code).toBe(2);
  });

  it('leaders lists the followed leader as a JSON line', async () => {
    const out = await stratd(['leaders']);
    expect(out.code).toBe(0);
    expect(out.rows).toEqual([expect.objectContaining({ leaderUserId: S5, leaderNickname: 'S5' })]);
    expect(typeof out.rows[0]?.['marginBalance']).toBe('string');
  });

  it('positions and tpsl on a copied position; unfollow is refused while it is open', async () => {
    await advanceUntil(async () => value(await copy.follower.currentPositions()).length > 0, 24 * HOUR);
    const open = await stratd(['positions']);
    expect(open.code).toBe(0);
    const position = open.rows[0];
    expect(position).toMatchObject({ leaderUserId: S5 });
    const symbol = String(position?.['symbolId']);
    const side = position?.['isLong'] === 1 ? 'long' : 'short';
    const set = await stratd(['tpsl', S5, symbol, side, '--stop-profit-rate', '0.3']);
    expect(set.code).toBe(0);
    expect(set.rows).toEqual([{ status: 'ok', leaderUserId: S5, symbolId: symbol, isLong: position?.['isLong'], stopProfitRate: '0.3' }]);
    const after = await stratd(['positions']);
    expect(after.rows.find((p) => p['symbolId'] === symbol && p['isLong'] === position?.['isLong'])).toMatchObject({ stopProfitRate: '0.3' });
    expect((await stratd(['tpsl', S5, symbol, 'sideways', '--stop-loss-rate', '0.2'])).code).toBe(2);
    const refused = await stratd(['unfollow', S5]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('-120055');
  });

  it('history prints one page of closed copies, with the page count on stderr', async () => {
    await advanceUntil(async () => value(await copy.follower.history({ page: 1, size: 5 })).total > 0, 24 * HOUR);
    const out = await stratd(['history', '--page', '1', '--size', '5']);
    expect(out.code).toBe(0);
    expect(out.rows.length).toBeGreaterThan(0);
    expect(out.rows.every((row) => row['leaderNickname'] === 'S5' && typeof row['closedQuantity'] === 'string')).toBe(true);
    expect(out.stderr).toMatch(/^page 1 of \d+ \(\d+ rows\)\n$/);
  });

  it('reads URL and keys from a daemon config: live (exchange.follower) and paper (follower.key)', async () => {
    const live = join(dir, 'live.yml');
    writeFileSync(
      live,
      `mode: live\nexchange:\n  baseUrl: ${s.sim.address.baseUrl}\n  streamUrl: ${s.sim.address.streamUrl}\n  follower:\n    apiKey: \${COPY_KEY}\n    apiSecret: \${COPY_SECRET}\nfollower: {}\n`,
    );
    const liveEnv = { STRATD_API_KEY: 'trader-not-used', STRATD_API_SECRET: 'trader-not-used', COPY_KEY: env['STRATD_FOLLOWER_API_KEY'] ?? '', COPY_SECRET: env['STRATD_FOLLOWER_API_SECRET'] ?? '' };
    const viaLive = await stratd(['leaders', '--config', live], liveEnv);
    expect(viaLive.stderr).toBe('');
    expect(viaLive.rows).toEqual([expect.objectContaining({ leaderUserId: S5 })]);

    const paper = join(dir, 'paper.yml');
    writeFileSync(paper, `mode: paper\nsim: { port: ${new URL(s.sim.address.baseUrl).port} }\nfollower: { key: copy-trading }\n`);
    const viaPaper = await stratd(['config', 'get', S5, '--config', paper], {});
    expect(viaPaper.code).toBe(0);
    expect(viaPaper.rows).toEqual([expect.objectContaining({ leaderUserId: S5 })]);

    const without = join(dir, 'no-follower.yml');
    writeFileSync(without, 'mode: paper\n');
    const refused = await stratd(['leaders', '--config', without], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('follower');
  });

  it('unfollow succeeds once no copy is open', async () => {
    await advanceUntil(async () => value(await copy.follower.currentPositions()).length === 0, 24 * HOUR);
    const out = await stratd(['unfollow', S5]);
    expect(out.code).toBe(0);
    expect(out.rows).toEqual([{ status: 'ok', unfollowed: S5 }]);
    const gone = await stratd(['config', 'get', S5]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('-32045');
  });
});
