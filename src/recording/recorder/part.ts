import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { MarketChannel, MarketEvent } from '../../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { marketStreamHeaderSchema } from '../../sim/market-stream/format.js';
import { MarketStreamError } from '../../sim/market-stream/stream-error.js';
import { MarketStreamWriter } from '../../sim/market-stream/writer.js';
import { encodeAccountHeader } from './account-format.js';
import { ACCOUNT_STREAM_FORMAT, ACCOUNT_STREAM_VERSION } from './account-format.js';
import type { PartPaths } from './files.js';
import { claimFile } from './files.js';
import { LineFile } from './line-file.js';

/** One finished (or current) part of a recording, as reported to the user. */
export interface RecordedPart {
  readonly index: number;
  readonly market: string;
  /** Absent when the account section is off. */
  readonly account?: string;
  readonly startTime: number;
  readonly events: number;
  readonly accountEvents: number;
}

export interface PartSpec {
  readonly index: number;
  readonly paths: PartPaths;
  readonly header: MarketStreamHeader;
  readonly account: boolean;
  /** Create the files exclusively (EEXIST when they exist) rather than truncate them. */
  readonly exclusive: boolean;
  /** Exchange time at which a time-rotated part ends (Infinity without time rotation). */
  readonly endTime: number;
}

/** A part being written: the market stream (MarketStreamWriter) and its account section, each with its header. */
export class RecordingPart {
  readonly symbols: ReadonlySet<string>;
  readonly channels: ReadonlySet<MarketChannel>;
  private events = 0;
  private accountEvents = 0;

  private constructor(
    private readonly spec: PartSpec,
    private readonly writer: MarketStreamWriter,
    private readonly accountFile: LineFile | undefined,
  ) {
    this.symbols = new Set(spec.header.symbols);
    this.channels = new Set(spec.header.channels);
  }

  /** Creates the files and writes the headers to disk at once; throws on I/O errors or an invalid header. */
  static async open(spec: PartSpec): Promise<RecordingPart> {
    const { paths, header } = spec;
    // Checked before any file is created: a bad header leaves nothing behind.
    const checked = marketStreamHeaderSchema.safeParse(header);
    if (!checked.success) throw new MarketStreamError('BAD_HEADER', paths.market, 1, `invalid header: ${checked.error.issues[0]?.message ?? 'invalid'}`);
    if (spec.exclusive) {
      claimFile(paths.market);
      if (spec.account) claimFile(paths.account);
    }
    const writer = MarketStreamWriter.open(paths.market, header, { flush: 'buffered' });
    const account = spec.account
      ? new LineFile(
          paths.account,
          encodeAccountHeader({ format: ACCOUNT_STREAM_FORMAT, version: ACCOUNT_STREAM_VERSION, market: basename(paths.market), symbols: header.symbols, startTime: header.startTime, source: 'recorder' }),
        )
      : undefined;
    const part = new RecordingPart(spec, writer, account);
    await part.sync();
    return part;
  }

  get endTime(): number {
    return this.spec.endTime;
  }

  get startTime(): number {
    return this.spec.header.startTime;
  }

  writeMarket(event: MarketEvent): void {
    this.writer.write(event);
    this.events++;
  }

  appendAccount(line: string): void {
    if (this.accountFile === undefined) return;
    this.accountFile.append(line);
    this.accountEvents++;
  }

  /** Everything written so far reaches the files, in whole lines. */
  async sync(): Promise<void> {
    await this.writer.sync();
    await this.accountFile?.sync();
  }

  /** Bytes of the market file on disk. */
  size(): number {
    return statSync(this.spec.paths.market).size;
  }

  async close(): Promise<void> {
    try {
      await this.writer.close();
    } finally {
      await this.accountFile?.close();
    }
  }

  summary(): RecordedPart {
    const { index, paths } = this.spec;
    return {
      index,
      market: paths.market,
      ...(this.accountFile === undefined ? {} : { account: paths.account }),
      startTime: this.startTime,
      events: this.events,
      accountEvents: this.accountEvents,
    };
  }
}
