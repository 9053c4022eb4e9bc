import { randomBytes } from 'node:crypto';
import type { Database as Db, Statement } from 'better-sqlite3';
import { InvariantError } from '../../core/errors.js';

/**
 * Who a state belongs to, kept in its `meta` table:
 * - `namespace`: random, drawn when the state is created, part of every client order id the state
 *   issues, so a new state directory on the same account never repeats an id an earlier one used;
 * - `account`: the exchange's user id of the account the state trades (its fingerprint), recorded at
 *   the first start against the exchange; a state is never used with another account.
 */
export const NAMESPACE_LENGTH = 5;
const NAMESPACE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const NAMESPACE_PATTERN = /^[a-z0-9]{5}$/;

/** A random namespace: 5 of [a-z0-9] (36^5, about 60 million). */
export function randomNamespace(): string {
  const bytes = randomBytes(NAMESPACE_LENGTH * 2);
  let text = '';
  // 2 bytes per character: the modulo bias of 65536 % 36 is negligible.
  for (let i = 0; i < NAMESPACE_LENGTH; i += 1) text += NAMESPACE_ALPHABET[bytes.readUInt16BE(i * 2) % NAMESPACE_ALPHABET.length] ?? 'a';
  return text;
}

export class StateIdentity {
  private readonly read: Statement<[string], { value: string }>;
  private readonly write: Statement<[string, string]>;
  private readonly transaction: (work: () => void) => void;

  constructor(
    db: Db,
    private readonly draw: () => string,
  ) {
    this.read = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.write = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.transaction = db.transaction((work: () => void) => work());
    // A state made before namespaces existed gets one now: its older ids had none, so none can repeat.
    if (this.read.get('namespace') === undefined) this.write.run('namespace', this.drawValid());
  }

  get namespace(): string {
    const row = this.read.get('namespace');
    if (row === undefined) throw new InvariantError('STATE_NO_NAMESPACE', 'the state has no namespace');
    return row.value;
  }

  /** The exchange user id this state trades, once recorded. */
  get account(): string | undefined {
    return this.read.get('account')?.value;
  }

  /**
   * Binds a state that has no account yet to `userId`, first drawing a new namespace while the current
   * one is among `taken` (namespaces of ids the account already has). One commit.
   */
  bind(userId: string, taken: ReadonlySet<string>): void {
    if (this.account !== undefined) throw new InvariantError('STATE_BOUND', `the state already belongs to account ${this.account}`);
    this.transaction(() => {
      let namespace = this.namespace;
      for (let attempt = 0; taken.has(namespace); attempt += 1) {
        if (attempt >= 100) throw new InvariantError('STATE_NAMESPACE_EXHAUSTED', 'no free namespace after 100 draws');
        namespace = this.drawValid();
      }
      this.write.run('namespace', namespace);
      this.write.run('account', userId);
    });
  }

  private drawValid(): string {
    const namespace = this.draw();
    if (!NAMESPACE_PATTERN.test(namespace)) throw new InvariantError('STATE_BAD_NAMESPACE', `namespace ${namespace} is not 5 of [a-z0-9]`);
    return namespace;
  }
}
