import type { TimeSource } from '../core/clock.js';
import { steadyClockOf } from '../core/clock.js';
import { AccountApi } from './api/account.js';
import { AlgoOrdersApi } from './api/algo-orders.js';
import { FollowerApi } from './api/follower.js';
import { MarketApi } from './api/market.js';
import { OrdersV1Api } from './api/orders/v1.js';
import { OrdersV2Api } from './api/orders/v2.js';
import { PositionsApi } from './api/positions.js';
import { UserStreamApi } from './api/user-stream.js';
import { WalletApi } from './api/wallet.js';
import type { ApiCredentials } from './credentials.js';
import type { HttpPort } from './http-port.js';
import type { NodeHttp } from './node-http.js';
import type { HttpStack } from './http-stack.js';
import { createHttpStack } from './http-stack.js';
import type { RateBudget } from './rate-governor.js';
import { DEFAULT_RATE_BUDGET, RateGovernor } from './rate-governor.js';
import { RestTransport } from './rest-transport.js';
import type { TimeSyncOptions } from './time-sync.js';
import { DEFAULT_TIME_SYNC, TimeSync } from './time-sync.js';
import type { VenueError } from './venue-error.js';

export interface ExchangeClientOptions {
  /** REST base URL, e.g. https://api.toobit.com or the simulator's http://127.0.0.1:PORT */
  readonly baseUrl: string;
  readonly credentials?: ApiCredentials;
  readonly time: TimeSource;
  /** Accepted distance between the request timestamp and the server clock (default 5000, max 60000). */
  readonly recvWindowMs?: number;
  readonly timeoutMs?: number;
  readonly rateBudget?: Partial<RateBudget>;
  readonly timeSync?: Partial<TimeSyncOptions>;
  /** Replaces the client's own HTTP transport (got, a recorder, a crash point); the caller keeps ownership of it. */
  readonly http?: HttpPort;
  /** The client's own transport when no `http` is given: stratd's HTTP/1.1 over sockets (default) or Node's http (`exchange.http`). */
  readonly httpStack?: HttpStack;
}

/**
 * The exchange client: every endpoint of documents 000 and 001 as a typed method, grouped by area,
 * over one signed, clock-synced, rate-governed transport.
 */
export class ExchangeClient {
  readonly rest: RestTransport;
  readonly governor: RateGovernor;
  readonly timeSync: TimeSync;
  readonly market: MarketApi;
  readonly account: AccountApi;
  readonly ordersV1: OrdersV1Api;
  readonly ordersV2: OrdersV2Api;
  readonly algo: AlgoOrdersApi;
  readonly positions: PositionsApi;
  readonly wallet: WalletApi;
  readonly userStream: UserStreamApi;
  readonly follower: FollowerApi;
  /** The transport this client made itself (none was given): its connections close with `stop()`. */
  private readonly ownHttp: NodeHttp | undefined;

  constructor(options: ExchangeClientOptions) {
    const recvWindowMs = options.recvWindowMs ?? 5000;
    if (!(Number.isInteger(recvWindowMs) && recvWindowMs > 0 && recvWindowMs <= 60_000)) {
      throw new RangeError(`recvWindowMs must be an integer from 1 to 60000, got ${recvWindowMs}`);
    }
    const { clock, scheduler } = options.time;
    // The governor converts server reset times with the offset TimeSync keeps (read lazily, at use).
    this.governor = new RateGovernor({ ...DEFAULT_RATE_BUDGET, ...options.rateBudget }, clock, scheduler, (serverMs) =>
      this.timeSync.serverToLocal(serverMs),
    );
    const probe = (): ReturnType<MarketApi['serverTime']> => this.market.serverTime();
    this.timeSync = new TimeSync(clock, scheduler, probe, { ...DEFAULT_TIME_SYNC, ...options.timeSync }, steadyClockOf(options.time));
    let http = options.http;
    if (http === undefined) {
      this.ownHttp = createHttpStack(options.httpStack);
      http = this.ownHttp;
    }
    this.rest = new RestTransport(
      http,
      {
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
        recvWindowMs,
        timeoutMs: options.timeoutMs ?? 10_000,
      },
      this.governor,
      this.timeSync,
      clock,
    );
    this.market = new MarketApi(this.rest);
    this.account = new AccountApi(this.rest);
    this.ordersV1 = new OrdersV1Api(this.rest);
    this.ordersV2 = new OrdersV2Api(this.rest);
    this.algo = new AlgoOrdersApi(this.rest);
    this.positions = new PositionsApi(this.rest);
    this.wallet = new WalletApi(this.rest);
    this.userStream = new UserStreamApi(this.rest);
    this.follower = new FollowerApi(this.rest);
  }

  /** Syncs the server clock now and keeps it fresh on the scheduler. */
  async start(onSyncError?: (error: VenueError) => void): ReturnType<TimeSync['sync']> {
    const first = await this.timeSync.sync();
    this.timeSync.start(onSyncError);
    return first;
  }

  /** Stops the clock sync and closes the kept-alive connections of its own transport. */
  stop(): void {
    this.timeSync.stop();
    this.ownHttp?.close();
  }
}
