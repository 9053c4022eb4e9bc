import { z } from 'zod';

const SECRET_KEYS = ['apiKey', 'apiSecret', 'secret', 'token', 'password'];

/** Refuses secrets written into the YAML body, pointing at the supported ways. */
const noInlineSecrets = (where: string) =>
  z.custom<unknown>((value) => {
    if (typeof value !== 'object' || value === null) return true;
    return !SECRET_KEYS.some((k) => k in value);
  }, `secrets are never read from the YAML body: set them in the environment or name a file (${where})`);

/** Where and how to reach the exchange; credentials by environment variable or file only. */
export const exchangeSettingsSchema = noInlineSecrets('STRATD_API_KEY/STRATD_API_SECRET or apiKeyFile/apiSecretFile').pipe(
  z
    .object({
      baseUrl: z.url({ protocol: /^https?$/ }),
      streamUrl: z.url({ protocol: /^wss?$/ }).optional(),
      recvWindowMs: z.number().int().min(1).max(60_000).default(5000),
      timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
      rateLimitShare: z.number().gt(0).lte(1).default(0.8),
      /** The REST client's HTTP stack: stratd's own HTTP/1.1 over kept-alive sockets, undici, Node's own http, or got (README "The exchange client"). */
      http: z.enum(['socket', 'undici', 'node', 'got']).default('socket'),
      apiKeyFile: z.string().min(1).optional(),
      apiSecretFile: z.string().min(1).optional(),
      /**
       * Host names live mode may reach over http:// and ws:// (a simulator on a private container
       * network); any other remote host needs TLS. Also applies to the catalog's baseUrl.
       */
      plainTextHosts: z.array(z.string().min(1)).default([]),
    })
    .strict(),
);
export type ExchangeSettings = z.output<typeof exchangeSettingsSchema>;

/** The product/user catalog service (document 002); its token by STRATD_CATALOG_TOKEN or file. */
export const catalogSettingsSchema = noInlineSecrets('STRATD_CATALOG_TOKEN or tokenFile').pipe(
  z
    .object({
      baseUrl: z.url({ protocol: /^https?$/ }),
      tokenFile: z.string().min(1).optional(),
      timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    })
    .strict(),
);
export type CatalogSettings = z.output<typeof catalogSettingsSchema>;
