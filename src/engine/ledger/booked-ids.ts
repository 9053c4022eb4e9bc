import { emptyObjectArray } from '../../core/empty-arrays.js';

/** A sealed run of booked trade ids, stored under its own key (`ledgerFillsKey(n)`), never changed once sealed. */
export interface BookedChunk {
  readonly n: number;
  readonly ids: readonly string[];
}

/** The booked trade ids as stored: the sealed chunks (oldest first) and the open run after them. */
export interface BookedIdsState {
  readonly chunks: readonly BookedChunk[];
  readonly open: readonly string[];
  /** False for ids read from the old one-record form: every chunk is still to be written. */
  readonly chunksStored: boolean;
}

/** What a save writes besides the main record: sealed chunks first, deletions of forgotten ones after it. */
export interface BookedChanges {
  readonly write: readonly BookedChunk[];
  readonly drop: readonly number[];
}

/** What a save writes when nothing was sealed or forgotten since the last: shared, never changed. */
const NO_CHANGES: BookedChanges = Object.freeze({ write: Object.freeze([]), drop: Object.freeze([]) });

/**
 * The trade ids the ledgers booked, remembered in order so that a restart finds them again, in a form a
 * key-value store can append to: ids gather in an open run of at most `chunk` ids (stored inside the main
 * record, so an id is saved in the same write as the fill's booking), and a full run is sealed into a
 * chunk of its own key, written once. The oldest chunk is forgotten as soon as the newer ones hold at
 * least `memory` ids, so between `memory` and `memory + chunk − 1` of the newest ids are remembered.
 *
 * A save writes new chunks before the main record that lists them and deletes forgotten chunks after the
 * record that no longer lists them: a crash between two writes leaves an unlisted chunk (ignored and
 * removed at the next start), never a listed one missing. Each save writes at most one open run instead
 * of every remembered id.
 */
export class BookedTradeIds {
  private readonly ids = new Set<string>();
  private readonly sealed: BookedChunk[] = emptyObjectArray();
  private open: string[] = emptyObjectArray();
  private nextChunk = 0;
  private remembered = 0;
  private unwritten: BookedChunk[] = emptyObjectArray();
  private dropped: number[] = [];
  /** The sealed chunks' numbers as `record` hands them out, made again only once the chunks changed. */
  private chunkNumbers: readonly number[] | undefined;

  constructor(
    private readonly memory: number,
    private readonly chunk: number,
    state?: BookedIdsState,
  ) {
    if (state === undefined) return;
    for (const c of state.chunks) {
      this.sealed.push(c);
      if (!state.chunksStored) this.unwritten.push(c);
      this.nextChunk = c.n + 1;
      this.remembered += c.ids.length;
      for (const id of c.ids) this.ids.add(id);
    }
    this.open = [...state.open];
    this.remembered += this.open.length;
    for (const id of this.open) this.ids.add(id);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    this.open.push(id);
    this.remembered += 1;
    if (this.open.length < this.chunk) return;
    const sealed = { n: this.nextChunk, ids: this.open };
    this.nextChunk += 1;
    this.open = emptyObjectArray();
    this.sealed.push(sealed);
    this.unwritten.push(sealed);
    this.chunkNumbers = undefined;
    this.forgetOldest();
  }

  /**
   * The open run as it is now, to be copied only when read (every save makes a record, a backtest's store
   * reads none): its first `length` ids of `run`. The run is only ever appended to (a full run is sealed
   * as it is and a new one begun), so they stay what they are now. With the sealed chunks' numbers, oldest first.
   */
  record(): { readonly run: readonly string[]; readonly length: number; readonly chunks: readonly number[] } {
    this.chunkNumbers ??= this.sealed.map((c) => c.n);
    return { run: this.open, length: this.open.length, chunks: this.chunkNumbers };
  }

  /** Chunks to write before the main record and chunk numbers to delete after it, since the last call. */
  takeChanges(): BookedChanges {
    // Most saves (one per fill) find nothing sealed or forgotten: no fresh empty lists for them.
    if (this.unwritten.length === 0 && this.dropped.length === 0) return NO_CHANGES;
    const changes = { write: this.unwritten, drop: this.dropped };
    this.unwritten = emptyObjectArray();
    this.dropped = [];
    return changes;
  }

  private forgetOldest(): void {
    for (;;) {
      const oldest = this.sealed[0];
      if (oldest === undefined || this.remembered - oldest.ids.length < this.memory) return;
      this.sealed.shift();
      this.chunkNumbers = undefined;
      this.remembered -= oldest.ids.length;
      for (const id of oldest.ids) this.ids.delete(id);
      const pending = this.unwritten.indexOf(oldest);
      if (pending >= 0) this.unwritten.splice(pending, 1);
      else this.dropped.push(oldest.n);
    }
  }
}
