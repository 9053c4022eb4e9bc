import type { GlobalRiskLimits, RiskLimits } from '../../model/risk-limits.js';
import type { KlineInterval } from '../../model/market-events.js';
import type { SimConfig } from '../../sim/config/sim-config.js';
import type { ApiCredentials } from '../../venue/credentials.js';
import type { ConfigError } from '../config-error.js';
import type { NotifySettings } from './notify.js';
import type { SignalsSettings } from './signals.js';

/**
 * The daemon's configuration (`stratd run --config FILE`) after validation: durations in milliseconds,
 * amounts as Decimal, paths absolute, secrets resolved from the environment or files. It holds
 * credentials: never log it whole.
 */
export interface DaemonConfig {
  /** Absolute path of the YAML file. */
  readonly file: string;
  readonly venue: VenueSettings;
  /** Absolute: --state-dir, else STRATD_STATE_DIR, else the file's stateDir, else ./state. */
  readonly stateDir: string;
  readonly market: readonly MarketSubscription[];
  readonly userStream: UserStreamSettings;
  readonly jobs: JobSchedules;
  /** Undefined: no catalog (live mode without a catalog section). */
  readonly catalog?: CatalogSource;
  readonly risk: GlobalRiskLimits;
  readonly strategies: readonly StrategySettings[];
  /** What to do with open orders the journal does not know. */
  readonly orphans: 'adopt' | 'cancel';
  readonly shutdown: ShutdownSettings;
  /** How durable a journal commit is before the order it records goes out (`journal.durability`). */
  readonly journal: { readonly durability: 'disk' | 'os' };
  readonly health: HealthSettings;
  /** Credentials of the copy-trading follower commands; undefined when not configured. */
  readonly follower?: FollowerSettings;
  /** `summaryEveryMs`: the trade log's per-strategy summary line, 0 for none. */
  readonly log: { readonly level: LogLevel; readonly summaryEveryMs: number };
  /** Record the market (and account) events of the run; `out` absolute. */
  readonly record?: RecordSettings;
  /** Notification sinks (their URLs hold secrets); undefined without a notify section. */
  readonly notify?: NotifySettings;
  /** The external-signal endpoint; undefined without a signals section. */
  readonly signals?: SignalsSettings;
  /**
   * A ConfigError at a path of this file, with its line and column: for checks made later, such as a
   * strategy's params schema: `errorAt(issue.message, ['strategies', i, 'params', ...issue.path])`.
   */
  readonly errorAt: (reason: string, path: ReadonlyArray<string | number>) => ConfigError;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** paper: the embedded simulator, started in-process on a loopback port; live: a real exchange. */
export type VenueSettings = PaperVenue | LiveVenue;

export interface PaperVenue {
  readonly mode: 'paper';
  /** Absolute path of the simulator's YAML. */
  readonly simConfigFile: string;
  /** That file, validated, with `port` replaced by the daemon's sim.port (0: any free port). */
  readonly sim: SimConfig;
  /** Name of the sim key the daemon trades with, and its credentials. */
  readonly key: string;
  readonly credentials: ApiCredentials;
  /** The simulator's market tick, when set. */
  readonly tickMs?: number;
  /** `sim.market: live`: the simulator's market is the real exchange's public market data (paper on the live market). */
  readonly live?: LiveMarketSettings;
}

/** Paper on the live market: where the public market data comes from and how it is polled (no credentials). */
export interface LiveMarketSettings {
  /** `exchange.baseUrl`. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly rateLimitShare: number;
  /** Depth, trades, mark and index polls. */
  readonly everyMs: number;
  readonly fundingEveryMs: number;
  readonly depthLimit: number;
  readonly maxBookAgeMs: number;
  /** Undefined: the symbols of `market:` and of the strategies. */
  readonly symbols?: readonly string[];
  /** Fee rates of the paper account (decimal text); undefined: the simulator's usual ones. */
  readonly fees?: { readonly maker: string; readonly taker: string };
  /** Key fields written in `exchange:` that this mode never reads (a warning at start). */
  readonly ignoredKeys: readonly string[];
}

export interface LiveVenue {
  readonly mode: 'live';
  readonly baseUrl: string;
  readonly streamUrl: string;
  readonly credentials: ApiCredentials;
  readonly recvWindowMs: number;
  readonly timeoutMs: number;
  /** Share of the key's rate budgets this process may use. */
  readonly rateLimitShare: number;
  /** The REST client's HTTP stack (`exchange.http`). */
  readonly http: 'socket' | 'undici' | 'node' | 'got';
}

export type MarketChannel = 'depth' | 'trades' | 'klines' | 'bookTicker' | 'ticker24h' | 'markPrice' | 'index' | 'fundingRate' | 'openInterest';

export interface PollSettings {
  /** The poll interval (the fallback's, for a channel on the socket). */
  readonly everyMs: number;
  /** `ws` (default where the exchange has a topic): the public market socket, polling while it is down or silent; `poll`: polling only. */
  readonly via?: 'ws' | 'poll';
  /** A socket channel silent this long falls back to polling (default 10 s). */
  readonly silentMs?: number;
}

/** The channels polled for one symbol, each on its own interval; an absent channel is not polled. */
export interface MarketSubscription {
  readonly symbol: string;
  readonly depth?: PollSettings & { readonly limit: number };
  readonly trades?: PollSettings;
  readonly klines?: PollSettings & { readonly intervals: readonly KlineInterval[] };
  readonly bookTicker?: PollSettings;
  readonly ticker24h?: PollSettings;
  readonly markPrice?: PollSettings;
  readonly index?: PollSettings;
  readonly fundingRate?: PollSettings;
  readonly openInterest?: PollSettings;
}

export interface UserStreamSettings {
  readonly pingEveryMs: number;
  readonly pongTimeoutMs: number;
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
}

/** node-cron expressions (5 fields, or 6 with seconds first), evaluated in UTC. */
export interface JobSchedules {
  readonly listenKeyKeepalive: string;
  readonly exchangeInfoRefresh: string;
  readonly reconcile: string;
  readonly dailyReset: string;
  /** Only when a catalog is configured (always available in paper mode). */
  readonly catalogSync?: string;
}

/** Paper mode without a catalog section uses the embedded simulator's catalog. */
export type CatalogSource =
  | { readonly kind: 'sim' }
  | { readonly kind: 'service'; readonly baseUrl: string; readonly token: string; readonly timeoutMs: number };

export interface StrategySettings {
  /** Unique, [a-z0-9-]; part of client order ids. */
  readonly id: string;
  /** A folder of strategies/ (checked by the strategy loader). */
  readonly module: string;
  readonly symbols: readonly string[];
  /** Validated by the strategy's own schema at start. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly risk: RiskLimits;
  readonly enabled: boolean;
  /** What the external ledger holds on these symbol sides becomes this strategy's at start. */
  readonly claims: ReadonlyArray<{ readonly symbol: string; readonly sides: ReadonlyArray<'LONG' | 'SHORT'> }>;
}

export interface ShutdownSettings {
  readonly cancelOpenOrders: boolean;
  readonly timeoutMs: number;
}

export interface HealthSettings {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** Host names (besides loopback and the bound address) requests may name in their Host header. */
  readonly allowedHosts: readonly string[];
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  /** PEM certificate and key files (absolute): the server speaks HTTPS. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

export interface FollowerSettings {
  /** Paper mode: the sim key's name. */
  readonly key?: string;
  readonly credentials: ApiCredentials;
}

/** `record:` (the recorder's settings; see src/recording/recorder/daemon.ts). */
export interface RecordSettings {
  readonly out: string;
  readonly gzip: boolean;
  readonly existing: 'refuse' | 'overwrite' | 'next';
  readonly rotate?: { readonly sizeBytes?: number; readonly everyMs?: number };
  readonly account: boolean;
  readonly flushEveryMs: number;
  readonly reorderMs: number;
  readonly fees?: { readonly maker: string; readonly taker: string };
}
