import { isAbsolute, resolve } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { SimConfig } from '../../sim/config/sim-config.js';
import { simConfigSchema } from '../../sim/config/sim-config.js';
import type { ConfigError } from '../config-error.js';
import { catalogSettingsSchema, exchangeSettingsSchema } from '../connection-settings.js';
import { followerCredentialsSchema, simSectionSchema } from './schema.js';
import { liveMarketSchema, liveMarketSettings } from './live-market.js';
import type { CatalogSource, FollowerSettings, LiveVenue, PaperVenue } from './types.js';
import { locatedError, validateSection } from './locate.js';
import { resolveCredentials, valueAt, withoutKeys } from './secrets.js';
import type { Environment } from '../secrets.js';
import { resolveSecret } from '../secrets.js';
import { plainTextToRemote } from '../transport-security.js';
import type { YamlSource } from '../yaml-source.js';
import { readYamlFile, validateYaml } from '../yaml-source.js';
import { knownSecrets } from '../../core/secret-text.js';

/** What the venue sections need: the (interpolated) YAML, its directory and the environment. */
export interface SectionContext {
  readonly source: YamlSource;
  /** The whole file after `${NAME}` interpolation. */
  readonly value: unknown;
  readonly configDir: string;
  readonly env: Environment;
}

/** `sim:` of paper mode: the simulator's own YAML, validated, and the key the daemon trades with. */
export function paperVenue(ctx: SectionContext, defaultSimConfig: string | undefined): Result<PaperVenue, ConfigError> {
  const section = validateSection(ctx.source, simSectionSchema, valueAt(ctx.value, ['sim']), ['sim']);
  if (!section.ok) return section;
  const { config, key: keyName, port, tickMs, market, live: liveSection } = section.value;
  if (market !== 'live' && liveSection !== undefined) return err(locatedError(ctx.source, 'sim.live is read only with sim.market: live', ['sim', 'live']));
  const live = market === 'live' ? liveMarketSettings(ctx.source, ctx.value, liveSection ?? liveMarketSchema.parse({})) : undefined;
  if (live !== undefined && !live.ok) return live;
  const simConfigFile = config === undefined ? defaultSimConfig : absolute(ctx.configDir, config);
  if (simConfigFile === undefined) return err(locatedError(ctx.source, 'name the simulator config with sim.config (e.g. ./sim.yml)', ['sim']));
  const simSource = readYamlFile(simConfigFile);
  // An unreadable simulator config is a mistake in this file: point at sim.config.
  if (!simSource.ok) return err(simSource.error.location.line === undefined ? locatedError(ctx.source, `${simSource.error.reason}: ${simConfigFile}`, ['sim', 'config']) : simSource.error);
  const sim = validateYaml(simSource.value, simConfigSchema);
  if (!sim.ok) return sim;
  const key = sim.value.keys.find((k) => k.name === keyName);
  if (key === undefined) return err(locatedError(ctx.source, `no key "${keyName}" in ${simConfigFile} (keys: ${keyNames(sim.value)})`, ['sim', 'key']));
  if (key.readOnly || key.accountType !== 'FUTURES') {
    return err(locatedError(ctx.source, `sim key "${keyName}" cannot trade futures (${key.readOnly ? 'read-only' : 'a copy-trading account'})`, ['sim', 'key']));
  }
  return ok({
    mode: 'paper',
    simConfigFile,
    sim: { ...sim.value, port },
    key: keyName,
    credentials: { apiKey: key.apiKey, apiSecret: key.secret },
    ...(tickMs === undefined ? {} : { tickMs }),
    ...(live === undefined ? {} : { live: live.value }),
  });
}

/** `exchange:` of live mode: the connection settings `stratd call` reads, plus the stream URL and the keys. */
export function liveVenue(ctx: SectionContext): Result<LiveVenue, ConfigError> {
  const raw = valueAt(ctx.value, ['exchange']);
  if (raw === undefined || raw === null) return err(locatedError(ctx.source, 'live mode needs an exchange section (baseUrl, streamUrl and the API keys)', ['mode']));
  const settings = validateSection(ctx.source, exchangeSettingsSchema, withoutKeys(raw, ['apiKey', 'apiSecret', 'follower']), ['exchange']);
  if (!settings.ok) return settings;
  const { baseUrl, streamUrl, recvWindowMs, timeoutMs, rateLimitShare, http, apiKeyFile, apiSecretFile, plainTextHosts } = settings.value;
  if (streamUrl === undefined) return err(locatedError(ctx.source, 'streamUrl is required in live mode (the user data stream, wss://…)', ['exchange']));
  for (const [field, url] of [['baseUrl', baseUrl], ['streamUrl', streamUrl]] as const) {
    const plain = plainTextToRemote(url, plainTextHosts);
    if (plain !== undefined) return err(locatedError(ctx.source, plain, ['exchange', field]));
  }
  const credentials = resolveCredentials(
    ctx.source,
    { apiKey: text(valueAt(raw, ['apiKey'])), apiSecret: text(valueAt(raw, ['apiSecret'])), apiKeyFile, apiSecretFile },
    { envKey: 'STRATD_API_KEY', envSecret: 'STRATD_API_SECRET' },
    ['exchange'],
    ctx.env,
    ctx.configDir,
  );
  if (!credentials.ok) return credentials;
  if (credentials.value === undefined) {
    return err(locatedError(ctx.source, 'no API keys: write apiKey: ${VARIABLE} and apiSecret: ${VARIABLE}, set STRATD_API_KEY and STRATD_API_SECRET, or name apiKeyFile and apiSecretFile', ['exchange']));
  }
  return ok({ mode: 'live', baseUrl, streamUrl, credentials: credentials.value, recvWindowMs, timeoutMs, rateLimitShare, http });
}

/** `catalog:`: a catalog service; paper mode without one uses the embedded simulator's. */
export function catalogSource(ctx: SectionContext, mode: 'paper' | 'live'): Result<CatalogSource | undefined, ConfigError> {
  const raw = valueAt(ctx.value, ['catalog']);
  if (raw === undefined || raw === null) return ok(mode === 'paper' ? { kind: 'sim' } : undefined);
  const settings = validateSection(ctx.source, catalogSettingsSchema, withoutKeys(raw, ['token']), ['catalog']);
  if (!settings.ok) return settings;
  const plain = mode === 'live' ? plainTextToRemote(settings.value.baseUrl, plainTextHostsOf(ctx)) : undefined;
  if (plain !== undefined) return err(locatedError(ctx.source, plain, ['catalog', 'baseUrl']));
  const written = text(valueAt(raw, ['token']));
  knownSecrets.add(written);
  const tokenFile = settings.value.tokenFile === undefined ? undefined : absolute(ctx.configDir, settings.value.tokenFile);
  const token = written !== undefined ? ok(written) : resolveSecret('STRATD_CATALOG_TOKEN', tokenFile, ctx.env, ctx.source.file);
  if (!token.ok) return err(locatedError(ctx.source, token.error.reason, ['catalog', 'tokenFile']));
  if (token.value === undefined) return err(locatedError(ctx.source, 'no catalog token: write token: ${VARIABLE}, set STRATD_CATALOG_TOKEN, or name tokenFile', ['catalog']));
  return ok({ kind: 'service', baseUrl: settings.value.baseUrl, token: token.value, timeoutMs: settings.value.timeoutMs });
}

/**
 * The follower commands' credentials: paper mode, a COPY_TRADING key of the sim config (`follower.key`,
 * default copy-trading); live mode, `exchange.follower` (or STRATD_FOLLOWER_API_KEY/SECRET).
 */
export function followerSettings(
  ctx: SectionContext,
  section: { readonly key?: string | undefined } | undefined,
  venue: PaperVenue | LiveVenue,
): Result<FollowerSettings | undefined, ConfigError> {
  if (venue.mode === 'paper') {
    if (section === undefined) return ok(undefined);
    const name = section.key ?? 'copy-trading';
    const key = venue.sim.keys.find((k) => k.name === name);
    if (key === undefined) return err(locatedError(ctx.source, `no key "${name}" in ${venue.simConfigFile} (keys: ${keyNames(venue.sim)})`, ['follower', 'key']));
    if (key.accountType !== 'COPY_TRADING') return err(locatedError(ctx.source, `sim key "${name}" is not a copy-trading account`, ['follower', 'key']));
    return ok({ key: name, credentials: { apiKey: key.apiKey, apiSecret: key.secret } });
  }
  const raw = valueAt(ctx.value, ['exchange', 'follower']);
  if (section === undefined && raw === undefined) return ok(undefined);
  const written = validateSection(ctx.source, followerCredentialsSchema, raw ?? {}, ['exchange', 'follower']);
  if (!written.ok) return written;
  const credentials = resolveCredentials(
    ctx.source,
    written.value,
    { envKey: 'STRATD_FOLLOWER_API_KEY', envSecret: 'STRATD_FOLLOWER_API_SECRET' },
    raw === undefined ? ['follower'] : ['exchange', 'follower'],
    ctx.env,
    ctx.configDir,
  );
  if (!credentials.ok) return credentials;
  if (credentials.value === undefined) {
    return err(
      locatedError(
        ctx.source,
        'no follower keys: write exchange.follower.apiKey: ${VARIABLE} and apiSecret: ${VARIABLE}, or set STRATD_FOLLOWER_API_KEY and STRATD_FOLLOWER_API_SECRET',
        raw === undefined ? ['follower'] : ['exchange', 'follower'],
      ),
    );
  }
  return ok({ credentials: credentials.value });
}

/** exchange.plainTextHosts as written (the catalog's URL follows the same list). */
function plainTextHostsOf(ctx: SectionContext): string[] {
  const hosts = valueAt(ctx.value, ['exchange', 'plainTextHosts']);
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

function keyNames(sim: SimConfig): string {
  return sim.keys.map((k) => k.name).join(', ');
}

function absolute(dir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dir, path);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
