import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Intent } from '../../../src/model/intents.js';
import type { Environment } from '../../../src/settings/secrets.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { liveEnv, liveYaml, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * A state directory is bound to one exchange account and issues client order ids in its own
 * namespace: a new state directory on an account that already has orders of an earlier one never
 * produces one of their ids, and a state of another account is refused.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let trader: ExchangeClient;
const daemons: Daemon[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-account-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  trader = s.client('trader', { recvWindowMs: 60_000 });
});
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a live daemon on `stateDir`; its state's namespaces are drawn from `draws` (then random). */
async function start(stateDir: string, probe: Probe, draws: string[], env: Environment = liveEnv(s)): Promise<Awaited<ReturnType<typeof Daemon.start>>> {
  const file = writeConfig(dir, `${probe.id}-${daemons.length}.yml`, liveYaml(stateDir));
  const prepared = await prepareRun({ config: file }, env);
  if (!prepared.ok) throw prepared.error;
  const newNamespace = (): string => draws.shift() ?? 'zzzzz';
  const started = await Daemon.start({
    config: prepared.value.config,
    strategies: [...prepared.value.strategies, probe.instance()],
    time: clock,
    logger: silentLogger,
    env,
    hangup: null,
    stateStore: { newNamespace },
  });
  if (started.ok) daemons.push(started.value);
  return started;
}

async function exchangeMid(): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(BTC));
  if (book === undefined) throw new Error('no book ticker');
  return book.bidPrice.add(book.askPrice).div(2);
}

/** Keyed quotes far from the market, and one order without a key (its id comes from the state's sequence). */
function quotes(mid: Decimal): Intent[] {
  return [
    { type: 'place', key: 'q1', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) },
    { type: 'place', key: 'q2', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: mid.mul('1.05'), quantity: dec(1) },
    { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.94'), quantity: dec(1) },
  ];
}

/** Every client order id the account has, open and finished. */
async function accountIds(): Promise<string[]> {
  const open = value(await trader.ordersV2.openOrders({ limit: 1000 }));
  const history = value(await trader.ordersV2.historyOrders({ limit: 1000 }));
  return [...open, ...history].map((o) => o.clientOrderId);
}

function started(result: Awaited<ReturnType<typeof Daemon.start>>): Daemon {
  if (!result.ok) throw result.error;
  return result.value;
}

describe('state directory and exchange account', () => {
  it('a second, new state directory on the same account never produces an id the account already has', async () => {
    const intents = quotes(await exchangeMid());
    const probeA = new Probe('quoter', [BTC], intents);
    const a = started(await start(join(dir, 'state-a'), probeA, ['aaaaa']));
    await runUntil(clock, () => a.kernel.cache.openOrders().length === 3, 'the first state’s three orders open');
    const first = await accountIds();
    expect(first).toHaveLength(3);
    expect(new Set(first.map((id) => id.split('-')[1]))).toEqual(new Set(['aaaaa']));
    // One finishes: the account's history holds it, the open list no longer does.
    value(await trader.ordersV2.cancelOrder({ origClientOrderId: probeA.clientOrderId('q2') }));
    await a.stop();

    // A new state directory whose first draw is the earlier state's namespace: it must draw again.
    const probeB = new Probe('quoter', [BTC], intents);
    const b = started(await start(join(dir, 'state-b'), probeB, ['aaaaa', 'bbbbb']));
    await runUntil(clock, () => b.kernel.cache.openOrders().filter((o) => o.clientOrderId.includes('-bbbbb-')).length === 3, 'the new state’s three orders open');
    for (const key of ['q1', 'q2', 'q3']) expect(first).not.toContain(probeB.clientOrderId(key));
    // Three orders more on the account (the keyed two and the sequenced one), no id twice.
    const all = await accountIds();
    expect(all).toHaveLength(6);
    expect(new Set(all).size).toBe(all.length);
    await b.stop();

    // The next start on state B keeps its namespace: same keys, same ids (exactly-once across restarts).
    const reopened = StateStore.open(join(dir, 'state-b'));
    if (!reopened.ok) throw reopened.error;
    expect(reopened.value.identity.namespace).toBe('bbbbb');
    expect(reopened.value.identity.account).toBe('879141111');
    reopened.value.close();
  });

  it('a state directory of another account is refused with both user ids', async () => {
    const probe = new Probe('quoter', [BTC]);
    const stateDir = join(dir, 'state');
    started(await start(stateDir, probe, ['aaaaa']));
    await daemons.splice(0)[0]?.stop();
    const sub = s.config.keys.find((k) => k.name === 'sub-account');
    if (sub === undefined) throw new Error('config/sim.yml has no sub-account key');
    const refused = await start(stateDir, new Probe('quoter', [BTC]), [], { ...liveEnv(s), TEST_API_KEY: sub.apiKey, TEST_API_SECRET: sub.secret });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toContain('879141111');
      expect(refused.error.message).toContain('879145609');
      expect(refused.error.message).toContain(stateDir);
    }
  });
});
