import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from '../../core/loopback.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ConfigError } from '../config-error.js';
import { isVariableReference } from './env.js';
import type { ConfigPath } from './locate.js';
import { locatedError } from './locate.js';
import { valueAt } from './secrets.js';
import { durationMs } from '../duration.js';
import type { Environment } from '../secrets.js';
import { resolveSecret } from '../secrets.js';
import type { YamlSource } from '../yaml-source.js';

/**
 * `notify:` of the daemon's YAML: where to send notifications (webhooks, Slack, Discord, Telegram) and
 * which events each sink wants. Webhook URLs and bot tokens are secrets: a `${NAME}` reference or a file,
 * never written in the YAML, and never echoed in an error message.
 */

export const NOTIFY_EVENTS = ['fill', 'killSwitch', 'strategyStopped', 'strategyFailed', 'daemonStart', 'daemonStop', 'reconnectStorm', 'dailySummary', 'rateLimit', 'positionLost'] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];
/** What a sink gets without an `events:` list: everything but fills (a market maker fills many times an hour). */
export const DEFAULT_NOTIFY_EVENTS: readonly NotifyEventKind[] = NOTIFY_EVENTS.filter((e) => e !== 'fill');

export const TELEGRAM_API_URL = 'https://api.telegram.org';

const sinkName = z
  .string()
  .max(32, 'at most 32 characters (it labels the sink\'s metrics)')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes, such as ops-slack');

const delivery = {
  name: sinkName,
  events: z.array(z.enum(NOTIFY_EVENTS)).min(1).optional(),
  /** Messages waiting per sink; when full, the oldest is dropped (and counted). */
  queue: z.number().int().min(1).max(10_000).default(100),
  timeout: durationMs({ min: 100, max: 120_000 }).default(10_000),
  retry: z
    .strictObject({
      attempts: z.number().int().min(1).max(100).default(6),
      initial: durationMs({ min: 10, max: 600_000 }).default(1000),
      max: durationMs({ min: 10, max: 3_600_000 }).default(300_000),
    })
    .refine((r) => r.max >= r.initial, { message: 'max must not be below initial', path: ['max'] })
    .prefault({}),
};

/**
 * The sinks as the loader validates them (`secret`: the text after `${NAME}` interpolation) and as the
 * published JSON Schema shows them (`secret`: one `${NAME}` reference).
 */
export function notifySectionSchema(secret: z.ZodType<string>) {
  const urlSink = <K extends string>(kind: K) => z.strictObject({ ...delivery, kind: z.literal(kind), url: secret.optional(), urlFile: z.string().min(1).optional() });
  const sink = z.discriminatedUnion('kind', [
    urlSink('webhook'),
    urlSink('slack'),
    urlSink('discord'),
    z.strictObject({
      ...delivery,
      kind: z.literal('telegram'),
      token: secret.optional(),
      tokenFile: z.string().min(1).optional(),
      chatId: z.union([z.string().regex(/^(-?\d+|@\w+)$/, 'a numeric chat id (such as -1001234567890) or @channelname'), z.number().int()]),
      apiUrl: z.url({ protocol: /^https?$/ }).default(TELEGRAM_API_URL),
    }),
  ]);
  return z.strictObject({
    /** A reconnect storm: this many user-stream disconnects within `within`. */
    reconnectStorm: z.strictObject({ count: z.number().int().min(2).max(1000).default(5), within: durationMs({ min: 1000, max: 86_400_000 }).default(600_000) }).prefault({}),
    sinks: z.array(sink).min(1),
  });
}

export const notifySchema = notifySectionSchema(z.string());
type NotifyFile = z.output<typeof notifySchema>;

export type NotifySinkKind = 'webhook' | 'slack' | 'discord' | 'telegram';

/** One sink, its secret resolved (the URL it posts to holds it: never log `url`). */
export interface NotifySinkSettings {
  readonly name: string;
  readonly kind: NotifySinkKind;
  /** Where the POST goes: the webhook URL, or `{apiUrl}/bot<token>/sendMessage`. A secret. */
  readonly url: string;
  /** The secret itself (the webhook URL, or the bot token), for the logger's scrubber. */
  readonly secret: string;
  /** Telegram only. */
  readonly chatId?: string;
  readonly events: readonly NotifyEventKind[];
  readonly queue: number;
  readonly timeoutMs: number;
  readonly retry: { readonly attempts: number; readonly initialMs: number; readonly maxMs: number };
}

export interface NotifySettings {
  readonly reconnectStorm: { readonly count: number; readonly withinMs: number };
  readonly sinks: readonly NotifySinkSettings[];
}

/** Refuses a webhook URL or bot token written into the YAML body (checked on the raw text, before interpolation). */
export function checkNotifySecretReferences(source: YamlSource, raw: unknown): Result<void, ConfigError> {
  const sinks = valueAt(raw, ['notify', 'sinks']);
  if (!Array.isArray(sinks)) return ok(undefined);
  for (const i of sinks.keys()) {
    for (const field of ['url', 'token']) {
      const value = valueAt(raw, ['notify', 'sinks', i, field]);
      if (value === undefined || isVariableReference(value)) continue;
      return err(locatedError(source, `secrets are never read from the YAML body: write ${field}: \${SOME_VARIABLE} and set that environment variable, or name a file with ${field}File`, ['notify', 'sinks', i, field]));
    }
  }
  return ok(undefined);
}

/** The validated section with each sink's secret read from its variable or file; live mode refuses plain http:// beyond loopback. */
export function notifySettings(source: YamlSource, section: NotifyFile | undefined, mode: 'paper' | 'live', configDir: string): Result<NotifySettings | undefined, ConfigError> {
  if (section === undefined) return ok(undefined);
  const sinks: NotifySinkSettings[] = [];
  const names = new Map<string, number>();
  for (const [i, sink] of section.sinks.entries()) {
    const at: ConfigPath = ['notify', 'sinks', i];
    const first = names.get(sink.name);
    if (first !== undefined) return err(locatedError(source, `duplicate sink name "${sink.name}" (also at notify.sinks[${first}])`, [...at, 'name']));
    names.set(sink.name, i);
    const field = sink.kind === 'telegram' ? 'token' : 'url';
    const written = sink.kind === 'telegram' ? sink.token : sink.url;
    const file = sink.kind === 'telegram' ? sink.tokenFile : sink.urlFile;
    const secret = readSecret(source, written, file, configDir, [...at, `${field}File`]);
    if (!secret.ok) return secret;
    if (secret.value === undefined) return err(locatedError(source, `no ${field === 'url' ? 'webhook URL' : 'bot token'}: write ${field}: \${VARIABLE} or name a file with ${field}File`, at));
    const url = sink.kind === 'telegram' ? `${sink.apiUrl.replace(/\/+$/, '')}/bot${secret.value}/sendMessage` : secret.value;
    // The URL may hold the secret: the messages below name the field, never the text.
    const where = sink.kind === 'telegram' ? [...at, 'apiUrl'] : [...at, written !== undefined ? 'url' : 'urlFile'];
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return err(locatedError(source, sink.kind === 'telegram' ? 'the bot token does not make a valid URL' : 'the webhook URL is not a valid URL', where));
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return err(locatedError(source, 'the URL must start with https:// (or http:// to this machine)', where));
    if (mode === 'live' && parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
      return err(locatedError(source, 'live mode sends notifications over TLS only to a host other than this machine: use https://', where));
    }
    sinks.push({
      name: sink.name,
      kind: sink.kind,
      url,
      secret: secret.value,
      ...(sink.kind === 'telegram' ? { chatId: String(sink.chatId) } : {}),
      events: sink.events ?? DEFAULT_NOTIFY_EVENTS,
      queue: sink.queue,
      timeoutMs: sink.timeout,
      retry: { attempts: sink.retry.attempts, initialMs: sink.retry.initial, maxMs: sink.retry.max },
    });
  }
  return ok({ reconnectStorm: { count: section.reconnectStorm.count, withinMs: section.reconnectStorm.within }, sinks });
}

/** No default variable: a sink's secret is its `${NAME}` reference (already interpolated) or its file. */
const NO_VARIABLE = '';

function readSecret(source: YamlSource, written: string | undefined, file: string | undefined, configDir: string, at: ConfigPath): Result<string | undefined, ConfigError> {
  if (written !== undefined && written.trim() !== '') return ok(written.trim());
  const path = file === undefined || isAbsolute(file) ? file : resolve(configDir, file);
  const read = resolveSecret(NO_VARIABLE, path, {} satisfies Environment, source.file);
  if (!read.ok) return err(locatedError(source, read.error.reason, at));
  return read;
}
