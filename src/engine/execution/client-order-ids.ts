import { createHash } from 'node:crypto';
import type { OrderJournal } from '../../model/journal.js';

/**
 * Deterministic client order ids: `<tag>-<ns>-<key>` for a keyed intent, `<tag>-<ns>-<n>` with the
 * strategy's persisted sequence otherwise, so a restart never reuses an id and a re-emitted intent maps
 * to the same order. `<ns>` is the state's namespace (5 of `[a-z0-9]`, drawn when the state directory
 * was created, store/state-file/identity.ts): a new state on the same account issues other ids than the
 * earlier one, whose keys and sequence it does not know. Without a namespace (backtests, whose
 * account lives and dies with the run) ids are `<tag>-<key>` and `<tag>-<n>`.
 *
 * The spec gives no length or alphabet for newClientOrderId; live replies show digits, letters, `-`,
 * `_` and a 36-character UUID (API-NOTES §4.11), so ids stay within `[A-Za-z0-9_-]{1,36}`.
 * Tags never contain `-`, so the first `-` splits tag from key and two strategies can never produce
 * the same id.
 */
export const CLIENT_ORDER_ID_MAX_LENGTH = 36;
const TAG_PLAIN = /^[A-Za-z0-9_]{1,16}$/;
const TAG_OF_ID = /^([A-Za-z0-9_]{1,20})-./;
const NAMESPACE_OF_ID = /^[A-Za-z0-9_]{1,20}-([a-z0-9]{5})-./;
/** Readable prefix kept from a strategy id that needs hashing. */
const TAG_PREFIX_LENGTH = 10;
const TAG_HASH_LENGTH = 6;
/** 80 bits: collisions between a strategy's keys stay negligible over years of orders. */
const KEY_HASH_LENGTH = 20;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The short stable form of a strategy id: itself when it is 1-16 of `[A-Za-z0-9_]`, else a cleaned
 * prefix and a hash of the whole id (`grid-btc` → `grid_btc_4f1a2b`).
 */
export function strategyTag(strategyId: string): string {
  if (TAG_PLAIN.test(strategyId)) return strategyId;
  // Every id of every order of a strategy with such an id starts with its tag: hashed once per id, not per order.
  let tag = hashedTags.get(strategyId);
  if (tag === undefined) {
    const prefix = strategyId.replace(/[^A-Za-z0-9_]/g, '_').slice(0, TAG_PREFIX_LENGTH);
    tag = `${prefix}_${sha256Hex(strategyId).slice(0, TAG_HASH_LENGTH)}`;
    if (hashedTags.size >= HASHED_TAGS_KEPT) hashedTags.clear();
    hashedTags.set(strategyId, tag);
  }
  return tag;
}

/** The tags `strategyTag` hashed, by strategy id (a process runs a handful of strategies; bounded all the same). */
const hashedTags = new Map<string, string>();
const HASHED_TAGS_KEPT = 1000;

function prefixOf(strategyId: string, namespace: string | undefined): string {
  return namespace === undefined ? `${strategyTag(strategyId)}-` : `${strategyTag(strategyId)}-${namespace}-`;
}

/**
 * The id of a keyed intent: `<tag>-<ns>-<key>` when the key is plain, not all digits (those belong to
 * the sequence) and fits; else `<tag>-<ns>-<hash of the key>` (12 to 20 hex digits: what fits).
 */
export function keyedClientOrderId(strategyId: string, key: string, namespace?: string): string {
  return keyedWithPrefix(prefixOf(strategyId, namespace), key);
}

function keyedWithPrefix(prefix: string, key: string): string {
  if (isPlainKey(key) && prefix.length + key.length <= CLIENT_ORDER_ID_MAX_LENGTH) return `${prefix}${key}`;
  return `${prefix}${sha256Hex(key).slice(0, Math.min(KEY_HASH_LENGTH, CLIENT_ORDER_ID_MAX_LENGTH - prefix.length))}`;
}

/**
 * Whether a key goes into the id as it is: 1 or more of `[A-Za-z0-9_-]`, not all digits (those are the
 * sequence's). A loop over the char codes, not regexes: this runs once per keyed order, with cold
 * caches, where V8 may have dropped a regex's compiled code since its last use.
 */
function isPlainKey(key: string): boolean {
  let digitsOnly = true;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    if (code >= 48 && code <= 57) continue; // 0-9
    digitsOnly = false;
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (!letter && code !== 95 && code !== 45) return false; // _ and -
  }
  return key.length > 0 && !digitsOnly;
}

export function sequencedClientOrderId(strategyId: string, sequence: number, namespace?: string): string {
  return sequencedWithPrefix(prefixOf(strategyId, namespace), sequence);
}

function sequencedWithPrefix(prefix: string, sequence: number): string {
  return `${prefix}${sequence}`;
}

/** The namespace an id of ours carries (`<tag>-<ns>-…`), or undefined. */
export function namespaceOfClientOrderId(clientOrderId: string): string | undefined {
  return clientOrderId.length <= CLIENT_ORDER_ID_MAX_LENGTH ? NAMESPACE_OF_ID.exec(clientOrderId)?.[1] : undefined;
}

/**
 * The sequence number of a sequenced id of ours in `namespace` (`<tag>-<ns>-<n>`), or undefined.
 * Hashed keys are at least 12 hex digits, so at most 10 digits are read as a sequence: a key hash that
 * happens to be all digits is never taken for one.
 */
export function sequenceOfClientOrderId(clientOrderId: string, namespace: string): number | undefined {
  const tag = tagOfClientOrderId(clientOrderId);
  if (tag === undefined) return undefined;
  const rest = clientOrderId.slice(tag.length + 1);
  if (!rest.startsWith(`${namespace}-`)) return undefined;
  const digits = rest.slice(namespace.length + 1);
  return /^[1-9]\d{0,9}$/.test(digits) ? Number(digits) : undefined;
}

/** The tag an id of ours starts with, or undefined for an id of another format. */
export function tagOfClientOrderId(clientOrderId: string): string | undefined {
  return clientOrderId.length <= CLIENT_ORDER_ID_MAX_LENGTH ? TAG_OF_ID.exec(clientOrderId)?.[1] : undefined;
}

/** The strategy among `strategyIds` whose tag starts `clientOrderId`. */
export function strategyOfClientOrderId(clientOrderId: string, strategyIds: Iterable<string>): string | undefined {
  const tag = tagOfClientOrderId(clientOrderId);
  if (tag === undefined) return undefined;
  for (const id of strategyIds) if (strategyTag(id) === tag) return id;
  return undefined;
}

/** Issues ids in a state's namespace; unkeyed ones draw on the journal's persistent per-strategy sequence. */
export class ClientOrderIds {
  constructor(
    private readonly journal: Pick<OrderJournal, 'nextSequence'>,
    private readonly namespace?: string,
  ) {}

  /** Each strategy's `<tag>-<ns>-`, made at its first id (its tag is checked or hashed once). */
  private readonly prefixes = new Map<string, string>();

  clientOrderId(strategyId: string, key?: string): string {
    let prefix = this.prefixes.get(strategyId);
    if (prefix === undefined) {
      prefix = prefixOf(strategyId, this.namespace);
      this.prefixes.set(strategyId, prefix);
    }
    return key === undefined ? sequencedWithPrefix(prefix, this.journal.nextSequence(strategyId)) : keyedWithPrefix(prefix, key);
  }
}
