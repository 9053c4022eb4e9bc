import type { KeyValueStore } from '../../model/journal.js';

/** The answer a signal got, as sent to its sender (and to a sender repeating its key). */
export interface SignalAnswer {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
}

/** One journaled signal: what came (the validated body) and what it got. */
export interface SignalRecord {
  readonly strategy: string;
  readonly key: string;
  readonly receivedAt: number;
  readonly mode: 'signature' | 'token';
  readonly dryRun: boolean;
  /** The body as validated (decimals as text), the token removed. */
  readonly signal: Readonly<Record<string, unknown>>;
  readonly answer: SignalAnswer;
}

/** The namespace of the state store's key-value table the signals use (never a strategy id: those have no colon). */
export const SIGNAL_JOURNAL_NAMESPACE = 'signals:journal';

/**
 * Every authenticated signal with its outcome, by strategy and idempotency key, in the state store
 * (SQLite, committed before the answer is sent): the same key again — also after a restart — is
 * answered from here, never traded twice. Records older than `keepMs` are dropped as new ones arrive.
 */
export class SignalJournal {
  private prunedAt = -Infinity;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly keepMs: number,
  ) {}

  find(strategy: string, key: string): SignalRecord | undefined {
    const value = this.kv.get(recordKey(strategy, key));
    return isRecord(value) ? value : undefined;
  }

  /** Writes (or overwrites, when an answer became final) a record; prunes expired ones. */
  record(record: SignalRecord, now: number): void {
    this.kv.set(recordKey(record.strategy, record.key), record);
    this.prune(now);
  }

  /** Every record, oldest first (for /status and tests). */
  all(): readonly SignalRecord[] {
    return this.kv
      .keys()
      .map((k) => this.kv.get(k))
      .filter(isRecord)
      .sort((a, b) => a.receivedAt - b.receivedAt);
  }

  /** At most once a minute: every record is read to find the expired ones. */
  private prune(now: number): void {
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    for (const k of this.kv.keys()) {
      const value = this.kv.get(k);
      if (!isRecord(value) || value.receivedAt < now - this.keepMs) this.kv.delete(k);
    }
  }
}

function recordKey(strategy: string, key: string): string {
  return `${strategy}\n${key}`;
}

function isRecord(value: unknown): value is SignalRecord {
  return typeof value === 'object' && value !== null && 'strategy' in value && 'key' in value && 'receivedAt' in value && typeof value.receivedAt === 'number' && 'answer' in value;
}
