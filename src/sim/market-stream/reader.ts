import type { MarketChannel, MarketEvent } from './events.js';
import { decodeEventLine, explainBadEventLine } from './event-lines.js';
import type { MarketStreamHeader } from './format.js';
import { parseHeader } from './format.js';
import { lineBatches } from './line-batches.js';
import type { MarketStreamWarning } from './stream-error.js';
import { MarketStreamError } from './stream-error.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const parseJsonText = JSON.parse;

export interface MarketStreamReaderOptions {
  /** Told about anything skipped; today only a torn or unparseable last line. */
  readonly onWarning?: (warning: MarketStreamWarning) => void;
}

interface BadLine {
  readonly line: number;
  readonly reason: string;
}

/**
 * Reads a market stream (plain or .gz) as it streams from disk. Per line: one parseJsonText and cheap
 * checks. A bad last line (a recording cut short) is skipped with a warning; a bad line anywhere else,
 * an undeclared symbol or channel, or time going backwards is a `MarketStreamError` naming the line.
 * Iterate once: events one by one, or `eventBatches()` (one array per chunk read) for replay loops.
 */
export class MarketStreamReader implements AsyncIterable<MarketEvent> {
  private started = false;

  private constructor(
    readonly path: string,
    readonly header: MarketStreamHeader,
    private readonly batches: AsyncGenerator<string[], void, undefined>,
    private readonly afterHeader: readonly string[],
    private readonly options: MarketStreamReaderOptions,
  ) {}

  /** Opens `path` and reads its header. */
  static async open(path: string, options: MarketStreamReaderOptions = {}): Promise<MarketStreamReader> {
    const batches = lineBatches(path);
    const first = await batches.next();
    const headerText = first.done === true ? undefined : first.value[0];
    if (first.done === true || headerText === undefined) {
      await batches.return(undefined);
      throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, 'the file is empty; expected a market stream header');
    }
    let header: MarketStreamHeader;
    try {
      header = parseHeader(parseJson(headerText, path, 1), path);
    } catch (error) {
      await batches.return(undefined);
      throw error;
    }
    return new MarketStreamReader(path, header, batches, first.value.slice(1), options);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<MarketEvent, void, undefined> {
    for await (const batch of this.eventBatches()) yield* batch;
  }

  async *eventBatches(): AsyncGenerator<MarketEvent[], void, undefined> {
    if (this.started) throw new MarketStreamError('UNREADABLE', this.path, undefined, 'a market stream reader can be iterated once');
    this.started = true;
    const symbols: ReadonlySet<string> = new Set(this.header.symbols);
    const channels: ReadonlySet<MarketChannel> = new Set(this.header.channels);
    let lineNumber = 1;
    let lastTs = this.header.startTime;
    let bad: BadLine | undefined;
    const decode = (lines: readonly string[]): MarketEvent[] => {
      const events: MarketEvent[] = [];
      for (const text of lines) {
        lineNumber++;
        if (bad !== undefined) throw new MarketStreamError('BAD_LINE', this.path, bad.line, bad.reason);
        let raw: unknown;
        try {
          raw = parseJsonText(text);
        } catch {
          bad = { line: lineNumber, reason: 'not valid JSON' };
          continue;
        }
        const event = decodeEventLine(raw);
        if (event === undefined) {
          bad = { line: lineNumber, reason: explainBadEventLine(raw) };
          continue;
        }
        if (!symbols.has(event.symbol)) throw new MarketStreamError('UNKNOWN_SYMBOL', this.path, lineNumber, `symbol ${event.symbol} is not in the header`);
        if (!channels.has(event.type)) throw new MarketStreamError('UNDECLARED_CHANNEL', this.path, lineNumber, `channel ${event.type} is not in the header`);
        if (event.ts < lastTs) throw new MarketStreamError('OUT_OF_ORDER', this.path, lineNumber, `event time ${event.ts} is before ${lastTs}`);
        lastTs = event.ts;
        events.push(event);
      }
      return events;
    };
    try {
      const first = decode(this.afterHeader);
      if (first.length > 0) yield first;
      for await (const lines of this.batches) {
        const events = decode(lines);
        if (events.length > 0) yield events;
      }
    } finally {
      await this.batches.return(undefined);
    }
    if (bad !== undefined) {
      this.options.onWarning?.({ code: 'TORN_LAST_LINE', file: this.path, line: bad.line, message: `skipped the last line (${bad.reason}); the recording was probably cut short` });
    }
  }

  /** Stops reading early and releases the file. */
  async close(): Promise<void> {
    await this.batches.return(undefined);
  }
}

/** Every event of the stream at `path`, in order. */
export async function* readMarketStream(path: string, options: MarketStreamReaderOptions = {}): AsyncGenerator<MarketEvent, void, undefined> {
  const reader = await MarketStreamReader.open(path, options);
  yield* reader;
}

function parseJson(text: string, file: string, line: number): unknown {
  try {
    return parseJsonText(text) as unknown;
  } catch {
    throw new MarketStreamError('NOT_A_MARKET_STREAM', file, line, 'the first line is not JSON; expected a market stream header');
  }
}
