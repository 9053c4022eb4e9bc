import type { Decimal } from '../core/decimal.js';
import type { ExchangeCommand } from './commands.js';
import type { Denial } from './denials.js';
import type { ExchangeFailure } from './exchange-port.js';
import type { Instrument, SymbolStatus } from './instrument.js';
import type { Intent } from './intents.js';
import type { ProtectionAction, ProtectionKind } from './protections.js';

/** Events the daemon itself raises: stream state, instruments, intents' fate, jobs, timers, catalog. */

export interface StreamConnected {
  readonly type: 'stream.connected';
  readonly time: number;
  /** Increments with every (re)connect: the resync that follows is tagged with it. */
  readonly epoch: number;
}

export interface StreamDisconnected {
  readonly type: 'stream.disconnected';
  readonly time: number;
  readonly reason: string;
}

/** After a (re)connect: local orders, positions and balances agree with the exchange again. */
export interface AccountResynced {
  readonly type: 'account.resynced';
  readonly time: number;
  readonly epoch: number;
  readonly adopted: number;
  readonly cancelled: number;
  readonly settled: number;
}

export interface InstrumentsLoaded {
  readonly type: 'instruments.loaded';
  readonly time: number;
  readonly instruments: readonly Instrument[];
}

export interface SymbolStatusChanged {
  readonly type: 'instrument.status';
  readonly time: number;
  readonly symbol: string;
  readonly from: SymbolStatus;
  readonly to: SymbolStatus;
}

export interface IntentDenied {
  readonly type: 'intent.denied';
  readonly time: number;
  readonly strategyId: string;
  readonly intent: Intent;
  readonly denial: Denial;
}

/** The executor sent a command (after journaling it). */
export interface CommandSubmitted {
  readonly type: 'command.submitted';
  readonly time: number;
  readonly strategyId: string;
  readonly command: ExchangeCommand;
}

/** The exchange refused a command, or its outcome stayed unknown and a query settled it as absent. */
export interface CommandFailed {
  readonly type: 'command.failed';
  readonly time: number;
  readonly strategyId: string;
  readonly command: ExchangeCommand;
  readonly failure: ExchangeFailure;
}

export interface KillSwitchChanged {
  readonly type: 'risk.killSwitch';
  readonly time: number;
  readonly engaged: boolean;
  readonly reason: string;
  /** Today's realized + unrealized PnL when it changed. */
  readonly dayPnl: Decimal;
}

/** A protection tripped or resumed for one scope ('global' or a strategy id). */
export interface ProtectionChanged {
  readonly type: 'risk.protection';
  readonly time: number;
  readonly protection: string;
  readonly kind: ProtectionKind;
  readonly scopeKey: string;
  readonly tripped: boolean;
  readonly action: ProtectionAction;
  readonly reason: string;
  /** When a tripped protection resumes by itself. */
  readonly resumeAt?: number;
}

/** A strategy instance started (at daemon start, or again by operator command) and its onStart returned. */
export interface StrategyStarted {
  readonly type: 'strategy.started';
  readonly time: number;
  readonly strategyId: string;
}

export interface StrategyStopped {
  readonly type: 'strategy.stopped';
  readonly time: number;
  readonly strategyId: string;
  readonly reason: string;
  readonly failed: boolean;
}

export interface TimerFired {
  readonly type: 'timer';
  readonly time: number;
  readonly name: string;
}

export interface JobFinished {
  readonly type: 'job.finished';
  readonly time: number;
  readonly job: string;
  readonly ok: boolean;
  /** The error of a failed run; empty on success. */
  readonly detail: string;
}

/** Market data conflated or dropped for a strategy that fell behind (account events never are). */
export interface MarketDataDropped {
  readonly type: 'bus.dropped';
  readonly time: number;
  readonly strategyId: string;
  readonly count: number;
}

export type KernelEvent =
  | StreamConnected
  | StreamDisconnected
  | AccountResynced
  | InstrumentsLoaded
  | SymbolStatusChanged
  | IntentDenied
  | CommandSubmitted
  | CommandFailed
  | KillSwitchChanged
  | ProtectionChanged
  | StrategyStarted
  | StrategyStopped
  | TimerFired
  | JobFinished
  | MarketDataDropped;
