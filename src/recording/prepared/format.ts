import { Bool, Dictionary, DurationMillisecond, Field, Int32, Int8, List, TimestampMillisecond, Utf8 } from 'apache-arrow';
import type { DataType } from 'apache-arrow';

/**
 * The prepared form of a recording: one Apache Arrow IPC file (the "file" format, readable by pyarrow,
 * DuckDB, polars…), one row per market event in recording order, one column per field. Text stays text
 * (prices and quantities exactly as recorded, so events read back equal to the JSONL decoder's); repeated
 * text (kinds, symbols, prices, quantities, book levels) is dictionary-encoded, so reading it back decodes
 * each distinct value once. Columns a kind does not use are null in its rows.
 *
 * The schema's metadata under PREPARED_METADATA_KEY holds the format, its version, the sha256 and size of
 * the recording it was made from, the event count, the recording's header line and its torn last line, if
 * any. Changing what a column means changes PREPARED_VERSION: a file of another version is rebuilt.
 */
export const PREPARED_FORMAT = 'stratd-prepared-recording';
/** 2: bar events carry their source, duration and OHLCV (version 1 wrote a bar's kind and symbol only). */
export const PREPARED_VERSION = 2;
export const PREPARED_METADATA_KEY = 'stratd.prepared';

const text = (): Dictionary<Utf8, Int32> => new Dictionary(new Utf8(), new Int32());
const levels = (): List<Dictionary<Utf8, Int32>> => new List(new Field('item', text(), false));

/** Column name → Arrow type, in file order. */
export const PREPARED_COLUMNS = {
  ts: (): DataType => new TimestampMillisecond(),
  kind: (): DataType => new Dictionary(new Utf8(), new Int8()),
  symbol: text,
  /** trade, mark and index: the price. */
  price: text,
  /** trade: the quantity in contracts. */
  qty: text,
  trade_id: (): DataType => new Utf8(),
  buyer_is_maker: (): DataType => new Bool(),
  /** funding: the rate, its settlement time and period. */
  funding_rate: (): DataType => new Utf8(),
  next_funding_time: (): DataType => new TimestampMillisecond(),
  funding_period: (): DataType => new Dictionary(new Utf8(), new Int8()),
  /** depth: the book's levels, bids high→low and asks low→high, prices and quantities side by side. */
  bid_price: levels,
  bid_qty: levels,
  ask_price: levels,
  ask_qty: levels,
  /** bar: which price it describes (contract, mark, index), its length, and its open, high, low, close and volume as recorded. */
  bar_source: (): DataType => new Dictionary(new Utf8(), new Int8()),
  bar_duration: (): DataType => new DurationMillisecond(),
  bar_open: text,
  bar_high: text,
  bar_low: text,
  bar_close: text,
  bar_volume: text,
} as const;

export type PreparedColumnName = keyof typeof PREPARED_COLUMNS;

export const PREPARED_COLUMN_NAMES = Object.keys(PREPARED_COLUMNS) as PreparedColumnName[];

/** What the metadata says about the file. */
export interface PreparedMetadata {
  readonly format: typeof PREPARED_FORMAT;
  readonly version: typeof PREPARED_VERSION;
  /** sha256 (hex) of the recording file's bytes: the cache key. */
  readonly recordingSha256: string;
  readonly recordingBytes: number;
  readonly events: number;
  /** The recording's header line, as written by encodeHeader. */
  readonly header: string;
  /** The torn last line the JSONL reader skipped (line number and why), if any. */
  readonly torn?: { readonly line: number; readonly message: string };
}
