import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_POINTS_VARIABLE } from '../../../src/app/daemon/crash-points.js';
import { systemTime } from '../../../src/core/system-time.js';
import { isPlacing } from '../../../src/engine/execution/order-tracker.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { writeConfig } from '../../app/daemon/daemon-harness.js';
import { BTC, BTC_USDC, ETH, simConfig } from '../../sim/e2e/sim-harness.js';
import { chaosYaml } from '../chaos/chaos-config.js';
import { ExchangeTruth, positionRow } from '../chaos/exchange-truth.js';
import { freePort } from '../../support/free-port.js';

/**
 * Issue 8's crash suite: `stratd run` as a real process, trading every example strategy against a
 * simulator of the test's own on the wall clock, killed with SIGKILL again and again — at random
 * moments, right after a command was journaled (before its send; a cancel's after), right after an order request
 * was written (before its reply), right after one was written while the journal commits that
 * cleared it were not yet fsynced (`journal.durability: disk` fsyncs beside the send), and right
 * after a cancel was sent, before its journal row (a cancel goes out first), through the daemon's
 * crash points. After each death and each restart the exchange, the journal and the daemon's own
 * view are checked.
 */
const BIN = join(process.cwd(), 'bin', 'stratd.js');

export type KillKind = 'random' | 'journaled' | 'written' | 'unsynced' | 'cancelSent';

const KINDS: readonly KillKind[] = ['random', 'journaled', 'written', 'unsynced', 'cancelSent'];

export interface CrashOptions {
  /** SIGKILLs to deliver (a fifth of each kind). */
  readonly kills: number;
  readonly seed: number;
  readonly dir: string;
  readonly progress?: (line: string) => void;
}

export interface CrashReport {
  readonly kills: Readonly<Record<KillKind, number>>;
  /** Lives whose crash point never fired in time and were killed at random instead. */
  readonly fallbacks: number;
  readonly ordersOnExchange: number;
  readonly fills: number;
  readonly duplicateClientOrderIds: readonly string[];
  /** Exchange orders without a journal entry: sent without being journaled first. */
  readonly unjournaled: readonly string[];
  /** Journal entries whose settled state contradicts the exchange. */
  readonly contradictions: readonly string[];
  /**
   * Entries a crash left unsettled that a restart, once ready, did not settle: pending, sent or unknown,
   * or accepted while the exchange had finished the order (a cancel sent and never journaled leaves those).
   */
  readonly leftUnsettled: readonly string[];
  /** Over the `cancelSent` deaths: orders the journal held accepted that the exchange had cancelled (the cancel the death left unjournaled, or one whose reply was not handled yet). */
  readonly cancelledUnderAcceptedAtDeath: number;
  /** Restarts after which the daemon's positions did not equal the exchange's. */
  readonly positionMismatches: ReadonlyArray<{ readonly life: number; readonly local: readonly string[]; readonly exchange: readonly string[] }>;
  /** Restarts whose crash point killed them before their positions agreed: no verdict on those. */
  readonly uncheckedLives: number;
  /** Lives that did not die by SIGKILL when killed (or died another way). */
  readonly unexpectedExits: readonly string[];
  readonly finalStopExitCode: number | null;
  readonly wallSeconds: number;
}

interface Life {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stderr: () => string;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Seeded uniform numbers in [0, 1) (mulberry32): the same seed kills at the same offsets. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One life of `stratd run`. With CRASH_LOG_DIR set, its log lines (at CRASH_LOG_LEVEL, default info) are
 * kept in `life-N.log` there, to read after a failed run.
 */
function launch(config: string, env: Readonly<Record<string, string>>, life: number): Life {
  const logDir = process.env['CRASH_LOG_DIR'];
  const stdout = logDir === undefined || logDir === '' ? 'ignore' : openSync(join(logDir, `life-${life}.log`), 'w');
  const level = logDir === undefined || logDir === '' ? {} : { STRATD_LOG_LEVEL: process.env['CRASH_LOG_LEVEL'] ?? 'info' };
  const child = spawn(process.execPath, [BIN, 'run', '--config', config], { env: { PATH: process.env['PATH'] ?? '', ...env, ...level }, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') closeSync(stdout);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

/** Polls /readyz until it answers 200; false when the process died first or after `limitMs`. */
async function ready(url: string, life: Life, limitMs: number): Promise<boolean> {
  let dead = false;
  void life.exited.then(() => (dead = true));
  const giveUpAt = Date.now() + limitMs;
  while (!dead && Date.now() < giveUpAt) {
    try {
      const reply = await fetch(`${url}/readyz`);
      if (reply.status === 200) return true;
    } catch {
      // not listening yet
    }
    await pause(50);
  }
  return false;
}

interface StatusPosition {
  readonly symbol: string;
  readonly side: string;
  readonly qty: string;
}

function isStatusPosition(value: unknown): value is StatusPosition {
  return typeof value === 'object' && value !== null && 'symbol' in value && 'side' in value && 'qty' in value;
}

/** The daemon's control token (its /status needs one): set in the environment of every life. */
const CONTROL_TOKEN = 'crash-suite-control-token-0123456789';

async function daemonPositions(url: string): Promise<string[] | undefined> {
  try {
    const body: unknown = await (await fetch(`${url}/status`, { headers: { authorization: `Bearer ${CONTROL_TOKEN}` } })).json();
    const positions = typeof body === 'object' && body !== null && 'positions' in body ? body.positions : undefined;
    if (!Array.isArray(positions)) return undefined;
    return positions.filter(isStatusPosition).map((p) => positionRow(p.symbol, p.side, p.qty)).sort();
  } catch {
    return undefined;
  }
}

/**
 * The daemon's positions equal the exchange's within 10 s of readiness (read again and again: a fill of
 * the new life's own orders may land between the two reads, and its stream events take real time on a
 * loaded machine). A life whose crash point kills it before its positions agreed has no verdict
 * (`died`): its /status no longer answers, which is not a daemon without positions.
 */
async function positionsAgree(url: string, truth: ExchangeTruth, life: Life): Promise<{ verdict: 'equal' | 'different' | 'died'; local: string[]; exchange: string[] }> {
  let dead = false;
  void life.exited.then(() => (dead = true));
  let last = { verdict: 'died' as 'equal' | 'different' | 'died', local: [] as string[], exchange: [] as string[] };
  for (let attempt = 0; attempt < 100; attempt++) {
    const exchange = truth.positionRows();
    const local = await daemonPositions(url);
    if (local === undefined) {
      // Died before it agreed: what it showed last may be a fill still on its way, not a wrong view.
      if (dead) return { ...last, verdict: 'died' };
    } else {
      const equal = JSON.stringify(local) === JSON.stringify(exchange);
      last = { verdict: equal ? 'equal' : 'different', local, exchange };
      if (equal) return last;
    }
    await pause(100);
  }
  return last.verdict === 'died' ? { ...last, verdict: 'different' } : last;
}

/** What the restarts since the last audit owed: the previous death's entries without an outcome, and its accepted ones the exchange had finished. */
interface Owed {
  readonly ids: readonly string[];
  readonly stale: readonly string[];
}

const NOTHING_OWED: Owed = { ids: [], stale: [] };

/** What a death left for the restart to settle: entries without an outcome, and accepted ones the exchange had finished. */
interface Unsettled {
  /** Pending, sent or unknown. */
  readonly ids: readonly string[];
  /** Accepted in the journal, finished on the exchange. */
  readonly stale: readonly string[];
  /** Accepted in the journal, finished on the exchange: how many of those the exchange had cancelled. */
  readonly cancelledUnderAccepted: number;
}

const FINISHED: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'REJECTED']);

/**
 * Opens the dead daemon's state store and checks the journal against the exchange: every order placed
 * on the exchange (not one it made from a triggered plan or TP/SL row) is journaled (journal before send), no settled state contradicts the exchange, and
 * entries a previous crash left unsettled were settled by the restart (when it got ready). Cancels are
 * not journaled before their send, so a death can leave an order accepted in the journal that the
 * exchange cancelled: that is unsettled too, and the restart's reconciliation must settle it.
 */
function auditJournal(stateDir: string, truth: ExchangeTruth, owed: Owed, report: { unjournaled: Set<string>; contradictions: Set<string>; leftUnsettled: Set<string> }): Unsettled {
  const opened = StateStore.open(stateDir);
  if (!opened.ok) throw new Error(`cannot open the dead daemon's state: ${opened.error.message}`);
  const store = opened.value;
  try {
    const journal = store.journal();
    const onExchange = new Map(truth.placedOrders().map((o) => [o.clientOrderId, o]));
    for (const id of onExchange.keys()) if (journal.get(id) === undefined) report.unjournaled.add(id);
    const finishedOn = (id: string): string | undefined => {
      const status = onExchange.get(id)?.status;
      return status !== undefined && FINISHED.has(status) ? status : undefined;
    };
    for (const id of owed.ids) {
      const entry = journal.get(id);
      if (entry === undefined || !isPlacing(entry.command)) continue;
      if (entry.state === 'pending' || entry.state === 'sent' || entry.state === 'unknown') report.leftUnsettled.add(`${id} ${entry.state}`);
    }
    // Finished on the exchange already at the last death: the restart must have made them done (final).
    // An entry owed as sent that the restart settled to accepted may be stale again at this death (its
    // cancel written, the daemon killed before the reply): that one is owed by the next restart, not this.
    for (const id of owed.stale) {
      const entry = journal.get(id);
      if (entry !== undefined && entry.state !== 'done') report.leftUnsettled.add(`${id} ${entry.state}, ${finishedOn(id) ?? 'finished'} on the exchange`);
    }
    for (const order of onExchange.values()) {
      const entry = journal.get(order.clientOrderId);
      if (entry !== undefined && entry.state === 'rejected') report.contradictions.add(`${order.clientOrderId}: journal says rejected, the exchange has it (${order.status})`);
    }
    const unsettled = journal.unsettled();
    for (const entry of unsettled) {
      if (entry.state === 'accepted' && isPlacing(entry.command) && entry.command.type === 'place-order' && !onExchange.has(entry.id)) report.contradictions.add(`${entry.id}: journal says accepted, the exchange never had it`);
    }
    const stale = unsettled.filter((e) => e.state === 'accepted' && isPlacing(e.command) && finishedOn(e.id) !== undefined);
    return {
      ids: unsettled.filter((e) => e.state !== 'accepted').map((e) => e.id),
      stale: stale.map((e) => e.id),
      cancelledUnderAccepted: stale.filter((e) => finishedOn(e.id) === 'CANCELED').length,
    };
  } finally {
    store.close();
  }
}

/** The crash run: `kills` lives of `stratd run`, each ended by SIGKILL, then one clean life stopped by SIGTERM. */
export async function runCrashes(options: CrashOptions): Promise<CrashReport> {
  const wallStart = Date.now();
  const next = random(options.seed);
  const config = simConfig({ seed: options.seed });
  const sim = await SimulatedExchange.start({ config, time: systemTime, tickMs: 100 });
  const trader = sim.address.accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  const truth = new ExchangeTruth(sim.engine, trader.userId, [BTC, ETH, BTC_USDC]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const stateDir = join(options.dir, 'state');
  const file = writeConfig(options.dir, 'crash.yml', chaosYaml({ stateDir, timeoutMs: 2000, healthPort: port }));
  const env = {
    TEST_SIM_BASE_URL: sim.address.baseUrl,
    TEST_SIM_STREAM_URL: sim.address.streamUrl,
    TEST_API_KEY: trader.apiKey,
    TEST_API_SECRET: trader.secret,
    STRATD_HEALTH_TOKEN: CONTROL_TOKEN,
  };

  const kills: Record<KillKind, number> = { random: 0, journaled: 0, written: 0, unsynced: 0, cancelSent: 0 };
  const audit = { unjournaled: new Set<string>(), contradictions: new Set<string>(), leftUnsettled: new Set<string>() };
  const positionMismatches: Array<{ life: number; local: string[]; exchange: string[] }> = [];
  const unexpectedExits: string[] = [];
  let fallbacks = 0;
  let uncheckedLives = 0;
  let unsettledAtDeath: Owed = NOTHING_OWED;
  let cancelledUnderAcceptedAtDeath = 0;
  let current: Life | undefined;
  try {
    // A kind whose crash point was not reached in its life (the test killed it) is tried again next life,
    // so a short run still delivers each kind.
    let kindCursor = 0;
    for (let life = 0; life < options.kills; life++) {
      const kind: KillKind = KINDS[kindCursor % KINDS.length] ?? 'random';
      const armed = kind === 'random' ? {} : { [CRASH_POINTS_VARIABLE]: `${kind}=0.3` };
      const running = launch(file, { ...env, ...armed }, life);
      current = running;
      const gotReady = await ready(url, running, 30_000);
      if (gotReady) {
        // The restart reconciled at start-up: positions must equal the exchange's now.
        const views = await positionsAgree(url, truth, running);
        if (views.verdict === 'different') positionMismatches.push({ life, local: views.local, exchange: views.exchange });
        if (views.verdict === 'died') uncheckedLives += 1;
      }
      let died = false;
      void running.exited.then(() => (died = true));
      const lifetimeMs = kind === 'random' ? 300 + next() * 2700 : 8000;
      const until = Date.now() + lifetimeMs;
      while (!died && Date.now() < until) await pause(20);
      const killedByTest = !died;
      if (killedByTest) {
        running.child.kill('SIGKILL');
        if (kind !== 'random') fallbacks += 1;
        kills.random += 1;
      } else {
        kills[kind] += 1;
      }
      if (kind === 'random' || !killedByTest) kindCursor += 1;
      const exit = await running.exited;
      if (exit.signal !== 'SIGKILL') unexpectedExits.push(`life ${life} (${kind}): code ${String(exit.code)} signal ${String(exit.signal)} ${running.stderr().slice(-600)}`);
      // Settlement is only owed by a restart that got ready (its start-up reconciliation ran).
      const owed = gotReady ? unsettledAtDeath : NOTHING_OWED;
      const left = auditJournal(stateDir, truth, owed, audit);
      const carried = gotReady ? NOTHING_OWED : unsettledAtDeath;
      unsettledAtDeath = { ids: [...left.ids, ...carried.ids], stale: [...left.stale, ...carried.stale] };
      if (kind === 'cancelSent' && !killedByTest) cancelledUnderAcceptedAtDeath += left.cancelledUnderAccepted;
      options.progress?.(`crash: life ${life + 1}/${options.kills} ${kind}${killedByTest ? ' (killed by the test)' : ''}, ${truth.allOrders().length} orders on the exchange, ${Math.round((Date.now() - wallStart) / 100) / 10} s`);
    }
    // A last, clean life: it settles what the last crash left, then stops on SIGTERM with exit 0.
    const last = launch(file, env, options.kills);
    current = last;
    if (await ready(url, last, 30_000)) {
      const views = await positionsAgree(url, truth, last);
      if (views.verdict !== 'equal') positionMismatches.push({ life: options.kills, local: views.local, exchange: views.exchange });
      await pause(1000);
    } else {
      unexpectedExits.push(`final life never got ready: ${last.stderr().slice(-600)}`);
    }
    last.child.kill('SIGTERM');
    const finalExit = await last.exited;
    const leftover = auditJournal(stateDir, truth, unsettledAtDeath, audit);
    for (const id of leftover.ids) audit.leftUnsettled.add(`${id} (after the clean stop)`);
    return {
      kills,
      fallbacks,
      ordersOnExchange: truth.allOrders().length,
      fills: truth.fillKeys().size,
      duplicateClientOrderIds: truth.duplicatedClientOrderIds(),
      unjournaled: [...audit.unjournaled],
      contradictions: [...audit.contradictions],
      leftUnsettled: [...audit.leftUnsettled],
      cancelledUnderAcceptedAtDeath,
      positionMismatches,
      uncheckedLives,
      unexpectedExits,
      finalStopExitCode: finalExit.code,
      wallSeconds: (Date.now() - wallStart) / 1000,
    };
  } finally {
    if (current !== undefined && current.child.exitCode === null && current.child.signalCode === null) current.child.kill('SIGKILL');
    await sim.stop();
  }
}
