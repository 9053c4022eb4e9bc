import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { err, ok } from '../../core/result.js';
import type { FaultSettings } from '../config/fault-settings.js';
import type { AccountRef, SimReject, SimResult } from '../engine/types.js';
import { ListenKeyText } from './listen-key-text.js';

/** Notices start this long before expiry and repeat every minute (document 001, API-NOTES §7). */
export const WILL_EXPIRE_LEAD_MS = 5 * 60_000;
export const WILL_EXPIRE_EVERY_MS = 60_000;

export const UNKNOWN_LISTEN_KEY: SimReject = { code: -1125, msg: 'This listenKey does not exist.' };

export interface ListenKeyInfo {
  readonly listenKey: string;
  readonly account: AccountRef;
  readonly expiresAt: number;
}

/** Why a key stopped being valid: DELETE, or its validity ran out. */
export type ListenKeyEnd = 'closed' | 'expired';

export interface WillExpireNotice {
  readonly listenKey: string;
  /** Server time of the notice (epoch ms). */
  readonly time: number;
}

export interface ListenKeyRegistryOptions {
  readonly time: TimeSource;
  /** Read at every create and keepalive: `listenKeyTtlMs` below 60 min means early expiry. */
  readonly faults: () => FaultSettings;
  readonly seed: number;
}

interface Entry {
  readonly listenKey: string;
  readonly account: AccountRef;
  expiresAt: number;
  timer: Subscription | undefined;
}

/**
 * Listen keys of the user data stream: at most one valid key per (user, category). POST returns the
 * valid key extended (or a new one), PUT extends, DELETE ends it; a key not kept alive expires. Timers
 * run on the injected scheduler, so tests drive the whole lifecycle in virtual time.
 */
export class ListenKeyRegistry {
  private readonly byKey = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Entry>();
  private readonly noticeListeners = new Set<(notice: WillExpireNotice) => void>();
  private readonly endListeners = new Set<(listenKey: string, end: ListenKeyEnd) => void>();
  private readonly keyText: ListenKeyText;

  constructor(private readonly options: ListenKeyRegistryOptions) {
    this.keyText = new ListenKeyText(options.seed);
  }

  /** POST: the account's valid key, extended by the TTL, or a new key. */
  create(account: AccountRef): ListenKeyInfo {
    const current = this.byAccount.get(accountKey(account));
    if (current !== undefined) return this.extend(current);
    const entry: Entry = { listenKey: this.freshKey(), account: { userId: account.userId, category: account.category }, expiresAt: 0, timer: undefined };
    this.byKey.set(entry.listenKey, entry);
    this.byAccount.set(accountKey(account), entry);
    return this.extend(entry);
  }

  /** PUT: extends a valid key of this user by the TTL; -1125 when the user has no such key. */
  keepAlive(userId: string, listenKey: string): SimResult<ListenKeyInfo> {
    const entry = this.owned(userId, listenKey);
    return entry === undefined ? err(UNKNOWN_LISTEN_KEY) : ok(this.extend(entry));
  }

  /** DELETE: ends a valid key of this user (its streams close); -1125 when the user has no such key. */
  close(userId: string, listenKey: string): SimResult<ListenKeyInfo> {
    const entry = this.owned(userId, listenKey);
    if (entry === undefined) return err(UNKNOWN_LISTEN_KEY);
    this.end(entry, 'closed');
    return ok(info(entry));
  }

  find(listenKey: string): ListenKeyInfo | undefined {
    const entry = this.byKey.get(listenKey);
    return entry === undefined ? undefined : info(entry);
  }

  /** The valid key of an account, if any: its stream receives that account's events. */
  activeKey(account: AccountRef): string | undefined {
    return this.byAccount.get(accountKey(account))?.listenKey;
  }

  onWillExpire(listener: (notice: WillExpireNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  onEnd(listener: (listenKey: string, end: ListenKeyEnd) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Cancels every timer and forgets every key, without notifying (shutdown). */
  dispose(): void {
    for (const entry of this.byKey.values()) entry.timer?.unsubscribe();
    this.byKey.clear();
    this.byAccount.clear();
    this.noticeListeners.clear();
    this.endListeners.clear();
  }

  private owned(userId: string, listenKey: string): Entry | undefined {
    const entry = this.byKey.get(listenKey);
    // Another user's key is "unknown" to this caller; the category is not checked, the key says it.
    return entry !== undefined && entry.account.userId === userId ? entry : undefined;
  }

  private extend(entry: Entry): ListenKeyInfo {
    entry.expiresAt = this.options.time.clock.now() + this.options.faults().listenKeyTtlMs;
    this.arm(entry);
    return info(entry);
  }

  /** Schedules the next notice or the expiry; each action carries its own due time so an early real timer can't confuse the two. */
  private arm(entry: Entry, after = this.options.time.clock.now()): void {
    entry.timer?.unsubscribe();
    const now = this.options.time.clock.now();
    const dueAt = nextDue(entry.expiresAt, after);
    entry.timer = this.options.time.scheduler.schedule(() => this.fire(entry, dueAt), Math.max(0, dueAt - now));
  }

  private fire(entry: Entry, dueAt: number): void {
    if (this.byKey.get(entry.listenKey) !== entry) return;
    if (dueAt >= entry.expiresAt) {
      this.end(entry, 'expired');
      return;
    }
    const notice: WillExpireNotice = { listenKey: entry.listenKey, time: this.options.time.clock.now() };
    this.arm(entry, Math.max(dueAt, notice.time));
    for (const listener of [...this.noticeListeners]) listener(notice);
  }

  private end(entry: Entry, end: ListenKeyEnd): void {
    entry.timer?.unsubscribe();
    entry.timer = undefined;
    this.byKey.delete(entry.listenKey);
    if (this.byAccount.get(accountKey(entry.account)) === entry) this.byAccount.delete(accountKey(entry.account));
    for (const listener of [...this.endListeners]) listener(entry.listenKey, end);
  }

  private freshKey(): string {
    for (;;) {
      const candidate = this.keyText.next();
      if (!this.byKey.has(candidate)) return candidate;
    }
  }
}

/** The first of expiry−5 min, −4 min, … −1 min, expiry that lies after `now`. */
function nextDue(expiresAt: number, now: number): number {
  for (let lead = WILL_EXPIRE_LEAD_MS; lead > 0; lead -= WILL_EXPIRE_EVERY_MS) {
    if (expiresAt - lead > now) return expiresAt - lead;
  }
  return expiresAt;
}

function accountKey(account: AccountRef): string {
  return `${account.userId}/${account.category}`;
}

function info(entry: Entry): ListenKeyInfo {
  return { listenKey: entry.listenKey, account: entry.account, expiresAt: entry.expiresAt };
}
