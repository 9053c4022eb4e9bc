import { z } from 'zod';
import { InvariantError } from '../../core/errors.js';
import { catalogSettingsSchema, exchangeSettingsSchema } from '../connection-settings.js';
import { cronExpression } from './cron.js';
import { isDurationOrOff } from '../duration.js';
import { notifySectionSchema } from './notify.js';
import { daemonFileSchema, followerCredentialsSchema, simSectionSchema } from './schema.js';

/**
 * The published JSON Schema of the daemon's YAML (schema/stratd-config.schema.json), generated from the
 * zod schemas the loader validates with, so that editors (yaml-language-server) complete and check the
 * file. It describes the document as written: durations as text, amounts as text or numbers, secrets as
 * `${NAME}` references. Rules the loader checks in code (a strategy symbol must be in `market`, the
 * simulator's keys, files) stay out; `stratd validate` checks everything.
 */

export type JsonSchema = Record<string, unknown>;

/** A strategy module's params schema: the published schema checks `params:` of that `module:`. */
export interface StrategyParamsSchema {
  readonly module: string;
  readonly params: z.ZodType;
}

/** Exactly one `${NAME}` reference, as checkSecretReferences (isVariableReference) accepts a secret. */
export const SECRET_REFERENCE = /^\s*\$\{[A-Za-z_][A-Za-z0-9_]*\}\s*$/;

/** Text holding a `${NAME}` or `${NAME:-default}` reference (daemon-config/env.ts). */
const ENV_REFERENCE = '\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}';

/** parseDuration's syntax (src/settings/duration.ts): a number and a unit. */
export const DURATION_PATTERN = '^\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)$';

const secretReference = z.string().regex(SECRET_REFERENCE, 'one ${NAME} reference to an environment variable');
const writtenSecrets = { apiKey: secretReference.optional(), apiSecret: secretReference.optional() };

/**
 * The loader validates the venue sections apart (per mode, secrets removed first); as written in the
 * document they are these schemas plus the `${NAME}` secret fields.
 */
const exchangeSection = exchangeSettingsSchema.out.extend({ ...writtenSecrets, follower: followerCredentialsSchema.extend(writtenSecrets).optional() });
const catalogSection = catalogSettingsSchema.out.extend({ token: secretReference.optional() });
const documentSchema = daemonFileSchema.extend({
  exchange: exchangeSection.optional(),
  sim: simSectionSchema.optional(),
  catalog: catalogSection.nullish(),
  notify: notifySectionSchema(secretReference).optional(),
});

const TITLE = 'stratd daemon configuration';

/** Hover help for the sections; every section of daemonFileSchema has one (a test checks). */
export const SECTION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  mode: 'paper: the embedded simulated exchange (sim section); live: a real exchange (exchange section)',
  stateDir: 'journal and strategy state; --state-dir and STRATD_STATE_DIR override it; relative to this file',
  exchange: 'live mode: where the exchange is, and its API keys as ${NAME} references or files (never written here)',
  sim: 'paper mode: the simulator config, the key the daemon trades with, and its loopback port (0: any free one)',
  catalog: 'the product/user catalog service; its token as a ${NAME} reference, STRATD_CATALOG_TOKEN or tokenFile',
  market: 'market data polled per symbol, each channel on its own interval',
  userStream: 'the user data stream: heartbeat and reconnect backoff',
  jobs: 'scheduled jobs: cron expressions, UTC',
  risk: 'global limits over all strategies together',
  strategies: 'strategy instances: a module of strategies/ (or a path), its symbols, params and limits',
  orphans: 'open orders the journal does not know: adopt or cancel',
  shutdown: 'on SIGTERM: cancel open orders or leave them, and how long a clean stop may take',
  journal: 'how durable an order journal commit is: disk (default: in the operating system before the send, fsynced beside it) or os (in the operating system before the send; survives a crash of stratd, not of the machine)',
  health: 'the health and metrics HTTP server (loopback by default)',
  follower: 'the copy-trading follower commands: in paper mode, which key of the simulator config',
  log: 'log level of the JSON lines on standard output (pretty single lines on a terminal), and how often the trade log writes its per-strategy summary line',
  notify: 'notifications (fills, kill switch, strategy stopped or failed, start/stop, reconnect storms, daily summary) to webhooks, Slack, Discord or Telegram; URLs and bot tokens as ${NAME} references or files',
  signals: 'the external-signal endpoint POST /signals (TradingView alerts, webhooks): replay window, the weaker token mode, dry run',
  record: 'record every market event the sources see (and the account events) for backtests: file, gzip, rotation',
};

/** The JSON Schema (draft 2020-12) of `stratd run --config FILE`, with each given strategy module's params. */
export function daemonConfigJsonSchema(strategies: readonly StrategyParamsSchema[] = []): JsonSchema {
  const schema = inputSchema(documentSchema, describeText);
  const sections = objectAt(schema, ['properties']);
  for (const [key, description] of Object.entries(SECTION_DESCRIPTIONS)) objectAt(sections, [key])['description'] = description;
  const strategyItem = objectAt(schema, ['properties', 'strategies', 'items']);
  const byModule = [...strategies].sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
  if (byModule.length > 0) {
    objectAt(strategyItem, ['properties', 'module'])['examples'] = byModule.map((s) => s.module);
    strategyItem['allOf'] = byModule.map((s) => whenEquals('module', s.module, { properties: { params: { anyOf: [paramsSchema(s), { type: 'null' }] } } }));
  }
  return {
    $schema: schema['$schema'],
    title: TITLE,
    description: 'Generated from the zod schemas of src/settings by `npm run schema`; do not edit. `stratd validate --config FILE` checks what a schema cannot.',
    ...withoutKey(schema, '$schema'),
    // Checked in code by the loader (liveVenue), repeated here for the editor.
    allOf: [whenEquals('mode', 'live', { required: ['exchange'] })],
  };
}

/** The schema as the checked-in file holds it: two-space JSON and a final newline. */
export function renderDaemonConfigJsonSchema(strategies: readonly StrategyParamsSchema[] = []): string {
  return `${JSON.stringify(daemonConfigJsonSchema(strategies), null, 2)}\n`;
}

/** What a document may hold (io: input): defaults make keys optional, transforms show their input. */
function inputSchema(schema: z.ZodType, annotate: (zodSchema: unknown, json: JsonSchema) => void = () => undefined): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'throw', override: ({ zodSchema, jsonSchema }) => annotate(zodSchema, jsonSchema) }) as JsonSchema;
}

/**
 * Text fields of the document whose meaning the JSON type does not show: cron expressions, URLs (which
 * may come from the environment) and durations (durationMs: text in, milliseconds out, the only
 * text-to-number transforms of the document; a test lists them).
 */
function describeText(zodSchema: unknown, json: JsonSchema): void {
  if (zodSchema === cronExpression) {
    json['description'] = 'a cron expression in quotes (5 fields, or 6 with seconds first), evaluated in UTC, such as "*/5 * * * *"';
  } else if (json['format'] === 'uri') {
    // `${NAME}` interpolation applies to every text value: a URL may come from the environment.
    delete json['format'];
    json['anyOf'] = [{ format: 'uri' }, { pattern: ENV_REFERENCE }];
  } else if (isDurationOrOff(zodSchema)) {
    delete json['type'];
    json['anyOf'] = [{ type: 'string', pattern: DURATION_PATTERN }, { type: 'string', pattern: ENV_REFERENCE }, { const: 'off' }, { const: 0 }];
    json['description'] = 'a duration: a number and a unit (ms, s, m, h, d), such as 30s, 1m or 1h; 0 or off for none';
  } else if (zodSchema instanceof z.ZodPipe && zodSchema.in instanceof z.ZodString && zodSchema.out instanceof z.ZodTransform) {
    json['anyOf'] = [{ pattern: DURATION_PATTERN }, { pattern: ENV_REFERENCE }];
    json['description'] = 'a duration: a number and a unit (ms, s, m, h, d), such as 500ms, 20s, 30m or 1h';
  }
}

function paramsSchema(strategy: StrategyParamsSchema): JsonSchema {
  const json = inputSchema(strategy.params);
  // A sub-schema's "#/$defs/…" would resolve against the whole document: inline schemas only.
  if ('$defs' in json) throw new InvariantError('CONFIG_SCHEMA', `strategy ${strategy.module}: params schema needs $defs, which the published schema cannot embed`);
  return { description: `params of the strategy module ${strategy.module}`, ...withoutKey(json, '$schema') };
}

function whenEquals(key: string, value: string, then: JsonSchema): JsonSchema {
  return { if: { properties: { [key]: { const: value } }, required: [key] }, then };
}

function objectAt(root: JsonSchema, path: readonly string[]): JsonSchema {
  let node: unknown = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  if (!isObject(node)) throw new InvariantError('CONFIG_SCHEMA', `the generated config schema has no ${path.join('.')}`);
  return node;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutKey(json: JsonSchema, key: string): JsonSchema {
  return Object.fromEntries(Object.entries(json).filter(([k]) => k !== key));
}
