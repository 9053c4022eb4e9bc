import type { Observable } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { MarketChannel } from '../../sim/market-stream/events.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import type { MarketSubscription } from '../../settings/daemon-config/daemon-config.js';
import type { MarketApi } from '../../venue/api/market.js';
import { Recorder, RecorderError } from './recorder.js';
import type { InstrumentHints } from './instruments.js';
import type { ExistingFiles, RecorderMarketView, RotateSettings } from './options.js';
import { loadInstrumentHints } from './venue-hints.js';

/** A recording as configured (`stratd record` flags, or the `record:` section of `stratd run`). */
export interface RecordSettings {
  readonly out: string;
  readonly gzip?: boolean;
  /** Default 'refuse'. A daemon restarted by its supervisor wants 'next'. */
  readonly existing?: ExistingFiles;
  readonly rotate?: RotateSettings;
  /** Default true. */
  readonly account?: boolean;
  readonly flushEveryMs?: number;
  readonly reorderMs?: number;
  /** Fee rates for the header in live mode (paper mode takes the simulator's own). */
  readonly fees?: { readonly maker: string; readonly taker: string };
}

export interface RecordingPlan {
  readonly symbols: readonly string[];
  readonly channels: readonly MarketChannel[];
  /** Symbols polled for a book ticker but not for depth: their ticker is recorded as one-level depth. */
  readonly depthFromBookTicker: readonly string[];
}

const CHANNEL_ORDER: readonly MarketChannel[] = ['depth', 'trade', 'mark', 'index', 'funding'];

/** What a daemon config's market section gives a recording: its symbols and the stream channels they fill. */
export function recordingPlan(market: readonly MarketSubscription[]): RecordingPlan {
  const channels = new Set<MarketChannel>();
  const depthFromBookTicker: string[] = [];
  for (const m of market) {
    if (m.depth !== undefined) channels.add('depth');
    else if (m.bookTicker !== undefined) {
      channels.add('depth');
      depthFromBookTicker.push(m.symbol);
    }
    if (m.trades !== undefined) channels.add('trade');
    if (m.markPrice !== undefined) channels.add('mark');
    if (m.index !== undefined) channels.add('index');
    if (m.fundingRate !== undefined) channels.add('funding');
  }
  return { symbols: [...new Set(market.map((m) => m.symbol))], channels: CHANNEL_ORDER.filter((c) => channels.has(c)), depthFromBookTicker };
}

export interface AttachRecorderOptions {
  readonly settings: RecordSettings;
  readonly market: readonly MarketSubscription[];
  /** The running kernel (after start: its cache knows the instruments). */
  readonly kernel: { readonly cache: RecorderMarketView; readonly events$: Observable<BusEvent> };
  /** The daemon's venue connection: its market API, and the embedded simulator in paper mode. */
  readonly venue: { readonly client: { readonly market: Pick<MarketApi, 'exchangeInfo'> }; readonly sim?: { readonly engine: { readonly instruments: readonly SimInstrument[] } } };
  readonly time: TimeSource;
  readonly logger: Logger;
}

/**
 * Opens a recorder on the daemon's kernel bus: the config's market section gives symbols and channels,
 * the venue gives exact risk tiers and fees where it can. Call it after the kernel started (its cache
 * knows the instruments) and before the market poller starts; stop the recorder after the kernel, so
 * that it holds the last events. A file clash ('refuse') is an EXISTS error; nothing is attached then.
 */
export async function attachRecorder(options: AttachRecorderOptions): Promise<Result<Recorder, RecorderError>> {
  const { settings, kernel, venue, logger } = options;
  const plan = recordingPlan(options.market);
  if (plan.symbols.length === 0 || plan.channels.length === 0) {
    return err(new RecorderError('INVALID', 'the market section polls nothing a recording holds (depth or bookTicker, trades, markPrice, index, fundingRate)'));
  }
  // Attached before the venue answers for the hints, so that no event is missed meanwhile. The hints are
  // needed when the first part opens (at the first flush at the earliest); a part opened before they
  // arrived estimates instead.
  const hints = new Map<string, InstrumentHints>();
  const { fees: _fees, ...recording } = settings;
  const opened = Recorder.open({
    ...recording,
    symbols: plan.symbols,
    channels: plan.channels,
    depthFromBookTicker: plan.depthFromBookTicker,
    market: kernel.cache,
    hints,
    time: options.time,
    logger: logger.child({ component: 'recorder' }),
  });
  if (!opened.ok) return opened;
  opened.value.attach(kernel.events$);
  const loaded = await loadInstrumentHints({
    market: venue.client.market,
    symbols: plan.symbols,
    ...(venue.sim === undefined ? {} : { sim: venue.sim.engine.instruments }),
    ...(settings.fees === undefined ? {} : { fees: settings.fees }),
    logger,
  });
  for (const [symbol, hint] of loaded) hints.set(symbol, hint);
  return ok(opened.value);
}
