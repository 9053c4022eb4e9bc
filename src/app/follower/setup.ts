import type { TimeSource } from '../../core/clock.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import { loadDaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import type { ApiCredentials } from '../../venue/credentials.js';
import { createGotHttp } from '../../venue/got-http.js';
import { ExchangeClient } from '../../venue/exchange-client.js';

export interface FollowerConnectionFlags {
  /** The daemon's YAML (its follower section names the credentials). */
  readonly config?: string;
  readonly baseUrl?: string;
}

export interface FollowerConnectionContext {
  readonly env: Environment;
  readonly time: TimeSource;
  readonly cwd?: string;
  /** The simulator YAML of paper mode when the daemon config does not name one. */
  readonly defaultSimConfig?: string;
}

/**
 * A client signed with the copy-trading follower's keys. With --config: the daemon config's follower
 * credentials and its venue's URL. Without: STRATD_FOLLOWER_API_KEY/SECRET (else STRATD_API_KEY/SECRET)
 * and --base-url or STRATD_BASE_URL. The flag and STRATD_BASE_URL win over the config's URL.
 */
export function followerClient(flags: FollowerConnectionFlags, ctx: FollowerConnectionContext): Result<ExchangeClient, ConfigError> {
  const urlOverride = flags.baseUrl ?? nonBlank(ctx.env['STRATD_BASE_URL']);
  if (flags.config === undefined) {
    if (urlOverride === undefined) return err(new ConfigError('no exchange URL: pass --base-url, set STRATD_BASE_URL, or give --config with the daemon config'));
    const credentials = credentialsFromEnv(ctx.env);
    if (!credentials.ok) return credentials;
    return ok(new ExchangeClient({ baseUrl: urlOverride, credentials: credentials.value, time: ctx.time }));
  }
  const config = loadDaemonConfig(flags.config, {
    env: ctx.env,
    ...(ctx.cwd === undefined ? {} : { cwd: ctx.cwd }),
    ...(ctx.defaultSimConfig === undefined ? {} : { defaultSimConfig: ctx.defaultSimConfig }),
  });
  if (!config.ok) return config;
  const { follower, venue, file } = config.value;
  if (follower === undefined) {
    return err(new ConfigError('no follower credentials: add a follower section (paper: follower.key names a copy-trading sim key; live: exchange.follower)', { file, path: 'follower' }));
  }
  if (venue.mode === 'live') {
    return ok(
      new ExchangeClient({
        baseUrl: urlOverride ?? venue.baseUrl,
        credentials: follower.credentials,
        time: ctx.time,
        recvWindowMs: venue.recvWindowMs,
        timeoutMs: venue.timeoutMs,
        rateBudget: { share: venue.rateLimitShare },
        ...(venue.http === 'got' ? { http: createGotHttp() } : { httpStack: venue.http }),
      }),
    );
  }
  const simUrl = venue.sim.port === 0 ? undefined : `http://${venue.sim.host}:${venue.sim.port}`;
  const baseUrl = urlOverride ?? simUrl;
  if (baseUrl === undefined) {
    return err(new ConfigError('the paper simulator listens on a port chosen at start (sim.port: 0): pass --base-url with its URL', { file, path: 'sim.port' }));
  }
  return ok(new ExchangeClient({ baseUrl, credentials: follower.credentials, time: ctx.time }));
}

function credentialsFromEnv(env: Environment): Result<ApiCredentials, ConfigError> {
  for (const prefix of ['STRATD_FOLLOWER_API', 'STRATD_API']) {
    const apiKey = nonBlank(env[`${prefix}_KEY`]);
    const apiSecret = nonBlank(env[`${prefix}_SECRET`]);
    if (apiKey === undefined && apiSecret === undefined) continue;
    if (apiKey === undefined || apiSecret === undefined) return err(new ConfigError(`set both ${prefix}_KEY and ${prefix}_SECRET`));
    return ok({ apiKey, apiSecret });
  }
  return err(new ConfigError('no follower credentials: set STRATD_FOLLOWER_API_KEY and STRATD_FOLLOWER_API_SECRET, or give --config with a follower section'));
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
