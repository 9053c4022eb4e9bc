import type { Caller, KeyAccountType } from './routing/types.js';

/** One simulator API key, as in the sim config's `keys` (extra fields such as `name` are ignored). */
export interface KeyringEntry {
  readonly apiKey: string;
  readonly secret: string;
  readonly userId: string;
  readonly readOnly: boolean;
  readonly accountType: KeyAccountType;
}

export interface KnownKey {
  readonly caller: Caller;
  readonly secret: string;
}

/** The simulator's API keys by key text (case-sensitive, API-NOTES §1.4). */
export class Keyring {
  private readonly keys = new Map<string, KnownKey>();

  constructor(entries: readonly KeyringEntry[]) {
    for (const entry of entries) {
      if (this.keys.has(entry.apiKey)) throw new RangeError(`duplicate apiKey ${entry.apiKey.slice(0, 6)}… in the keyring`);
      this.keys.set(entry.apiKey, {
        caller: { apiKey: entry.apiKey, userId: entry.userId, readOnly: entry.readOnly, accountType: entry.accountType },
        secret: entry.secret,
      });
    }
  }

  find(apiKey: string): KnownKey | undefined {
    return this.keys.get(apiKey);
  }

  get size(): number {
    return this.keys.size;
  }
}
