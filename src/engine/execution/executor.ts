import type { Subscription } from 'rxjs';
import type { Stopwatch, TimeSource } from '../../core/clock.js';
import { stopwatchOf } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { CallTrace, ExchangeFailure, ExchangePort } from '../../model/exchange-port.js';
import type { JournalState, NewJournalEntry, OrderJournal } from '../../model/journal.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import { AfterSendRows } from './after-send-rows.js';
import { ClientOrderIds } from './client-order-ids.js';
import type { CallResult } from './exchange-calls.js';
import { send } from './exchange-calls.js';
import type { EventSink, Reply } from './execution-events.js';
import { ExecutionEvents } from './execution-events.js';
import { duplicateFailure } from './execution-failures.js';
import type { JournalHealthState } from './journal-health.js';
import { isStorageFailure, JournalHealth } from './journal-health.js';
import { isAwaitingAnswer, isLive } from './order-phase.js';
import type { LinkedChild, OrderKind, Tracked } from './order-tracker.js';
import { isCancel, isPlacing, OrderTracker } from './order-tracker.js';
import type { SettleContext, SettleResult } from './settlement.js';
import { applyReply, settle } from './settlement.js';
import type { TickStamps, Trigger } from '../tick-to-order.js';
import { journaledTrigger } from '../tick-to-order.js';

/**
 * A submission's journal state after its first reply; `ignored`: already live; `duplicate`: refused as
 * such; `unjournaled`: the journal could not be written, nothing was sent.
 */
export type SubmitOutcome = JournalState | 'ignored' | 'duplicate' | 'unjournaled';

/**
 * The persistent counter (a journal sequence) that numbers the executor's sessions: a command that
 * places nothing (a cancel, a modification) is journaled as `<strategy>/<type>/<session>.<n>`, `n`
 * counted in memory, so such a command's commit writes its row alone, not its row and a sequence row
 * (measured: the sequence's statement and page were ~40 µs of a cancel's commit on the tick's path).
 * `:` is in no strategy id, so this sequence is nobody's client order ids.
 */
export const COMMAND_SESSION_ID = 'stratd:command-session';

/** The session part of a cancel's id when no session could be drawn (the journal failing): such a cancel is never journaled. */
const UNJOURNALED_SESSION = 'unjournaled';

/** What admission decided: send under this journal id, ignore (already live), or fail as a duplicate. */
type Admission = { readonly id: string } | 'ignored' | { readonly duplicate: ExchangeFailure };

export interface ExecutorOptions {
  readonly port: ExchangePort;
  readonly journal: OrderJournal;
  readonly time: TimeSource;
  readonly logger: Logger;
  /** Where its events go: the kernel (the same object's method in every run). */
  readonly bus: EventSink;
  /** The state's namespace in every client order id (client-order-ids.ts); none in backtests. */
  readonly idNamespace?: string;
  /** Delay before the first query that settles an unknown outcome (doubles per retry). Default 1000. */
  readonly settleAfterMs?: number;
  /** Queries per unknown outcome before it is left to the next reconciliation. Default 10. */
  readonly maxSettleAttempts?: number;
  /** Cap of the doubling delay. Default 60 000. */
  readonly maxSettleDelayMs?: number;
  /**
   * A command caused by market data was handed to the socket: the stopwatch readings of its way from
   * that data's arrival (tick-to-order latency). Only ports that write to a socket report it.
   */
  readonly onWritten?: (command: ExchangeCommand, stamps: TickStamps) => void;
  /** The journal became unwritable or writable again (metrics). */
  readonly onJournalHealth?: (state: JournalHealthState) => void;
}

/**
 * The order management system: every command but a cancel is journaled before it is sent (a cancel
 * right after: `sendThenJournal`), its outcome is driven
 * by REST replies and stream events together, and an unknown outcome (timeout, network, 5xx) is settled
 * by querying the client order id, never by sending again.
 *
 * Duplicates: a place whose client order id (or intent key) is journaled and still live is ignored (an
 * intent re-emitted after a restart is the same order); one whose earlier submission was rejected is
 * sent again under the same id (the exchange never had it); one whose order already finished fails
 * with `command.failed` code DUPLICATE (a key names one order).
 * Throttled or locally refused commands fail at once with `command.failed`; the failure's `retryable`
 * and `retryAt` tell the strategy when to try again (nothing was sent, so nothing needs settling).
 */
export class Executor {
  /** Whether the journal can be written; opening orders wait while it cannot (journal-health.ts). */
  readonly journalHealth: JournalHealth;
  private readonly tracker: OrderTracker;
  private readonly afterSend: AfterSendRows;
  private readonly ids: ClientOrderIds;
  private readonly events: ExecutionEvents;
  private readonly log: Logger;
  private readonly busy = new Set<string>();
  /** Ids whose send is on the wire (a subset of `busy`, which settling queries hold too). */
  private readonly sending = new Set<string>();
  /** Ids a reconciliation could not settle because their send was on the wire: asked again after its reply (`recheckAfterReply`). */
  private readonly recheck = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers = new Map<string, Subscription>();
  private readonly settleAfterMs: number;
  private readonly maxSettleAttempts: number;
  private readonly maxSettleDelayMs: number;
  private readonly stopwatch: Stopwatch;
  /** This session's number for the journal ids of commands that place nothing (drawn at the first), and the last `n` used. */
  private commandSession: number | undefined;
  private commandCount = 0;
  private closed = false;

  // The options' parts in fields of their own: the kernel's options literal gets its boilerplate in a process's
  // second backtest, which widened its field types and deoptimized every method that read through it.
  private readonly port: ExchangePort;
  private readonly journal: OrderJournal;
  private readonly time: TimeSource;
  private readonly onWritten: ExecutorOptions['onWritten'];

  constructor(options: ExecutorOptions) {
    this.port = options.port;
    this.journal = options.journal;
    this.time = options.time;
    this.onWritten = options.onWritten;
    this.log = options.logger;
    this.ids = new ClientOrderIds(options.journal, options.idNamespace);
    this.journalHealth = new JournalHealth(options.journal, options.time, this.log, options.onJournalHealth);
    this.tracker = new OrderTracker(options.journal, options.time.clock, this.log, this.journalHealth);
    this.afterSend = new AfterSendRows(options.journal, this.journalHealth, this.log);
    this.events = new ExecutionEvents(options.time.clock, options.bus);
    this.settleAfterMs = options.settleAfterMs ?? 1000;
    this.maxSettleAttempts = options.maxSettleAttempts ?? 10;
    this.maxSettleDelayMs = options.maxSettleDelayMs ?? 60_000;
    this.stopwatch = stopwatchOf(options.time);
  }

  /**
   * Journals, sends and follows one approved command (a cancel: sends, then journals). Resolves once the first reply is handled.
   * `trigger`: the market event the command answers (its write is then timed: tick-to-order).
   */
  submit(strategyId: string, command: ExchangeCommand, intentKey?: string, trigger?: Trigger): Promise<void> {
    return this.execute(strategyId, command, intentKey, trigger).then(toVoid);
  }

  /** `submit`, answering the submission's journal state after the first reply (or why it was not sent). */
  execute(strategyId: string, command: ExchangeCommand, intentKey?: string, trigger?: Trigger): Promise<SubmitOutcome> {
    if (isCancel(command)) return this.sendThenJournal(strategyId, command, intentKey, trigger);
    let admitted: Admission;
    try {
      // Drawn in its own commit, before the admission's (whose rollback must not give the number back).
      if (!isPlacing(command)) this.drawCommandSession();
      // The entry, already in its `sent` phase, in one commit: one write to disk before the request goes out.
      // An admission writes one row at most, after its reads, so that write's own statement is the commit:
      // no BEGIN and COMMIT around it (a cold BEGIN alone measured ~15 us p50 on the tick path).
      admitted = this.admitStrictly(strategyId, command, intentKey);
    } catch (error: unknown) {
      // Nothing was committed, and nothing tracked: an admission starts tracking only as its last step.
      if (!isStorageFailure(error)) return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      this.events.failed(strategyId, command, this.journalHealth.failed(error));
      return Promise.resolve('unjournaled');
    }
    const journaled = trigger === undefined ? undefined : journaledTrigger(trigger, this.stopwatch.now());
    this.journalHealth.wrote();
    if (admitted === 'ignored') return Promise.resolve('ignored');
    if ('duplicate' in admitted) {
      this.events.failed(strategyId, command, admitted.duplicate);
      return Promise.resolve('duplicate');
    }
    return this.exchange(admitted.id, strategyId, command, journaled, undefined);
  }

  /** Order events from the bus (stream or REST): they move orders on, whatever their arrival order. */
  onEvent(event: BusEvent): void {
    this.afterSend.commit();
    if (event.type === 'account.order') {
      const id = event.order.clientOrderId;
      const before = this.tracker.get(id)?.phase;
      this.tracker.applyOrder(event.order);
      if (before === 'unknown') this.answered(id);
    } else if (event.type === 'account.algo') {
      const id = event.order.clientOrderId;
      const before = this.tracker.get(id)?.phase;
      this.tracker.applyAlgo(event.order);
      if (before === 'unknown') this.answered(id);
    }
  }

  /** The deterministic client order id of a strategy's intent (client-order-ids.ts). */
  clientOrderId(strategyId: string, key?: string): string {
    return this.ids.clientOrderId(strategyId, key);
  }

  /** The strategy that owns an order (journaled or adopted), if any. */
  ownerOf(clientOrderId: string): string | undefined {
    return this.tracker.ownerOf(clientOrderId);
  }

  /** Client order ids of a strategy's live orders: submitted, unsettled or open (regular, plan, or both). */
  openOrdersOf(strategyId: string, kind?: OrderKind): readonly string[] {
    return this.tracker.openOf(strategyId, kind);
  }

  /** `openOrdersOf` of each strategy, joined in their order. */
  openOrdersOfAll(strategyIds: readonly string[]): readonly string[] {
    const out: string[] = [];
    for (const strategyId of strategyIds) this.tracker.pushOpenOf(out, strategyId);
    return out;
  }

  /** Whether the order is one of the strategy's live orders (in `openOrdersOf(strategyId)`). */
  ownsOpenOrder(strategyId: string, clientOrderId: string): boolean {
    return this.tracker.ownsOpen(strategyId, clientOrderId);
  }

  /** How many submissions are live: an upper bound of every strategy's `openOrdersOf` together. */
  liveCount(): number {
    return this.tracker.liveCount();
  }

  /** The command that placed a live order, while the executor tracks it (it may not be in the cache yet). */
  submittedCommand(clientOrderId: string): ExchangeCommand | undefined {
    return this.tracker.get(clientOrderId)?.command;
  }

  /** Submissions without a known outcome yet: on the wire, or unknown and awaiting settlement. */
  pendingCount(): number {
    return this.tracker.awaitingCount();
  }

  /** Sizes of the executor's long-lived tables (metrics). */
  sizes(): ReturnType<OrderTracker['sizes']> {
    return [...this.tracker.sizes(), { name: 'executor.timers', size: this.timers.size }];
  }

  /** Waits for every submission and settling query in progress (shutdown). */
  async flush(): Promise<void> {
    this.afterSend.commit();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops scheduling: pending settlement retries are dropped (reconciliation picks them up). */
  close(): void {
    this.afterSend.commit();
    this.closed = true;
    this.journalHealth.close();
    for (const timer of this.timers.values()) timer.unsubscribe();
    this.timers.clear();
  }

  // ---------------------------------------------------------------- for the reconciler

  /** A live submission or order of ours. */
  tracked(clientOrderId: string): Readonly<Tracked> | undefined {
    return this.tracker.get(clientOrderId);
  }

  /** Settles a live entry now by query (or by `known`, its row in a fresh open list). */
  settleNow(clientOrderId: string, known?: Reply): Promise<SettleResult> {
    const tracked = this.tracker.get(clientOrderId);
    if (tracked === undefined) return Promise.resolve(this.journal.get(clientOrderId)?.state ?? 'unresolved');
    if (this.sending.has(clientOrderId)) {
      this.recheck.add(clientOrderId);
      return Promise.resolve('busy');
    }
    return this.track(settle(this.context(), tracked, known));
  }

  /** Takes over an order the journal did not know, under `strategyId`. */
  adopt(strategyId: string, order: OrderSnapshot | AlgoOrderSnapshot): void {
    this.tracker.adopt(strategyId, order);
  }

  /** Snapshots of regular orders nobody here knows: a plan or TP/SL row of ours may have created them. */
  strays(): readonly OrderSnapshot[] {
    return this.tracker.strays();
  }

  /** A regular order that a plan or TP/SL row of `strategyId` created is the strategy's. */
  linkChild(orderId: string, strategyId: string, symbol: string): void {
    this.tracker.linkChild(orderId, strategyId, symbol);
  }

  /** Orders our plan and TP/SL rows created that were never seen (their events were lost). */
  linkedChildren(): readonly LinkedChild[] {
    return this.tracker.linkedChildren();
  }

  /** The strategy one of its plan or TP/SL rows linked this (not yet seen) regular order to. */
  childOwner(orderId: string): string | undefined {
    return this.tracker.childOwner(orderId);
  }

  /** Drops the link of a created order the exchange does not know. */
  forgetChild(orderId: string): void {
    this.tracker.forgetChild(orderId);
  }

  // ---------------------------------------------------------------- internals

  /**
   * A cancel goes out before its journal row: it opens no exposure and sending it again is harmless, so
   * exactly-once needs no row first (a crash before the row leaves the order it targets journaled, and
   * the restart's reconciliation finds it cancelled or open). The row is committed after the send,
   * before the cancel's reply or any event is handled (after-send-rows.ts), so neither the cancel nor
   * the tick's next request waits for it. A journal that cannot be written does not hold a cancel back:
   * it is sent and tracked in memory, and the journal's health turns unhealthy as on any failed write.
   */
  private sendThenJournal(strategyId: string, command: ExchangeCommand, intentKey: string | undefined, trigger: Trigger | undefined): Promise<SubmitOutcome> {
    let session: number | undefined;
    try {
      session = this.commandSessionNumber();
    } catch (error: unknown) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const id = `${strategyId}/${command.type}/${session ?? UNJOURNALED_SESSION}.${++this.commandCount}`;
    const tracked = this.tracker.remember({ id, strategyId, symbol: command.symbol, command, state: 'sent' });
    // The row waits from here and is committed after the send's synchronous way to the socket (an event
    // handled on that way, as an in-process exchange raises them, commits it first).
    if (session === undefined) tracked.unjournaled = true;
    else this.afterSend.add(sentEntry(id, strategyId, intentKey, command, this.time.clock.now()), tracked);
    const admitted = trigger === undefined ? undefined : journaledTrigger(trigger, this.stopwatch.now());
    return this.exchange(id, strategyId, command, admitted, tracked);
  }

  /** This session's number, drawn at its first command that places nothing; undefined while the journal cannot be written. */
  private commandSessionNumber(): number | undefined {
    if (this.commandSession !== undefined) return this.commandSession;
    let session: number;
    try {
      session = this.drawCommandSession();
    } catch (error: unknown) {
      if (!isStorageFailure(error)) throw error;
      this.journalHealth.failed(error);
      return undefined;
    }
    this.journalHealth.wrote();
    return session;
  }

  /** This session's number, drawn from the journal at its first command that places nothing (its own commit). */
  private drawCommandSession(): number {
    return (this.commandSession ??= this.journal.nextSequence(COMMAND_SESSION_ID));
  }

  /** `admit` with the tracker strict (a failed journal write throws): a begin and end pair, no closure per order. */
  private admitStrictly(strategyId: string, command: ExchangeCommand, intentKey: string | undefined): Admission {
    this.tracker.beginStrict();
    try {
      return this.admit(strategyId, command, intentKey);
    } finally {
      this.tracker.endStrict();
    }
  }

  /**
   * The journal id of a new submission, written in phase `sent` (it goes out right after the commit), or
   * why there is none. It reads, then makes one journal write at most (its commit), then only tracks in
   * memory as its last step (nothing after it throws, so a failed admission leaves nothing tracked): keep
   * it so, or give it back its `atomically` and a list of what to forget.
   */
  private admit(strategyId: string, command: ExchangeCommand, intentKey: string | undefined): Admission {
    const journal = this.journal;
    const time = this.time.clock.now();
    if (!isPlacing(command)) {
      if (this.commandSession === undefined) throw new InvariantError('COMMAND_SESSION', 'no command session drawn before the admission');
      // Counted before the commit: a number a rolled-back admission took is never given again.
      const id = `${strategyId}/${command.type}/${this.commandSession}.${++this.commandCount}`;
      journal.append(sentEntry(id, strategyId, intentKey, command, time));
      this.tracker.remember({ id, strategyId, symbol: command.symbol, command, state: 'sent' });
      return { id };
    }
    const id = command.clientOrderId;
    const existing = journal.findForAdmission(id, strategyId, intentKey);
    if (existing === undefined) {
      journal.append(sentEntry(id, strategyId, intentKey, command, time));
      this.tracker.remember({ id, strategyId, symbol: command.symbol, command, state: 'sent' });
      return { id };
    }
    if (isLive(existing.state)) {
      this.log.info({ strategy: strategyId, clientOrderId: id, state: existing.state }, 'duplicate submission ignored: already live');
      return 'ignored';
    }
    if (existing.state !== 'rejected' || existing.id !== id || existing.strategyId !== strategyId || existing.symbol !== command.symbol) {
      return { duplicate: duplicateFailure(id, existing.state) };
    }
    // The exchange never had it: the same id may go again (the journal keeps the first command's text).
    journal.update(id, { state: 'sent', time, detail: 'resubmitted' });
    this.tracker.remember({ id, strategyId, symbol: command.symbol, command, state: 'sent' });
    return { id };
  }

  /**
   * Sends an admitted command (already `sent` in the journal, a cancel's row on its way) and applies the
   * reply; answers its phase then (`sent`: the cancel's tracked entry, kept after it leaves the tracker).
   * In flight (`track`) until the reply is applied. One reaction on the port's promise per command: no
   * async function's frame and await, nor a second reaction to untrack it (send neither throws nor
   * rejects: a failing port answers an unknown outcome).
   */
  private exchange(id: string, strategyId: string, command: ExchangeCommand, trigger: Trigger | undefined, sent: Tracked | undefined): Promise<SubmitOutcome> {
    this.busy.add(id);
    this.sending.add(id);
    const work: Promise<SubmitOutcome> = send(this.port, command, this.traceOf(command, trigger)).then((result) => {
      try {
        this.busy.delete(id);
        this.sending.delete(id);
        this.applyResult(id, strategyId, command, result);
        return sent?.phase ?? this.tracker.get(id)?.phase ?? this.journal.get(id)?.state ?? 'pending';
      } finally {
        // Settled as this returns: a flush waiting on the set sees it done.
        this.inFlight.delete(work);
      }
    });
    this.inFlight.add(work);
    return work;
  }

  /** What a command's call answered: the tracker, the journal and the bus learn it. */
  private applyResult(id: string, strategyId: string, command: ExchangeCommand, result: CallResult<Reply>): void {
    // A cancel's row is in before its reply is handled.
    this.afterSend.commit();
    if (result.ok) {
      // One literal, the fields in `about`'s order, built only when the line is written (not at info: backtests, live).
      if (this.log.isLevelEnabled('debug')) this.log.debug({ strategy: strategyId, clientOrderId: id, symbol: command.symbol, command: command.type }, 'accepted by the exchange');
      applyReply(this.tracker, result.value);
      if (!isPlacing(command)) this.tracker.advance(id, { kind: 'exists', finished: true });
      this.events.submitted(strategyId, command);
      this.events.reply(result.value);
      this.recheckAfterReply(id);
      return;
    }
    this.applyFailure(id, strategyId, command, result.error);
  }

  /**
   * A command's call failed. Its own method: `about`'s closure puts the arguments in a context object,
   * made at entry of the function that holds it, so it is made only for a failure, not for every reply.
   */
  private applyFailure(id: string, strategyId: string, command: ExchangeCommand, failure: ExchangeFailure): void {
    this.recheck.delete(id);
    const tracked = this.tracker.get(id);
    // The order's fields on each line that is written: no child logger per reply (its bindings are serialized at creation).
    const about = (fields: object): object => ({ strategy: strategyId, clientOrderId: id, symbol: command.symbol, ...fields });
    if (failure.kind === 'unknown') {
      this.tracker.advance(id, { kind: 'lost' }, `${failure.code} ${failure.message}`);
      this.log.warn(about({ failure }), 'outcome unknown: settling by query');
      // A stream event may have shown the order already; then it is known after all.
      if (tracked !== undefined && isAwaitingAnswer(tracked.phase)) this.scheduleSettle(id, 0);
      else this.events.submitted(strategyId, command);
      return;
    }
    this.tracker.advance(id, { kind: 'refused' }, `${failure.code} ${failure.message}`);
    this.log.info(about({ failure }), 'command refused');
    this.events.failed(strategyId, command, failure);
    // Refused while its order is open here: this side may have missed what the order became (a fill or
    // cancel while the stream was down); the refusal's code is not read, any refusal asks.
    if ((command.type === 'cancel-order' || command.type === 'cancel-algo') && (failure.kind === 'rejected' || failure.kind === 'not-found')) this.askAgain(command.clientOrderId);
  }

  /**
   * A reconciliation ran while this place was on the wire and could not settle it: its reply was made
   * before that reconciliation's account snapshot, which may have shown the order filled or cancelled
   * since (while the stream was down). A reply that shows it open is then checked by a query, as the
   * reconciliation would have done, so a stale "NEW" does not keep a finished order open here.
   */
  private recheckAfterReply(id: string): void {
    if (this.recheck.delete(id)) this.askAgain(id);
  }

  /** Queries an order open here (accepted) and applies and publishes what the exchange shows, as settling does. */
  private askAgain(id: string): void {
    const tracked = this.tracker.get(id);
    if (tracked !== undefined && tracked.phase === 'accepted' && isPlacing(tracked.command) && !this.closed) void this.track(settle(this.context(), tracked));
  }

  /** Times the first write of a command caused by market data (a retried request is not timed again). */
  private traceOf(command: ExchangeCommand, trigger: Trigger | undefined): CallTrace | undefined {
    const observe = this.onWritten;
    if (trigger === undefined || observe === undefined) return undefined;
    let timed = false;
    let calledAt: number | undefined;
    return {
      sending: () => {
        calledAt ??= this.stopwatch.now();
      },
      written: () => {
        if (timed) return;
        timed = true;
        const writtenAt = this.stopwatch.now();
        observe(command, calledAt === undefined ? { ...trigger, writtenAt } : { ...trigger, calledAt, writtenAt });
      },
    };
  }

  /** A snapshot was applied to an order whose outcome was unknown: if it is known now, its settling stops. */
  private answered(id: string): void {
    const tracked = this.tracker.get(id);
    const after = tracked?.phase ?? this.journal.get(id)?.state;
    if (after === undefined || isAwaitingAnswer(after)) return;
    // The stream answered what the lost reply did not.
    this.timers.get(id)?.unsubscribe();
    this.timers.delete(id);
    const entry = this.journal.get(id);
    if (entry !== undefined) this.events.submitted(entry.strategyId, tracked?.command ?? entry.command);
  }

  private scheduleSettle(id: string, attempt: number): void {
    if (this.closed) return;
    const delay = Math.min(this.settleAfterMs * 2 ** attempt, this.maxSettleDelayMs);
    this.timers.get(id)?.unsubscribe();
    // A fresh top-level schedule per attempt (nesting `this.schedule` overflows a virtual clock).
    const timer = this.time.scheduler.schedule(() => {
      this.timers.delete(id);
      void this.track(this.settleLater(id, attempt));
    }, delay);
    this.timers.set(id, timer);
  }

  private async settleLater(id: string, attempt: number): Promise<void> {
    const tracked = this.tracker.get(id);
    if (tracked === undefined || !isAwaitingAnswer(tracked.phase)) return;
    const result = await settle(this.context(), tracked);
    if (result !== 'unresolved' && result !== 'busy') {
      this.log.info({ clientOrderId: id, phase: result }, 'unknown outcome settled');
      return;
    }
    if (attempt + 1 < this.maxSettleAttempts) this.scheduleSettle(id, attempt + 1);
    else this.log.error({ clientOrderId: id, attempts: attempt + 1 }, 'outcome still unknown: left to the next reconciliation');
  }

  private context(): SettleContext {
    return { port: this.port, tracker: this.tracker, events: this.events, busy: this.busy, logger: this.log };
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    // One reaction for either outcome (finally and catch made three promises per command).
    const done = (): void => {
      this.inFlight.delete(work);
    };
    void work.then(done, done);
    return work;
  }
}

/** What `submit` resolves with: nothing (one function for every command, no closure each). */
function toVoid(): void {
  return undefined;
}

/** A new journal entry already `sent` (it goes out right after its commit), as a literal of one of two fixed shapes. */
function sentEntry(id: string, strategyId: string, intentKey: string | undefined, command: ExchangeCommand, time: number): NewJournalEntry {
  return intentKey === undefined ? { id, strategyId, command, time, state: 'sent' } : { id, strategyId, intentKey, command, time, state: 'sent' };
}
