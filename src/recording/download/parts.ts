import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import { simInstrumentSchema } from '../../sim/market-stream/format.js';
import { klineInterval } from '../../protocol/market-params.js';
import type { Cursor } from './pages.js';
import type { DownloadChannel, DownloadPlan } from './plan.js';
import { DOWNLOAD_CHANNELS } from './plan.js';

const PARTS_FORMAT = 'stratd-download-parts';
const STATE_FILE = 'state.json';

/** One symbol's channel in the parts directory: its cursor, and how much of its file the cursor accounts for. */
export interface ChannelProgress extends Cursor {
  readonly bytes: number;
  readonly lines: number;
}

export interface PartsState {
  readonly plan: DownloadPlan;
  readonly instruments: readonly SimInstrument[];
  readonly channels: Readonly<Record<string, ChannelProgress>>;
}

const channelSchema = z.enum(DOWNLOAD_CHANNELS as [DownloadChannel, ...DownloadChannel[]]);
const stateSchema = z.object({
  format: z.literal(PARTS_FORMAT),
  version: z.literal(1),
  plan: z.object({
    symbols: z.array(z.string()),
    from: z.number(),
    to: z.number(),
    interval: klineInterval,
    channels: z.array(channelSchema),
    pageSize: z.number().optional(),
    intervalMs: z.number(),
    firstOpen: z.number(),
    lastOpen: z.number(),
  }),
  instruments: z.array(simInstrumentSchema),
  channels: z.record(
    z.string(),
    z
      .object({ next: z.union([z.number(), z.string()]).optional(), done: z.boolean(), bytes: z.number().int().nonnegative(), lines: z.number().int().nonnegative() })
      .transform(({ next, ...rest }): ChannelProgress => (next === undefined ? rest : { ...rest, next })),
  ),
});

export function channelKey(symbol: string, channel: DownloadChannel): string {
  return `${symbol}/${channel}`;
}

/**
 * The parts directory of a download in progress (`FILE.part/`): one file per symbol and channel with
 * the lines fetched so far, and state.json with the plan, the instruments and each channel's cursor
 * and file length. A page's lines are appended and synced before state.json is replaced (write, sync,
 * rename), so after a kill at any point the state describes a prefix of each file: reopening cuts a
 * file back to the length its state names, and the download continues from that cursor. The rerun
 * therefore asks for exactly the pages an uninterrupted run would have asked for next.
 */
export class DownloadParts {
  private constructor(
    readonly dir: string,
    private state: PartsState,
  ) {}

  /** The parts directory's state, or undefined when there is none; throws on a state that cannot be read. */
  static read(dir: string): PartsState | undefined {
    const path = join(dir, STATE_FILE);
    if (!existsSync(path)) return undefined;
    const parsed = stateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    if (!parsed.success) throw new Error(`${path}: not a download state file (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const { plan, instruments, channels } = parsed.data;
    const { pageSize, ...rest } = plan;
    return { plan: pageSize === undefined ? rest : { ...rest, pageSize }, instruments, channels };
  }

  /** Continues the parts in `dir` (each file cut back to what its state accounts for). */
  static resume(dir: string, state: PartsState): DownloadParts {
    const parts = new DownloadParts(dir, state);
    for (const symbol of state.plan.symbols) {
      for (const channel of state.plan.channels) {
        const file = parts.file(symbol, channel);
        const progress = state.channels[channelKey(symbol, channel)];
        const bytes = progress?.bytes ?? 0;
        if (!existsSync(file)) writeFileSync(file, '');
        if (statSync(file).size > bytes) truncateSync(file, bytes);
      }
    }
    return parts;
  }

  /** A new parts directory for `state` (every channel at its first cursor). */
  static create(dir: string, state: PartsState): DownloadParts {
    mkdirSync(dir, { recursive: true });
    const parts = new DownloadParts(dir, state);
    for (const symbol of state.plan.symbols) for (const channel of state.plan.channels) writeFileSync(parts.file(symbol, channel), '');
    parts.save();
    return parts;
  }

  get plan(): DownloadPlan {
    return this.state.plan;
  }

  get instruments(): readonly SimInstrument[] {
    return this.state.instruments;
  }

  progress(symbol: string, channel: DownloadChannel): ChannelProgress {
    return this.state.channels[channelKey(symbol, channel)] ?? { done: false, bytes: 0, lines: 0 };
  }

  file(symbol: string, channel: DownloadChannel): string {
    return join(this.dir, `${encodeURIComponent(symbol)}.${channel}.jsonl`);
  }

  /** Appends a page's lines (synced), then records its cursor. */
  append(symbol: string, channel: DownloadChannel, lines: readonly string[], cursor: Cursor): void {
    const before = this.progress(symbol, channel);
    const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    const file = this.file(symbol, channel);
    if (text !== '') {
      appendFileSync(file, text);
      syncFile(file);
    }
    const next: ChannelProgress = { ...(cursor.next === undefined ? {} : { next: cursor.next }), done: cursor.done, bytes: before.bytes + Buffer.byteLength(text), lines: before.lines + lines.length };
    this.state = { ...this.state, channels: { ...this.state.channels, [channelKey(symbol, channel)]: next } };
    this.save();
  }

  /** Every channel of every symbol is done. */
  complete(): boolean {
    return this.state.plan.symbols.every((s) => this.state.plan.channels.every((c) => this.progress(s, c).done));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private save(): void {
    const path = join(this.dir, STATE_FILE);
    const temporary = `${path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ format: PARTS_FORMAT, version: 1, ...this.state })}\n`);
    syncFile(temporary);
    renameSync(temporary, path);
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
