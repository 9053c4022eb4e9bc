import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { Cache } from '../../../src/engine/cache.js';
import { LEDGER_FILL_CHUNK, LEDGER_FILL_MEMORY } from '../../../src/engine/ledger/book.js';
import { ledgerFillsKey } from '../../../src/engine/ledger/codec.js';
import { LEDGER_STATE_KEY, Ledgers } from '../../../src/engine/ledger/ledgers.js';
import type { KeyValueStore } from '../../../src/model/journal.js';
import type { Fill } from '../../../src/model/orders.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { tmpStateDir } from '../../store/tmp-state-dir.js';

/**
 * The ledgers' booked trade ids in the daemon's state file (SQLite): kept in chunks of their own keys so a
 * fill's save writes the main record with at most one open run of ids, not all 5,000 remembered ones; a
 * restart finds every remembered id again (a fill delivered twice is booked once), also after a crash
 * between the writes of one save, and a state file of the old one-record form is still read.
 */

const BTC = 'BTC-SWAP-USDT';
const STORE = '@ledgers';

function fill(n: number): Fill {
  return { symbol: BTC, tradeId: String(1_000_000 + n), orderId: String(n), clientOrderId: `alpha-${n}`, side: 'BUY', positionSide: 'LONG', price: dec(100), qty: dec(1), fee: dec('0.01'), feeAsset: 'USDT', isMaker: true, realizedPnl: dec(0), time: 1_000 + n };
}

function ledgersOn(store: KeyValueStore): Ledgers {
  return new Ledgers({ cache: new Cache(), clock: { now: () => 0 }, store, strategyIds: ['alpha'], owners: { ownerOf: (id) => (id.startsWith('alpha-') ? 'alpha' : undefined) }, logger: silentLogger });
}

function book(ledgers: Ledgers, from: number, to: number): void {
  for (let n = from; n < to; n++) ledgers.onEvent({ type: 'account.fill', source: 'stream', time: 1_000 + n, fill: fill(n) });
}

function held(ledgers: Ledgers): string {
  return ledgers.position('alpha', BTC, 'LONG')?.qty.toFixed() ?? '0';
}

/** Commits reach the operating system, not the disk (`durability: os`): a crashed process loses none of them. */
function open(dir: string): StateStore {
  const opened = StateStore.open(dir, { synchronous: 'NORMAL' });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

/** A store that records every write and delete, and can be made to fail (a crash) at the k-th of them. */
class RecordingStore implements KeyValueStore {
  readonly writes: Array<{ key: string; size: number }> = [];
  crashAt: number | undefined;
  constructor(private readonly inner: KeyValueStore) {}
  get(key: string): unknown {
    return this.inner.get(key);
  }
  set(key: string, value: unknown): void {
    this.step();
    this.writes.push({ key, size: JSON.stringify(value).length });
    this.inner.set(key, value);
  }
  delete(key: string): void {
    this.step();
    this.inner.delete(key);
  }
  keys(): readonly string[] {
    return this.inner.keys();
  }
  private step(): void {
    if (this.crashAt !== undefined && this.crashAt-- === 0) throw new Error('crash');
  }
}

describe('booked trade ids in the state file', () => {
  test('a fill writes one small record; after a restart every remembered id is still booked, the oldest chunks forgotten', () => {
    const tmp = tmpStateDir();
    try {
      let state = open(tmp.dir);
      const total = LEDGER_FILL_MEMORY + 3 * LEDGER_FILL_CHUNK + 17;
      const recording = new RecordingStore(state.keyValue(STORE));
      const first = ledgersOn(recording);
      book(first, 0, total);
      expect(held(first)).toBe(String(total));
      // Every write is the main record (with an open run below one chunk) or one sealed chunk: none holds all the ids.
      const mainSizes = recording.writes.filter((w) => w.key === LEDGER_STATE_KEY).map((w) => w.size);
      expect(mainSizes).toHaveLength(total);
      const chunkWrites = recording.writes.filter((w) => w.key !== LEDGER_STATE_KEY);
      expect(chunkWrites).toHaveLength(Math.floor(total / LEDGER_FILL_CHUNK));
      // (The old form wrote every remembered id, up to LEDGER_FILL_MEMORY of them, on every fill.)
      expect(Math.max(...mainSizes)).toBeLessThan(`"${BTC}/${fill(0).tradeId}",`.length * LEDGER_FILL_CHUNK + 2_000);
      const chunkKeys = state
        .keyValue(STORE)
        .keys()
        .filter((k) => k !== LEDGER_STATE_KEY);
      // At least the newest LEDGER_FILL_MEMORY ids are kept; the oldest chunk goes once the newer ones hold that many.
      expect(chunkKeys.length * LEDGER_FILL_CHUNK + (total % LEDGER_FILL_CHUNK)).toBeGreaterThanOrEqual(LEDGER_FILL_MEMORY);
      expect((chunkKeys.length - 1) * LEDGER_FILL_CHUNK).toBeLessThan(LEDGER_FILL_MEMORY);

      state.close();
      state = open(tmp.dir);
      const second = ledgersOn(state.keyValue(STORE));
      expect(second.all()).toEqual(first.all());
      // A resync delivering the newest LEDGER_FILL_MEMORY fills again books none of them twice.
      book(second, total - LEDGER_FILL_MEMORY, total);
      expect(held(second)).toBe(String(total));
      // One the memory let go of is booked again (as before: only recent ones come twice).
      book(second, 0, 1);
      expect(held(second)).toBe(String(total + 1));
      state.close();
    } finally {
      tmp.remove();
    }
  });

  test('a crash between the writes of a save: the restart finds every id booked before it, and no chunk the record does not list', () => {
    // Each crash point of the save that seals the first chunk (its chunk write, its record write), and of
    // the first save that forgets the oldest chunk (its record write after the new chunk's, its delete).
    const sealing = LEDGER_FILL_CHUNK;
    const forgetting = Math.ceil((LEDGER_FILL_MEMORY + LEDGER_FILL_CHUNK) / LEDGER_FILL_CHUNK) * LEDGER_FILL_CHUNK;
    for (const [atFill, crashAt] of [
      [sealing, 0],
      [sealing, 1],
      [forgetting, 1],
      [forgetting, 2],
    ] as const) {
      const tmp = tmpStateDir();
      try {
        let state = open(tmp.dir);
        const recording = new RecordingStore(state.keyValue(STORE));
        const first = ledgersOn(recording);
        book(first, 0, atFill - 1);
        recording.crashAt = crashAt;
        expect(() => book(first, atFill - 1, atFill)).toThrow('crash');
        state.close();

        state = open(tmp.dir);
        const store = state.keyValue(STORE);
        const second = ledgersOn(store);
        // The fill whose save crashed counts as booked only if its record was written.
        const bookedBefore = Number(held(second));
        expect([atFill - 1, atFill]).toContain(bookedBefore);
        // Everything booked is remembered: delivering the newest again books nothing.
        book(second, Math.max(0, bookedBefore - LEDGER_FILL_MEMORY), bookedBefore);
        expect(held(second)).toBe(String(bookedBefore));
        // Orphaned chunks (written before a record that never came, or not deleted after one) are gone.
        const listed = (store.get(LEDGER_STATE_KEY) as { chunks: number[] }).chunks.map((n) => ledgerFillsKey(LEDGER_STATE_KEY, n));
        expect(
          store
            .keys()
            .filter((k) => k !== LEDGER_STATE_KEY)
            .sort(),
        ).toEqual([...listed].sort());
        state.close();
      } finally {
        tmp.remove();
      }
    }
  });

  test('a state file of the old form (every id in the one record) is read, and rewritten in chunks at the next save', () => {
    const tmp = tmpStateDir();
    try {
      let state = open(tmp.dir);
      const ids = Array.from({ length: LEDGER_FILL_MEMORY }, (_, n) => `${BTC}/${fill(n).tradeId}`);
      const position = { owner: 'alpha', symbol: BTC, positionSide: 'LONG', qty: String(LEDGER_FILL_MEMORY), avgPrice: '100', realizedPnl: '0', fees: '50', funding: '0', updateTime: 1_000 };
      state.keyValue(STORE).set(LEDGER_STATE_KEY, { version: 1, positions: [position], fills: ids });
      const first = ledgersOn(state.keyValue(STORE));
      book(first, 0, LEDGER_FILL_MEMORY);
      expect(held(first)).toBe(String(LEDGER_FILL_MEMORY));
      book(first, LEDGER_FILL_MEMORY, LEDGER_FILL_MEMORY + 1);
      expect(held(first)).toBe(String(LEDGER_FILL_MEMORY + 1));
      const record = state.keyValue(STORE).get(LEDGER_STATE_KEY) as { version: number; fills: string[]; chunks: number[] };
      expect(record.version).toBe(2);
      expect(record.fills.length).toBeLessThan(LEDGER_FILL_CHUNK);
      state.close();

      state = open(tmp.dir);
      const second = ledgersOn(state.keyValue(STORE));
      book(second, 1, LEDGER_FILL_MEMORY + 1);
      expect(held(second)).toBe(String(LEDGER_FILL_MEMORY + 1));
      state.close();
    } finally {
      tmp.remove();
    }
  });
});
