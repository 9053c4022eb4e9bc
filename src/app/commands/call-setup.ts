import { z } from 'zod';
import { systemTime } from '../../core/system-time.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import { catalogSettingsSchema, exchangeSettingsSchema } from '../../settings/connection-settings.js';
import type { Environment } from '../../settings/secrets.js';
import { resolveSecret } from '../../settings/secrets.js';
import { readYamlFile, validateYaml } from '../../settings/yaml-source.js';
import { createGotHttp } from '../../venue/got-http.js';
import { ExchangeClient } from '../../venue/exchange-client.js';

const connectionsFileSchema = z.looseObject({ exchange: z.unknown().optional(), catalog: z.unknown().optional() });

export interface Connections {
  readonly exchange?: z.output<typeof exchangeSettingsSchema>;
  readonly catalog?: z.output<typeof catalogSettingsSchema>;
  readonly file?: string;
}

/** Reads the exchange and catalog sections of a config file (other sections are the daemon's). */
export function readConnections(file: string | undefined): Result<Connections, ConfigError> {
  if (file === undefined) return ok({});
  const source = readYamlFile(file);
  if (!source.ok) return source;
  const top = validateYaml(source.value, connectionsFileSchema);
  if (!top.ok) return top;
  const out: { -readonly [K in keyof Connections]: Connections[K] } = { file };
  if (top.value.exchange !== undefined) {
    const exchange = validateYaml(source.value, exchangeSettingsSchema, top.value.exchange, ['exchange']);
    if (!exchange.ok) return exchange;
    out.exchange = exchange.value;
  }
  if (top.value.catalog !== undefined) {
    const catalog = validateYaml(source.value, catalogSettingsSchema, top.value.catalog, ['catalog']);
    if (!catalog.ok) return catalog;
    out.catalog = catalog.value;
  }
  return ok(out);
}

/** An exchange client for `stratd call`: base URL from the flag, STRATD_BASE_URL or the config. */
export function exchangeClientFor(connections: Connections, baseUrlFlag: string | undefined, env: Environment): Result<ExchangeClient, ConfigError> {
  const baseUrl = baseUrlFlag ?? env['STRATD_BASE_URL'] ?? connections.exchange?.baseUrl;
  if (baseUrl === undefined) return err(new ConfigError('no exchange URL: pass --base-url, set STRATD_BASE_URL, or give --config with exchange.baseUrl'));
  const key = resolveSecret('STRATD_API_KEY', connections.exchange?.apiKeyFile, env, connections.file);
  if (!key.ok) return key;
  const secret = resolveSecret('STRATD_API_SECRET', connections.exchange?.apiSecretFile, env, connections.file);
  if (!secret.ok) return secret;
  if ((key.value === undefined) !== (secret.value === undefined)) {
    return err(new ConfigError('give both the API key and the API secret (STRATD_API_KEY and STRATD_API_SECRET, or both files)'));
  }
  return ok(
    new ExchangeClient({
      baseUrl,
      time: systemTime,
      ...(key.value !== undefined && secret.value !== undefined ? { credentials: { apiKey: key.value, apiSecret: secret.value } } : {}),
      ...(connections.exchange === undefined
        ? {}
        : {
            recvWindowMs: connections.exchange.recvWindowMs,
            timeoutMs: connections.exchange.timeoutMs,
            rateBudget: { share: connections.exchange.rateLimitShare },
            ...(connections.exchange.http === 'got' ? { http: createGotHttp() } : { httpStack: connections.exchange.http }),
          }),
    }),
  );
}

export function catalogTarget(connections: Connections, baseUrlFlag: string | undefined, env: Environment): Result<{ baseUrl: string; token: string; timeoutMs: number }, ConfigError> {
  const baseUrl = baseUrlFlag ?? env['STRATD_CATALOG_URL'] ?? connections.catalog?.baseUrl;
  if (baseUrl === undefined) return err(new ConfigError('no catalog URL: pass --base-url, set STRATD_CATALOG_URL, or give --config with catalog.baseUrl'));
  const token = resolveSecret('STRATD_CATALOG_TOKEN', connections.catalog?.tokenFile, env, connections.file);
  if (!token.ok) return token;
  if (token.value === undefined) return err(new ConfigError('no catalog token: set STRATD_CATALOG_TOKEN or catalog.tokenFile'));
  return ok({ baseUrl, token: token.value, timeoutMs: connections.catalog?.timeoutMs ?? 10_000 });
}
