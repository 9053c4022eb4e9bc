import { z } from 'zod';
import type { ChannelLevel, MarketChannel } from './events.js';
import { CHANNEL_LEVELS, STREAM_CHANNELS } from './events.js';
import type { SimInstrument } from './instruments.js';
import { MarketStreamError } from './stream-error.js';

/**
 * The market stream on disk: JSON Lines, optionally gzipped. Line 1 is a header naming the format
 * and version, the symbols with their instruments, the channels present and the start time; every
 * other line is one event (event-lines.ts), in nondecreasing time order, none before `startTime`.
 * Readers ignore keys they do not know, so adding a field does not need a new version; changing
 * what a field means does.
 */
export const MARKET_STREAM_FORMAT = 'stratd-market-stream';
export const MARKET_STREAM_VERSION = 1;

/** 'download': history fetched from the exchange's REST API (`stratd download`). */
export type MarketStreamSource = 'generator' | 'recorder' | 'download';

export interface MarketStreamHeader {
  readonly format: typeof MARKET_STREAM_FORMAT;
  readonly version: typeof MARKET_STREAM_VERSION;
  readonly symbols: readonly string[];
  readonly channels: readonly MarketChannel[];
  readonly instruments: readonly SimInstrument[];
  readonly startTime: number;
  readonly source: MarketStreamSource;
  readonly seed?: number;
  /**
   * How completely each channel is held (see ChannelLevel); a channel not listed is 'tick'. Absent in
   * recordings written before the field existed, which are tick-level throughout.
   */
  readonly levels?: Readonly<Partial<Record<MarketChannel, ChannelLevel>>>;
  /** Duration of the recording's bars in ms, when it holds bars (channel `bar`). */
  readonly barMs?: number;
}

const plainDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected plain decimal text');
const positiveDecimal = plainDecimal.refine((text) => /[1-9]/.test(text), 'expected a positive decimal');
const epochMs = z.number().int().nonnegative();

const riskLimitTierSchema = z.object({
  riskLimitId: z.string().min(1),
  maxQuantity: positiveDecimal,
  initialMarginRate: plainDecimal,
  maintMarginRate: plainDecimal,
});

export const simInstrumentSchema = z.object({
  symbol: z.string().min(1),
  category: z.enum(['USDT', 'USDC']),
  baseAsset: z.string().min(1),
  tickSize: positiveDecimal,
  contractMultiplier: positiveDecimal,
  quantityStep: positiveDecimal,
  minQuantity: positiveDecimal,
  maxQuantity: positiveDecimal,
  riskLimits: z.array(riskLimitTierSchema),
  makerFeeRate: z.string().regex(/^-?\d+(\.\d+)?$/, 'expected decimal text'),
  takerFeeRate: plainDecimal,
  initialPrice: positiveDecimal,
});

export const marketStreamHeaderSchema = z
  .object({
    format: z.literal(MARKET_STREAM_FORMAT),
    version: z.literal(MARKET_STREAM_VERSION),
    symbols: z.array(z.string().min(1)).min(1),
    channels: z.array(z.enum(STREAM_CHANNELS)).min(1),
    instruments: z.array(simInstrumentSchema),
    startTime: epochMs,
    source: z.enum(['generator', 'recorder', 'download']),
    seed: z.number().int().optional(),
    levels: z.partialRecord(z.enum(STREAM_CHANNELS), z.enum(CHANNEL_LEVELS)).optional(),
    barMs: z.number().int().positive().optional(),
  })
  .superRefine((header, ctx) => {
    if (new Set(header.symbols).size !== header.symbols.length) ctx.addIssue({ code: 'custom', path: ['symbols'], message: 'symbols repeat' });
    if (new Set(header.channels).size !== header.channels.length) ctx.addIssue({ code: 'custom', path: ['channels'], message: 'channels repeat' });
    const described = header.instruments.map((i) => i.symbol);
    for (const symbol of header.symbols) {
      if (described.filter((s) => s === symbol).length !== 1) ctx.addIssue({ code: 'custom', path: ['instruments'], message: `needs exactly one instrument for ${symbol}` });
    }
  });

/** The header as line 1 of a stream: keys in a fixed order, compact. */
export function encodeHeader(header: MarketStreamHeader): string {
  const { format, version, symbols, channels, instruments, startTime, source, seed, levels, barMs } = header;
  return JSON.stringify({
    format,
    version,
    symbols,
    channels,
    instruments,
    startTime,
    source,
    ...(seed === undefined ? {} : { seed }),
    ...(levels === undefined ? {} : { levels }),
    ...(barMs === undefined ? {} : { barMs }),
  });
}

/** How completely `header`'s recording holds `channel` ('tick' unless the header says otherwise). */
export function channelLevel(header: MarketStreamHeader, channel: MarketChannel): ChannelLevel {
  return header.levels?.[channel] ?? 'tick';
}

/**
 * Validates a parsed first line. Another format or version gets its own message before any field is
 * looked at, so an old stratd reading a newer recording says so plainly.
 */
export function parseHeader(value: unknown, file: string): MarketStreamHeader {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (record?.['format'] !== MARKET_STREAM_FORMAT) {
    throw new MarketStreamError('NOT_A_MARKET_STREAM', file, 1, `not a stratd market stream: the first line must be a header with "format":"${MARKET_STREAM_FORMAT}"`);
  }
  if (record['version'] !== MARKET_STREAM_VERSION) {
    throw new MarketStreamError(
      'UNSUPPORTED_VERSION',
      file,
      1,
      `recording format version ${JSON.stringify(record['version'])} is not supported; this stratd reads version ${MARKET_STREAM_VERSION}`,
    );
  }
  const parsed = marketStreamHeaderSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'header' : `header field ${issue.path.map(String).join('.')}`;
    throw new MarketStreamError('BAD_HEADER', file, 1, `${where}: ${issue?.message ?? 'invalid'}`);
  }
  const { seed, levels, barMs, ...rest } = parsed.data;
  return { ...rest, ...(seed === undefined ? {} : { seed }), ...(levels === undefined ? {} : { levels }), ...(barMs === undefined ? {} : { barMs }) };
}
