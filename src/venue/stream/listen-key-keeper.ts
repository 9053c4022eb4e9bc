import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import type { Category } from '../../model/instrument.js';
import type { UserStreamApi } from '../api/user-stream.js';
import type { VenueError } from '../venue-error.js';
import { invalidRequest } from '../venue-error.js';

/** `-1125`: the listen key does not exist (expired, closed, or never ours). */
export function isUnknownListenKey(error: VenueError): boolean {
  return error.code === -1125 || error.code === '-1125';
}

/**
 * The session's listen key and its REST lifecycle (POST, PUT, DELETE), one call at a time so that a
 * keepalive never races a re-creation. The key is never logged.
 */
export class ListenKeyKeeper {
  private key: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly api: UserStreamApi,
    private readonly category: Category | undefined,
  ) {}

  get current(): string | undefined {
    return this.key;
  }

  /** POST: the account's key; while one is valid the exchange answers that same key, extended. */
  create(): Promise<Result<string, VenueError>> {
    return this.serial(async () => {
      const created = await this.api.createListenKey(this.category);
      if (created.ok) this.key = created.value;
      return created;
    });
  }

  /** PUT on the current key. */
  keepAlive(): Promise<Result<void, VenueError>> {
    return this.serial(async () => (this.key === undefined ? noKey() : this.api.keepAliveListenKey(this.key, this.category)));
  }

  /** DELETE the current key (its streams close) and forget it. */
  close(): Promise<Result<void, VenueError>> {
    return this.serial(async () => {
      const key = this.key;
      if (key === undefined) return noKey();
      this.key = undefined;
      return this.api.closeListenKey(key, this.category);
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function noKey(): Result<never, VenueError> {
  return err(invalidRequest('user-stream', 'no-listen-key', 'no listen key yet'));
}
