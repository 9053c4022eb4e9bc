import { tableFromIPC } from 'apache-arrow';
import type { Data, Table } from 'apache-arrow';
import { InvariantError } from '../../core/errors.js';
import type { BarSource, FundingPeriod, MarketChannel, MarketEvent, PriceLevel } from '../../sim/market-stream/events.js';
import { BAR_SOURCES, FUNDING_PERIODS, STREAM_CHANNELS } from '../../sim/market-stream/events.js';
import { isSignedDecimal, isUnsignedDecimal } from '../../sim/market-stream/event-lines.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { parseHeader } from '../../sim/market-stream/format.js';
import type { StepGrid } from '../../sim/market-stream/ticks.js';
import type { DepthRows } from '../replay-events.js';
import { ReplayDepth, ReplayTrade } from '../replay-events.js';
import { DictionaryUnits } from './dictionary-units.js';
import type { PreparedColumnName, PreparedMetadata } from './format.js';
import { PREPARED_COLUMN_NAMES, PREPARED_COLUMNS, PREPARED_FORMAT, PREPARED_METADATA_KEY, PREPARED_VERSION } from './format.js';

/** A prepared file that cannot be trusted: the cache ignores it and rebuilds it from the recording. */
export class PreparedFormatError extends Error {
  override readonly name = 'PreparedFormatError';
}

const KIND_DEPTH = 0;
const KIND_TRADE = 1;
const KIND_MARK = 2;
const KIND_INDEX = 3;
const KIND_FUNDING = 4;
const KIND_BAR = 5;
const KIND_CODES: Readonly<Record<MarketChannel, number>> = { depth: KIND_DEPTH, trade: KIND_TRADE, mark: KIND_MARK, index: KIND_INDEX, funding: KIND_FUNDING, bar: KIND_BAR };

/** A dictionary-encoded text column: each row's index into its distinct values. */
interface Coded {
  readonly indices: Int32Array;
  readonly text: readonly string[];
}

/** The bar columns: source, duration, and OHLCV as decimal text. */
interface Bars {
  readonly sources: Int8Array;
  readonly sourceNames: readonly BarSource[];
  readonly durations: Float64Array;
  readonly open: Coded;
  readonly high: Coded;
  readonly low: Coded;
  readonly close: Coded;
  readonly volume: Coded;
}

interface Levels {
  readonly offsets: Int32Array;
  readonly indices: Int32Array;
  readonly dictionary: readonly string[];
}

/** A depth row's sides from the level columns (which never change), for ReplayDepth. */
class ColumnDepthRows implements DepthRows {
  // The levels as constructor arguments, not one object literal read through: a literal made once per
  // backtest gets its boilerplate on the second backtest, which widened its fields' types and deoptimized
  // the depth path's hot readers (`bids`, `asks`, the simulator's book sweep) in the process's run 2.
  constructor(
    private readonly bidPrice: Levels,
    private readonly bidQty: Levels,
    private readonly askPrice: Levels,
    private readonly askQty: Levels,
  ) {}

  bids(row: number): PriceLevel[] {
    return levelPairs(this.bidPrice, this.bidQty, row);
  }

  asks(row: number): PriceLevel[] {
    return levelPairs(this.askPrice, this.askQty, row);
  }

  bestBid(row: number): string | undefined {
    return firstPrice(this.bidPrice, row);
  }

  bestAsk(row: number): string | undefined {
    return firstPrice(this.askPrice, row);
  }
}

/** The price text of a row's first level on one side, undefined when the side has none. */
function firstPrice(prices: Levels, row: number): string | undefined {
  const start = prices.offsets[row]!;
  return start === prices.offsets[row + 1]! ? undefined : prices.dictionary[prices.indices[start]!];
}

/** The units of a row's first level on one side (`firstPrice` as units), undefined when the side has none. */
function firstUnits(prices: Levels, units: DictionaryUnits, row: number, grid: StepGrid): number | undefined {
  const start = prices.offsets[row]!;
  return start === prices.offsets[row + 1]! ? undefined : units.units(prices.indices[start]!, grid);
}

/** Text of a plain Utf8 column: the whole buffer decoded once, each value a slice (per-value decoding when not ASCII). */
interface TextColumn {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  get(row: number): string;
}

/**
 * Everything a PreparedColumns holds as structured-cloneable data, its arrays in shared memory: what a
 * sweep's main thread hands its worker threads (`PreparedColumns.fromShared`), so that each of them
 * neither reads nor decodes the prepared file again and all of them read the same column bytes.
 */
export interface SharedColumns {
  readonly header: MarketStreamHeader;
  readonly metadata: PreparedMetadata;
  readonly ts: Float64Array;
  readonly kinds: Uint8Array;
  readonly symbols: Int32Array;
  readonly symbolNames: readonly string[];
  readonly price: Int32Array;
  readonly priceText: readonly string[];
  readonly qty: Int32Array;
  readonly qtyText: readonly string[];
  readonly tradeIds: { readonly offsets: Int32Array; readonly bytes: Uint8Array };
  readonly buyerIsMaker: Uint8Array;
  readonly fundingRates: { readonly offsets: Int32Array; readonly bytes: Uint8Array };
  readonly nextFundingTimes: Float64Array;
  readonly periods: Int8Array;
  readonly periodNames: readonly FundingPeriod[];
  readonly bidPrice: Levels;
  readonly bidQty: Levels;
  readonly askPrice: Levels;
  readonly askQty: Levels;
  readonly bars: Bars;
}

/**
 * One prepared recording in memory, checked as the JSONL reader checks its lines (kinds and symbols the
 * header declares, times in order and not before the start, decimal text, the fields each kind needs),
 * and read back event by event: `event(row)` builds the same event the JSONL decoder builds from that line.
 */
export class PreparedColumns {
  private constructor(
    readonly header: MarketStreamHeader,
    readonly metadata: PreparedMetadata,
    /** Event times (epoch ms). */
    readonly ts: Float64Array,
    private readonly kinds: Uint8Array,
    private readonly symbols: Int32Array,
    private readonly symbolNames: readonly string[],
    private readonly price: Int32Array,
    private readonly priceText: readonly string[],
    private readonly qty: Int32Array,
    private readonly qtyText: readonly string[],
    private readonly tradeIds: TextColumn,
    private readonly buyerIsMaker: Uint8Array,
    private readonly fundingRates: TextColumn,
    private readonly nextFundingTimes: Float64Array,
    private readonly periods: Int8Array,
    private readonly periodNames: readonly FundingPeriod[],
    private readonly bidPrice: Levels,
    private readonly bidQty: Levels,
    private readonly askPrice: Levels,
    private readonly askQty: Levels,
    private readonly bars: Bars,
  ) {
    // Made here, not when first asked: a hot reader's once-per-backtest first branch has no type
    // feedback in the first backtest and deoptimized the reader in the second.
    this.depthRows = new ColumnDepthRows(bidPrice, bidQty, askPrice, askQty);
    this.priceUnitsOf = new DictionaryUnits(priceText);
    this.bidUnitsOf = new DictionaryUnits(bidPrice.dictionary);
    this.askUnitsOf = new DictionaryUnits(askPrice.dictionary);
  }

  /** The four level columns, handed to each depth event. */
  private readonly depthRows: ColumnDepthRows;
  /** The price dictionaries' texts as units, each converted when first asked. */
  private readonly priceUnitsOf: DictionaryUnits;
  private readonly bidUnitsOf: DictionaryUnits;
  private readonly askUnitsOf: DictionaryUnits;

  get size(): number {
    return this.ts.length;
  }

  /** Reads and checks an IPC file made by encodePrepared for the recording whose sha256 is `sha256`; throws PreparedFormatError. */
  static decode(bytes: Uint8Array, sha256: string): PreparedColumns {
    let table: Table;
    try {
      table = tableFromIPC(bytes);
    } catch (error) {
      throw new PreparedFormatError(`not an Arrow IPC file (${error instanceof Error ? error.message : String(error)})`);
    }
    const metadata = metadataOf(table, sha256);
    let header: MarketStreamHeader;
    try {
      header = parseHeader(JSON.parse(metadata.header) as unknown, 'prepared header');
    } catch (error) {
      throw new PreparedFormatError(`its recording header is not valid (${error instanceof Error ? error.message : String(error)})`);
    }
    if (table.numRows !== metadata.events) throw new PreparedFormatError(`it holds ${table.numRows} events, its metadata says ${metadata.events}`);
    const data = (name: PreparedColumnName): Data => {
      const column = table.getChild(name);
      if (column === null || String(column.type) !== String(PREPARED_COLUMNS[name]())) throw new PreparedFormatError(`column ${name} is missing or not ${String(PREPARED_COLUMNS[name]())}`);
      if (column.data.length > 1) throw new PreparedFormatError(`column ${name} is in ${column.data.length} batches, expected 1`);
      const only = column.data[0];
      if (only === undefined) throw new PreparedFormatError(`column ${name} has no data`);
      if (only.offset !== 0) throw new PreparedFormatError(`column ${name} starts at an offset`);
      return only;
    };
    const rows = table.numRows;
    if (rows === 0) return PreparedColumns.empty(header, metadata);
    for (const name of PREPARED_COLUMN_NAMES) data(name);
    const ts = timesOf(data('ts'));
    const kindData = data('kind');
    const kindNames = dictionaryOf(kindData);
    const kindCode = kindNames.map((name) => {
      const channel = STREAM_CHANNELS.find((c) => c === name);
      if (channel === undefined || !header.channels.includes(channel)) throw new PreparedFormatError(`kind ${name} is not a channel of the recording`);
      return KIND_CODES[channel];
    });
    const kinds = new Uint8Array(rows);
    const kindIndex = kindData.values as Int8Array;
    for (let i = 0; i < rows; i++) kinds[i] = kindCode[kindIndex[i]!] ?? 255;
    const symbolData = data('symbol');
    const symbolNames = dictionaryOf(symbolData).map(internalized);
    for (const name of symbolNames) if (!header.symbols.includes(name)) throw new PreparedFormatError(`symbol ${name} is not in the recording's header`);
    const priceData = data('price');
    const qtyData = data('qty');
    const periodData = data('funding_period');
    const periodNames = dictionaryOf(periodData).map((name) => {
      const period = FUNDING_PERIODS.find((p) => p === name);
      if (period === undefined) throw new PreparedFormatError(`funding period ${name} is not one of ${FUNDING_PERIODS.join(', ')}`);
      return period;
    });
    const barSourceData = data('bar_source');
    const barSourceNames = dictionaryOf(barSourceData).map((name) => {
      const source = BAR_SOURCES.find((s) => s === name);
      if (source === undefined) throw new PreparedFormatError(`bar source ${name} is not one of ${BAR_SOURCES.join(', ')}`);
      return source;
    });
    const coded = (name: 'bar_open' | 'bar_high' | 'bar_low' | 'bar_close' | 'bar_volume'): Coded => {
      const d = data(name);
      return { indices: d.values as Int32Array, text: decimals(dictionaryOf(d), name) };
    };
    const bars: Bars = {
      sources: barSourceData.values as Int8Array,
      sourceNames: barSourceNames,
      durations: timesOf(data('bar_duration')),
      open: coded('bar_open'),
      high: coded('bar_high'),
      low: coded('bar_low'),
      close: coded('bar_close'),
      volume: coded('bar_volume'),
    };
    const columns = new PreparedColumns(
      header,
      metadata,
      ts,
      kinds,
      symbolData.values as Int32Array,
      symbolNames,
      priceData.values as Int32Array,
      asJsonParses(decimals(dictionaryOf(priceData), 'price')),
      qtyData.values as Int32Array,
      asJsonParses(decimals(dictionaryOf(qtyData), 'qty')),
      textOf(data('trade_id')),
      data('buyer_is_maker').values as Uint8Array,
      textOf(data('funding_rate')),
      timesOf(data('next_funding_time')),
      periodData.values as Int8Array,
      periodNames,
      levelsOf(data('bid_price'), 'bid_price'),
      levelsOf(data('bid_qty'), 'bid_qty'),
      levelsOf(data('ask_price'), 'ask_price'),
      levelsOf(data('ask_qty'), 'ask_qty'),
      bars,
    );
    columns.check((name) => data(name));
    return columns;
  }

  private static empty(header: MarketStreamHeader, metadata: PreparedMetadata): PreparedColumns {
    const noText: TextColumn = { offsets: new Int32Array(1), bytes: new Uint8Array(0), get: () => '' };
    const noLevels: Levels = { offsets: new Int32Array(1), indices: new Int32Array(0), dictionary: [] };
    const none = new Int32Array(0);
    const noCoded: Coded = { indices: none, text: [] };
    const noBars: Bars = { sources: new Int8Array(0), sourceNames: [], durations: new Float64Array(0), open: noCoded, high: noCoded, low: noCoded, close: noCoded, volume: noCoded };
    return new PreparedColumns(header, metadata, new Float64Array(0), new Uint8Array(0), none, [], none, [], none, [], noText, new Uint8Array(0), noText, new Float64Array(0), new Int8Array(0), [], noLevels, noLevels, noLevels, noLevels, noBars);
  }

  /** These columns for `fromShared` in another thread: every array copied once into shared memory. */
  shared(): SharedColumns {
    const text = (column: TextColumn): SharedColumns['tradeIds'] => ({ offsets: inShared(column.offsets), bytes: inShared(column.bytes) });
    const levels = (l: Levels): Levels => ({ offsets: inShared(l.offsets), indices: inShared(l.indices), dictionary: l.dictionary });
    const coded = (c: Coded): Coded => ({ indices: inShared(c.indices), text: c.text });
    const b = this.bars;
    return {
      header: this.header,
      metadata: this.metadata,
      ts: inShared(this.ts),
      kinds: inShared(this.kinds),
      symbols: inShared(this.symbols),
      symbolNames: this.symbolNames,
      price: inShared(this.price),
      priceText: this.priceText,
      qty: inShared(this.qty),
      qtyText: this.qtyText,
      tradeIds: text(this.tradeIds),
      buyerIsMaker: inShared(this.buyerIsMaker),
      fundingRates: text(this.fundingRates),
      nextFundingTimes: inShared(this.nextFundingTimes),
      periods: inShared(this.periods),
      periodNames: this.periodNames,
      bidPrice: levels(this.bidPrice),
      bidQty: levels(this.bidQty),
      askPrice: levels(this.askPrice),
      askQty: levels(this.askQty),
      bars: { sources: inShared(b.sources), sourceNames: b.sourceNames, durations: inShared(b.durations), open: coded(b.open), high: coded(b.high), low: coded(b.low), close: coded(b.close), volume: coded(b.volume) },
    };
  }

  /** Columns another thread decoded and checked (`shared()`): nothing is checked again. */
  static fromShared(s: SharedColumns): PreparedColumns {
    return new PreparedColumns(
      s.header,
      s.metadata,
      s.ts,
      s.kinds,
      s.symbols,
      // Cloned strings are new strings in this thread: internalized again, as decode does, so symbols compare by address.
      s.symbolNames.map(internalized),
      s.price,
      s.priceText,
      s.qty,
      s.qtyText,
      textColumn(s.tradeIds.offsets, s.tradeIds.bytes),
      s.buyerIsMaker,
      textColumn(s.fundingRates.offsets, s.fundingRates.bytes),
      s.nextFundingTimes,
      s.periods,
      s.periodNames,
      s.bidPrice,
      s.bidQty,
      s.askPrice,
      s.askQty,
      s.bars,
    );
  }

  /** The checks the JSONL reader makes on each line, on every row (each distinct text once). */
  private check(data: (name: PreparedColumnName) => Data): void {
    // Each column's validity bitmap, undefined when it has no null (read inline per row: no closure call per row and column).
    const valid = (name: PreparedColumnName): Uint8Array | undefined => {
      const d = data(name);
      const bitmap = d.nullBitmap;
      return d.nullCount === 0 || bitmap === undefined || bitmap.length === 0 ? undefined : bitmap;
    };
    const has = {
      price: valid('price'),
      qty: valid('qty'),
      tradeId: valid('trade_id'),
      ibm: valid('buyer_is_maker'),
      rate: valid('funding_rate'),
      nft: valid('next_funding_time'),
      period: valid('funding_period'),
      bids: valid('bid_price'),
      bidQty: valid('bid_qty'),
      asks: valid('ask_price'),
      askQty: valid('ask_qty'),
      barSource: valid('bar_source'),
      barDuration: valid('bar_duration'),
      barOpen: valid('bar_open'),
      barHigh: valid('bar_high'),
      barLow: valid('bar_low'),
      barClose: valid('bar_close'),
      barVolume: valid('bar_volume'),
    };
    const bars = this.bars;
    const symbolCount = this.symbolNames.length;
    // The columns as locals: the loop runs once per row of the recording.
    const { ts: times, symbols, kinds, price, qty, bidPrice, bidQty, askPrice, askQty, nextFundingTimes, fundingRates, periods } = this;
    const priceCount = this.priceText.length;
    const qtyCount = this.qtyText.length;
    const periodCount = this.periodNames.length;
    let last = this.header.startTime;
    for (let row = 0; row < times.length; row++) {
      const ts = times[row]!;
      if (!Number.isSafeInteger(ts) || ts < last) throw new PreparedFormatError(`event ${row}: time ${ts} is before ${last} or not a whole millisecond`);
      last = ts;
      const symbol = symbols[row]!;
      if (!(symbol >= 0 && symbol < symbolCount)) throw new PreparedFormatError(`event ${row}: no symbol`);
      let ok: boolean;
      switch (kinds[row]) {
        case KIND_DEPTH:
          ok = isSet(has.bids, row) && isSet(has.bidQty, row) && isSet(has.asks, row) && isSet(has.askQty, row) && sameLengths(bidPrice, bidQty, row) && sameLengths(askPrice, askQty, row);
          break;
        case KIND_TRADE:
          ok = isSet(has.price, row) && isSet(has.qty, row) && isSet(has.tradeId, row) && isSet(has.ibm, row) && within(price[row]!, priceCount) && within(qty[row]!, qtyCount);
          break;
        case KIND_MARK:
        case KIND_INDEX:
          ok = isSet(has.price, row) && within(price[row]!, priceCount);
          break;
        case KIND_FUNDING: {
          const next = nextFundingTimes[row]!;
          ok = isSet(has.rate, row) && isSet(has.nft, row) && isSet(has.period, row) && isSignedDecimal(fundingRates.get(row)) && Number.isSafeInteger(next) && next >= 0 && within(periods[row]!, periodCount);
          break;
        }
        case KIND_BAR: {
          // As the JSONL reader: a known source, a whole positive number of milliseconds, OHLCV unsigned decimal text (checked with the dictionaries).
          const duration = bars.durations[row]!;
          const source = bars.sources[row]!;
          ok =
            isSet(has.barSource, row) &&
            isSet(has.barDuration, row) &&
            isSet(has.barOpen, row) &&
            isSet(has.barHigh, row) &&
            isSet(has.barLow, row) &&
            isSet(has.barClose, row) &&
            isSet(has.barVolume, row) &&
            within(source, bars.sourceNames.length) &&
            Number.isSafeInteger(duration) &&
            duration > 0 &&
            inDictionary(bars.open, row) &&
            inDictionary(bars.high, row) &&
            inDictionary(bars.low, row) &&
            inDictionary(bars.close, row) &&
            inDictionary(bars.volume, row);
          break;
        }
        default:
          ok = false;
      }
      if (!ok) throw new PreparedFormatError(`event ${row} lacks a field its kind needs`);
    }
  }

  /** Units of the price of `row` (a trade, mark or index row) on `grid`, each distinct text converted once; undefined when off the grid. */
  priceUnits(row: number, grid: StepGrid): number | undefined {
    return this.priceUnitsOf.units(this.price[row]!, grid);
  }

  /** Units of the best bid of `row` (a depth row) on `grid`, as `priceUnits`; undefined when the side has no level or the price is off the grid. */
  bestBidUnits(row: number, grid: StepGrid): number | undefined {
    return firstUnits(this.bidPrice, this.bidUnitsOf, row, grid);
  }

  bestAskUnits(row: number, grid: StepGrid): number | undefined {
    return firstUnits(this.askPrice, this.askUnitsOf, row, grid);
  }

  /** The event of `row`, as the JSONL decoder makes it from that line. */
  event(row: number): MarketEvent {
    const ts = this.ts[row]!;
    const symbol = this.symbolNames[this.symbols[row]!]!;
    switch (this.kinds[row]) {
      case KIND_DEPTH:
        return ReplayDepth.ofRow(ts, symbol, this.depthRows, row);
      case KIND_TRADE:
        return ReplayTrade.ofRow(ts, symbol, this.priceText[this.price[row]!]!, this.qtyText[this.qty[row]!]!, ((this.buyerIsMaker[row >> 3]! >> (row & 7)) & 1) === 1, this.tradeIds, row);
      case KIND_MARK:
        return { type: 'mark', ts, symbol, price: this.priceText[this.price[row]!]! };
      case KIND_INDEX:
        return { type: 'index', ts, symbol, price: this.priceText[this.price[row]!]! };
      case KIND_FUNDING:
        return { type: 'funding', ts, symbol, rate: this.fundingRates.get(row), nextFundingTime: this.nextFundingTimes[row]!, period: this.periodNames[this.periods[row]!]! };
      case KIND_BAR: {
        const b = this.bars;
        return {
          type: 'bar',
          ts,
          symbol,
          source: b.sourceNames[b.sources[row]!]!,
          durationMs: b.durations[row]!,
          open: b.open.text[b.open.indices[row]!]!,
          high: b.high.text[b.high.indices[row]!]!,
          low: b.low.text[b.low.indices[row]!]!,
          close: b.close.text[b.close.indices[row]!]!,
          volume: b.volume.text[b.volume.indices[row]!]!,
        };
      }
      default:
        throw new InvariantError('PREPARED_KIND', `prepared event ${row} has no kind (it was checked when read)`);
    }
  }
}

function metadataOf(table: Table, sha256: string): PreparedMetadata {
  const text = table.schema.metadata.get(PREPARED_METADATA_KEY);
  if (text === undefined) throw new PreparedFormatError('it has no stratd metadata');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PreparedFormatError('its stratd metadata is not JSON');
  }
  const m = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (m['format'] !== PREPARED_FORMAT) throw new PreparedFormatError(`its format is ${JSON.stringify(m['format'])}, not ${PREPARED_FORMAT}`);
  if (m['version'] !== PREPARED_VERSION) throw new PreparedFormatError(`it is version ${JSON.stringify(m['version'])}; this stratd writes version ${PREPARED_VERSION}`);
  if (m['recordingSha256'] !== sha256) throw new PreparedFormatError('it was made from another recording (sha256 differs)');
  const events = m['events'];
  const bytes = m['recordingBytes'];
  const header = m['header'];
  const torn = m['torn'] as Record<string, unknown> | undefined;
  if (typeof events !== 'number' || !Number.isSafeInteger(events) || typeof bytes !== 'number' || typeof header !== 'string') throw new PreparedFormatError('its stratd metadata lacks fields');
  if (torn !== undefined && (typeof torn !== 'object' || typeof torn['line'] !== 'number' || typeof torn['message'] !== 'string')) throw new PreparedFormatError('its torn-line note is not valid');
  return {
    format: PREPARED_FORMAT,
    version: PREPARED_VERSION,
    recordingSha256: sha256,
    recordingBytes: bytes,
    events,
    header,
    ...(torn === undefined ? {} : { torn: { line: torn['line'] as number, message: torn['message'] as string } }),
  };
}

/**
 * `text` as V8's internalized string, the copy it keeps of every property key (decoded text is a fresh
 * string). Every event carries its symbol into map and set lookups and comparisons against symbols from
 * the header, the configuration and literals, which are internalized: two internalized strings compare
 * by address, a decoded one by its characters, each time (a data-only replay spent ~10% there).
 */
function internalized(text: string): string {
  return Object.keys({ [text]: 0 })[0] ?? text;
}

/** A dictionary column's values, each decoded once (the whole buffer at a time when it is ASCII). */
function dictionaryOf(data: Data): string[] {
  const dictionary = data.dictionary;
  if (dictionary === undefined) throw new PreparedFormatError('a dictionary column has no dictionary');
  const values: string[] = [];
  for (const chunk of dictionary.data as Data[]) {
    if (chunk.nullCount > 0) throw new PreparedFormatError('a dictionary holds a null');
    const text = textOf(chunk);
    for (let i = 0; i < chunk.length; i++) values.push(text.get(i));
  }
  return values;
}

/**
 * `values` as the JSONL reader's JSON.parse makes text: V8 internalizes short values (prices,
 * quantities), and the kline builder's comparison of trade prices warmed on a JSONL replay's internalized
 * texts deoptimized on a prepared one's fresh strings ("wrong instance type"). One parse of the whole
 * dictionary; the trade, mark and index texts only (~4 ms for the sample's 31k): the depth levels' (~70k,
 * ~9 ms more) reach no such comparison.
 */
function asJsonParses(values: readonly string[]): string[] {
  return JSON.parse(JSON.stringify(values)) as string[];
}

function decimals(values: readonly string[], what: string): readonly string[] {
  for (const value of values) if (!isUnsignedDecimal(value)) throw new PreparedFormatError(`${what} ${JSON.stringify(value)} is not unsigned decimal text`);
  return values;
}

/** A copy of `array` in a SharedArrayBuffer of its own (a view of the IPC file's bytes shares none of the rest). */
function inShared<T extends Float64Array | Int32Array | Int8Array | Uint8Array>(array: T): T {
  const bytes = new Uint8Array(new SharedArrayBuffer(array.byteLength));
  bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return new (array.constructor as new (buffer: SharedArrayBuffer) => T)(bytes.buffer as SharedArrayBuffer);
}

/** Whether this platform stores numbers little-endian, as Arrow IPC buffers are (always, in practice). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_TO_32 = 4_294_967_296;

/**
 * An Int64 column as numbers: each value from its two 32-bit halves (high signed, low unsigned), which is
 * `Number(bigint)` to the bit — the high half times 2^32 is exact and the one addition rounds as the
 * conversion does — without a BigInt per row (`Number(raw[i])` was most of the load of a prepared file).
 */
function timesOf(data: Data): Float64Array {
  const raw = data.values as BigInt64Array;
  const out = new Float64Array(data.length);
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < out.length; i++) out[i] = Number(raw[i]);
    return out;
  }
  const halves = new Int32Array(raw.buffer, raw.byteOffset, raw.length * 2);
  for (let i = 0; i < out.length; i++) out[i] = halves[2 * i + 1]! * TWO_TO_32 + (halves[2 * i]! >>> 0);
  return out;
}

function textOf(data: Data): TextColumn {
  const offsets = data.valueOffsets as Int32Array | undefined;
  const bytes = data.values as Uint8Array | undefined;
  if (offsets === undefined || bytes === undefined || data.offset !== 0 || offsets.length < data.length + 1) throw new PreparedFormatError('a text column lacks its buffers');
  if (!ascending(offsets, data.length, bytes.length)) throw new PreparedFormatError('a text column\'s offsets are out of order or out of range');
  return textColumn(offsets, bytes);
}

/** A text column over checked offsets and bytes. */
function textColumn(offsets: Int32Array, bytes: Uint8Array): TextColumn {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 127) return new Utf8TextColumn(offsets, bytes, decoder);
  return new AsciiTextColumn(offsets, bytes, decoder.decode(bytes));
}

// Classes, not object literals with a closure each: a closure per loaded recording is another call
// target every backtest, and the event reader optimized in one deoptimized in the next ("wrong call target").

/** A text column of ASCII bytes only: each row a slice of the whole, decoded once. */
class AsciiTextColumn implements TextColumn {
  constructor(
    readonly offsets: Int32Array,
    readonly bytes: Uint8Array,
    private readonly whole: string,
  ) {}

  get(row: number): string {
    return this.whole.slice(this.offsets[row]!, this.offsets[row + 1]!);
  }
}

/** A text column with non-ASCII bytes: each row decoded when asked. */
class Utf8TextColumn implements TextColumn {
  constructor(
    readonly offsets: Int32Array,
    readonly bytes: Uint8Array,
    private readonly decoder: InstanceType<typeof TextDecoder>,
  ) {}

  get(row: number): string {
    return this.decoder.decode(this.bytes.subarray(this.offsets[row]!, this.offsets[row + 1]!));
  }
}

function levelsOf(data: Data, name: string): Levels {
  const child = data.children[0];
  if (child === undefined || child.offset !== 0) throw new PreparedFormatError(`column ${name} has no level values`);
  const dictionary = decimals(dictionaryOf(child), name);
  const indices = child.values as Int32Array;
  const offsets = data.valueOffsets as Int32Array | undefined;
  if (offsets === undefined || offsets.length < data.length + 1 || !ascending(offsets, data.length, child.length)) throw new PreparedFormatError(`column ${name}: its offsets are out of order or out of range`);
  for (let i = 0; i < child.length; i++) if (indices[i]! < 0 || indices[i]! >= dictionary.length) throw new PreparedFormatError(`column ${name}: a level outside its dictionary`);
  return { offsets, indices, dictionary };
}

/** offsets[0..rows] start at 0, never decrease and stay within `limit`. */
function ascending(offsets: Int32Array, rows: number, limit: number): boolean {
  if (offsets[0] !== 0) return false;
  for (let i = 1; i <= rows; i++) if (offsets[i]! < offsets[i - 1]! || offsets[i]! > limit) return false;
  return true;
}

/** Whether `row` is valid (not null) in a column's validity bitmap; no bitmap: every row is. */
function isSet(bitmap: Uint8Array | undefined, row: number): boolean {
  return bitmap === undefined || ((bitmap[row >> 3]! >> (row & 7)) & 1) === 1;
}

/** A dictionary index that names one of its `size` values (indices are signed: a negative one names none). */
function within(index: number, size: number): boolean {
  return index >= 0 && index < size;
}

function inDictionary(column: Coded, row: number): boolean {
  return within(column.indices[row]!, column.text.length);
}

function sameLengths(prices: Levels, quantities: Levels, row: number): boolean {
  return prices.offsets[row] === quantities.offsets[row] && prices.offsets[row + 1] === quantities.offsets[row + 1];
}

function levelPairs(prices: Levels, quantities: Levels, row: number): PriceLevel[] {
  const start = prices.offsets[row]!;
  const n = prices.offsets[row + 1]! - start;
  // Pushed, not `new Array(n)`: a packed array, as JSON.parse makes a JSONL line's sides; the engine's sweep
  // optimized on those deoptimized on a holey one ("wrong map") at the first prepared replay.
  const out: PriceLevel[] = [];
  const p = prices.indices;
  const q = quantities.indices;
  const pt = prices.dictionary;
  const qt = quantities.dictionary;
  for (let k = 0; k < n; k++) out.push([pt[p[start + k]!]!, qt[q[start + k]!]!]);
  return out;
}
