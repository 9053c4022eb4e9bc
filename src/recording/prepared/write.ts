import { Bool, Dictionary, DurationMillisecond, Field, Int32, Int8, List, makeData, makeVector, Table, tableToIPC, TimestampMillisecond, Utf8 } from 'apache-arrow';
import type { Data } from 'apache-arrow';
import type { MarketEvent, PriceLevel } from '../../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { encodeHeader } from '../../sim/market-stream/format.js';
import type { PreparedColumnName, PreparedMetadata } from './format.js';
import { PREPARED_COLUMN_NAMES, PREPARED_FORMAT, PREPARED_METADATA_KEY, PREPARED_VERSION } from './format.js';

export interface PreparedContent {
  readonly header: MarketStreamHeader;
  /** Every event of the recording, in recording order. */
  readonly events: readonly MarketEvent[];
  readonly recordingSha256: string;
  readonly recordingBytes: number;
  readonly torn?: { readonly line: number; readonly message: string };
}

/** The recording as an Arrow IPC file (bytes), one record batch; columns are built directly (Arrow's builders take several times a JSONL parse). */
export function encodePrepared(content: PreparedContent): Uint8Array {
  const { events } = content;
  const n = events.length;
  const ts = new BigInt64Array(n);
  const kind = new DictionaryColumn(n, new Int8());
  const symbol = new DictionaryColumn(n, new Int32());
  const price = new DictionaryColumn(n, new Int32());
  const qty = new DictionaryColumn(n, new Int32());
  const tradeId = new TextColumn(n);
  const buyerIsMaker = new BoolColumn(n);
  const rate = new TextColumn(n);
  const nextFunding = new TimeColumn(n);
  const period = new DictionaryColumn(n, new Int8());
  const bidPrice = new LevelColumn(n);
  const bidQty = new LevelColumn(n);
  const askPrice = new LevelColumn(n);
  const askQty = new LevelColumn(n);
  const barSource = new DictionaryColumn(n, new Int8());
  const barDuration = new TimeColumn(n, new DurationMillisecond());
  const barOpen = new DictionaryColumn(n, new Int32());
  const barHigh = new DictionaryColumn(n, new Int32());
  const barLow = new DictionaryColumn(n, new Int32());
  const barClose = new DictionaryColumn(n, new Int32());
  const barVolume = new DictionaryColumn(n, new Int32());
  for (let i = 0; i < n; i++) {
    const event = events[i]!;
    ts[i] = BigInt(event.ts);
    kind.set(i, event.type);
    symbol.set(i, event.symbol);
    if (event.type === 'depth') {
      bidPrice.set(i, event.bids, 0);
      bidQty.set(i, event.bids, 1);
      askPrice.set(i, event.asks, 0);
      askQty.set(i, event.asks, 1);
    } else {
      bidPrice.none(i);
      bidQty.none(i);
      askPrice.none(i);
      askQty.none(i);
    }
    if (event.type === 'trade') {
      qty.set(i, event.qty);
      tradeId.set(i, event.id);
      buyerIsMaker.set(i, event.buyerIsMaker);
    }
    if (event.type === 'trade' || event.type === 'mark' || event.type === 'index') price.set(i, event.price);
    if (event.type === 'funding') {
      rate.set(i, event.rate);
      nextFunding.set(i, event.nextFundingTime);
      period.set(i, event.period);
    }
    if (event.type === 'bar') {
      barSource.set(i, event.source);
      barDuration.set(i, event.durationMs);
      barOpen.set(i, event.open);
      barHigh.set(i, event.high);
      barLow.set(i, event.low);
      barClose.set(i, event.close);
      barVolume.set(i, event.volume);
    }
  }
  const vectors: Record<PreparedColumnName, Data> = {
    ts: makeData({ type: new TimestampMillisecond(), length: n, nullCount: 0, data: ts }),
    kind: kind.data(),
    symbol: symbol.data(),
    price: price.data(),
    qty: qty.data(),
    trade_id: tradeId.data(),
    buyer_is_maker: buyerIsMaker.data(),
    funding_rate: rate.data(),
    next_funding_time: nextFunding.data(),
    funding_period: period.data(),
    bid_price: bidPrice.data(),
    bid_qty: bidQty.data(),
    ask_price: askPrice.data(),
    ask_qty: askQty.data(),
    bar_source: barSource.data(),
    bar_duration: barDuration.data(),
    bar_open: barOpen.data(),
    bar_high: barHigh.data(),
    bar_low: barLow.data(),
    bar_close: barClose.data(),
    bar_volume: barVolume.data(),
  };
  const table = new Table(Object.fromEntries(PREPARED_COLUMN_NAMES.map((name) => [name, makeVector(vectors[name])])));
  const metadata: PreparedMetadata = {
    format: PREPARED_FORMAT,
    version: PREPARED_VERSION,
    recordingSha256: content.recordingSha256,
    recordingBytes: content.recordingBytes,
    events: n,
    header: encodeHeader(content.header),
    ...(content.torn === undefined ? {} : { torn: content.torn }),
  };
  table.schema.metadata.set(PREPARED_METADATA_KEY, JSON.stringify(metadata));
  return tableToIPC(table, 'file');
}

/** Validity bits (set: a value), as Arrow lays them out. */
class Validity {
  readonly bits: Uint8Array;
  nulls = 0;

  constructor(length: number) {
    this.bits = new Uint8Array(((length + 63) >> 6) << 3);
  }

  valid(row: number): void {
    this.bits[row >> 3]! |= 1 << (row & 7);
  }

  props(): { nullCount: number; nullBitmap?: Uint8Array } {
    return this.nulls === 0 ? { nullCount: 0 } : { nullCount: this.nulls, nullBitmap: this.bits };
  }
}

/** Text dictionary-encoded as it comes: each distinct value gets the next index. */
class DictionaryColumn<I extends Int8 | Int32 = Int8 | Int32> {
  private readonly validity: Validity;
  private readonly indices: Int8Array | Int32Array;
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];

  constructor(
    private readonly length: number,
    private readonly index: I,
  ) {
    this.validity = new Validity(length);
    this.indices = index instanceof Int8 ? new Int8Array(length) : new Int32Array(length);
  }

  set(row: number, value: string): void {
    this.validity.valid(row);
    this.indices[row] = this.idOf(value);
  }

  idOf(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      if (this.index instanceof Int8 && id > 127) throw new RangeError(`more than 128 distinct values in an Int8 dictionary (${value})`);
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** Every row holds a value (list children). */
  dense(indices: Int32Array): Data {
    return makeData({ type: new Dictionary(new Utf8(), new Int32()), length: indices.length, nullCount: 0, data: indices, dictionary: makeVector(utf8Data(this.values)) });
  }

  data(): Data {
    this.validity.nulls = this.length - countValid(this.validity.bits, this.length);
    return makeData({ type: new Dictionary(new Utf8(), this.index), length: this.length, ...this.validity.props(), data: this.indices, dictionary: makeVector(utf8Data(this.values)) });
  }
}

class TextColumn {
  private readonly validity: Validity;
  private readonly values: Array<string | undefined>;

  constructor(private readonly length: number) {
    this.validity = new Validity(length);
    this.values = new Array<string | undefined>(length);
  }

  set(row: number, value: string): void {
    this.validity.valid(row);
    this.values[row] = value;
  }

  data(): Data {
    this.validity.nulls = this.length - countValid(this.validity.bits, this.length);
    const encoded = utf8Data(this.values);
    return makeData({ type: new Utf8(), length: this.length, ...this.validity.props(), valueOffsets: encoded.valueOffsets, data: encoded.values });
  }
}

class BoolColumn {
  private readonly validity: Validity;
  private readonly bits: Uint8Array;

  constructor(private readonly length: number) {
    this.validity = new Validity(length);
    this.bits = new Uint8Array(this.validity.bits.length);
  }

  set(row: number, value: boolean): void {
    this.validity.valid(row);
    if (value) this.bits[row >> 3]! |= 1 << (row & 7);
  }

  data(): Data {
    this.validity.nulls = this.length - countValid(this.validity.bits, this.length);
    return makeData({ type: new Bool(), length: this.length, ...this.validity.props(), data: this.bits });
  }
}

/** Whole milliseconds as Int64: a time (the default) or a duration. */
class TimeColumn {
  private readonly validity: Validity;
  private readonly values: BigInt64Array;

  constructor(
    private readonly length: number,
    private readonly type: TimestampMillisecond | DurationMillisecond = new TimestampMillisecond(),
  ) {
    this.validity = new Validity(length);
    this.values = new BigInt64Array(length);
  }

  set(row: number, value: number): void {
    this.validity.valid(row);
    this.values[row] = BigInt(value);
  }

  data(): Data {
    this.validity.nulls = this.length - countValid(this.validity.bits, this.length);
    const props = { length: this.length, ...this.validity.props(), data: this.values };
    return this.type instanceof DurationMillisecond ? makeData({ type: this.type, ...props }) : makeData({ type: this.type, ...props });
  }
}

/** One side's prices or quantities per depth row: a list of dictionary-encoded text. */
class LevelColumn {
  private readonly validity: Validity;
  private readonly offsets: Int32Array;
  private readonly dictionary = new DictionaryColumn(0, new Int32());
  private indices: number[] = [];

  constructor(private readonly length: number) {
    this.validity = new Validity(length);
    this.offsets = new Int32Array(length + 1);
  }

  set(row: number, levels: readonly PriceLevel[], field: 0 | 1): void {
    this.validity.valid(row);
    for (const level of levels) this.indices.push(this.dictionary.idOf(level[field]));
    this.offsets[row + 1] = this.indices.length;
  }

  none(row: number): void {
    this.offsets[row + 1] = this.indices.length;
  }

  data(): Data {
    this.validity.nulls = this.length - countValid(this.validity.bits, this.length);
    const child = this.dictionary.dense(Int32Array.from(this.indices));
    this.indices = [];
    return makeData({ type: new List(new Field('item', child.type, false)), length: this.length, ...this.validity.props(), valueOffsets: this.offsets, child });
  }
}

function countValid(bits: Uint8Array, length: number): number {
  let valid = 0;
  for (let row = 0; row < length; row++) valid += (bits[row >> 3]! >> (row & 7)) & 1;
  return valid;
}

const encoder = new TextEncoder();

/** Utf8 offsets and bytes of `values` (a missing value is empty): encoded in one go when all is ASCII. */
function utf8Data(values: ReadonlyArray<string | undefined>): Data<Utf8> {
  const offsets = new Int32Array(values.length + 1);
  const whole = values.map((v) => v ?? '').join('');
  if (/^[\x00-\x7f]*$/.test(whole)) {
    for (let i = 0; i < values.length; i++) offsets[i + 1] = offsets[i]! + (values[i]?.length ?? 0);
    return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data: encoder.encode(whole) });
  }
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for (let i = 0; i < values.length; i++) {
    const part = encoder.encode(values[i] ?? '');
    parts.push(part);
    bytes += part.length;
    offsets[i + 1] = bytes;
  }
  const data = new Uint8Array(bytes);
  for (let i = 0; i < parts.length; i++) data.set(parts[i]!, offsets[i]!);
  return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data });
}
