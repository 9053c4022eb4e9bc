import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { publishedConfigSchema } from '../../src/app/commands/validate.js';
import { daemonConfigJsonSchema, DURATION_PATTERN, SECRET_REFERENCE, SECTION_DESCRIPTIONS } from '../../src/settings/daemon-config/json-schema.js';
import { isVariableReference } from '../../src/settings/daemon-config/env.js';
import { daemonFileSchema } from '../../src/settings/daemon-config/schema.js';
import { parseDuration } from '../../src/settings/duration.js';

/**
 * schema/stratd-config.schema.json: generated from the loader's zod schemas (never drifts from them),
 * and the example configs pass it with a JSON Schema validator (ajv), as an editor would check them.
 */
const file = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const SCHEMA_FILE = file('schema/stratd-config.schema.json');

type Doc = Record<string, unknown>;
const yamlDoc = (relative: string): Doc => parse(readFileSync(file(relative), 'utf8')) as Doc;

let validate: ValidateFunction;

beforeAll(() => {
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: true, strictRequired: false });
  ajv.addFormat('uri', { type: 'string', validate: (text: string) => URL.canParse(text) });
  validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Doc);
});

function errorsOf(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** config/default.yml parsed, with `edit` applied to the plain object. */
function edited(edit: (doc: Doc & { strategies: Doc[]; userStream: Doc; jobs: Doc }) => void): Doc {
  const doc = yamlDoc('config/default.yml') as Doc & { strategies: Doc[]; userStream: Doc; jobs: Doc };
  edit(doc);
  return doc;
}

describe('the published config schema', () => {
  it('is exactly what the zod schemas and the packaged strategies generate (regenerate: npm run schema)', async () => {
    const generated = await publishedConfigSchema();
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    if (checkedIn !== generated) {
      const line = checkedIn.split('\n').findIndex((text, i) => text !== generated.split('\n')[i]);
      throw new Error(`schema/stratd-config.schema.json differs from the generated schema from line ${line + 1}: run \`npm run schema\``);
    }
  });

  it('accepts config/default.yml and config/live.example.yml', () => {
    expect(errorsOf(yamlDoc('config/default.yml'))).toEqual([]);
    expect(errorsOf(yamlDoc('config/live.example.yml'))).toEqual([]);
  });

  it('both example configs name it for yaml-language-server on their first line', () => {
    for (const name of ['config/default.yml', 'config/live.example.yml']) {
      expect(readFileSync(file(name), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/stratd-config.schema.json');
    }
  });

  it('refuses what the loader refuses: unknown keys, wrong types, bad durations, inline secrets, live without exchange', () => {
    expect(errorsOf(edited((d) => (d['modee'] = 'paper')))).not.toEqual([]);
    expect(errorsOf(edited((d) => (d.userStream['pingEvery'] = 20)))).not.toEqual([]);
    expect(errorsOf(edited((d) => (d.userStream['pingEvery'] = '20 seconds')))).not.toEqual([]);
    expect(errorsOf(edited((d) => (d.jobs['reconcile'] = 5)))).not.toEqual([]);
    expect(errorsOf(edited((d) => (d.strategies[0] = { ...d.strategies[0], id: 'Quoter BTC' })))).not.toEqual([]);
    expect(errorsOf(edited((d) => (d['mode'] = 'live'))).join('\n')).toContain("must have required property 'exchange'");
    const live = yamlDoc('config/live.example.yml') as Doc & { exchange: Doc };
    expect(errorsOf({ ...live, exchange: { ...live.exchange, apiSecret: 'written-here' } })).not.toEqual([]);
    expect(errorsOf({ ...live, exchange: { ...live.exchange, apiSecret: '${MY_SECRET}' } })).toEqual([]);
    const notify = (sink: Doc): Doc => edited((d) => (d['notify'] = { sinks: [sink] }));
    expect(errorsOf(notify({ name: 'ops', kind: 'slack', url: '${SLACK_URL}', events: ['fill', 'killSwitch'] }))).toEqual([]);
    expect(errorsOf(notify({ name: 'ops', kind: 'slack', url: 'https://hooks.example/T000/B000/xyz' }))).not.toEqual([]);
    expect(errorsOf(notify({ name: 'tg', kind: 'telegram', tokenFile: './bot-token', chatId: -100123 }))).toEqual([]);
    expect(errorsOf(notify({ name: 'tg', kind: 'telegram', tokenFile: './bot-token' }))).not.toEqual([]);
    expect(errorsOf(notify({ name: 'ops', kind: 'teams', url: '${URL}' }))).not.toEqual([]);
  });

  it('accepts ${NAME} references where the loader interpolates them: URLs and durations', () => {
    const live = yamlDoc('config/live.example.yml') as Doc & { exchange: Doc };
    expect(errorsOf({ ...live, exchange: { ...live.exchange, baseUrl: '${STRATD_BASE_URL}' } })).toEqual([]);
    expect(errorsOf({ ...live, exchange: { ...live.exchange, baseUrl: 'not a url' } })).not.toEqual([]);
    expect(errorsOf(edited((d) => (d.userStream['pingEvery'] = '${PING:-20s}')))).toEqual([]);
  });

  it('checks each packaged strategy’s params by its module', () => {
    const params = (i: number, p: Doc): Doc => edited((d) => (d.strategies[i] = { ...d.strategies[i], params: p }));
    expect(errorsOf(params(0, { halfSpreadBps: -1 }))).not.toEqual([]);
    expect(errorsOf(params(0, { halfSpreadBps: 3, windowMs: 1000 }))).not.toEqual([]);
    expect(errorsOf(params(1, { windowMs: 1000 }))).toEqual([]);
    expect(errorsOf(params(1, { halfSpreadBps: 3 }))).not.toEqual([]);
    // An empty `params:` (null) takes the strategy's defaults.
    expect(errorsOf(params(1, null as unknown as Doc))).toEqual([]);
  });

  it('its ${NAME} and duration patterns read text as the loader does', () => {
    for (const text of ['${STRATD_API_KEY}', ' ${A_1} ', '${KEY}x', 'x${KEY}', '${1KEY}', '${KEY:-d}', 'plain', '$KEY']) {
      expect([text, SECRET_REFERENCE.test(text)]).toEqual([text, isVariableReference(text)]);
    }
    const duration = new RegExp(DURATION_PATTERN);
    for (const text of ['500ms', '20s', '1.5s', '30m', '1h', '1d', '2 s', '20', '20S', 's', '-1s', '1.5.5s', '1w', '1e3ms']) {
      expect([text, duration.test(text)]).toEqual([text, parseDuration(text) !== undefined]);
    }
  });

  it('marks exactly the duration fields of the document as durations', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (JSON.stringify((node as Doc)['anyOf'] ?? []).includes(JSON.stringify(DURATION_PATTERN))) found.push(path);
      for (const [key, child] of Object.entries(node)) walk(child, path === '' ? key : `${path}.${key}`);
    };
    walk(daemonConfigJsonSchema(), '');
    const channels = ['depth', 'trades', 'klines', 'bookTicker', 'ticker24h', 'markPrice', 'index', 'fundingRate', 'openInterest'];
    expect(found.sort()).toEqual(
      [
        ...channels.map((c) => `properties.market.items.properties.${c}.properties.every`),
        // The socket's silence threshold, on every channel with a topic (funding and open interest have none).
        ...channels.filter((c) => c !== 'fundingRate' && c !== 'openInterest').map((c) => `properties.market.items.properties.${c}.properties.silentAfter`),
        'properties.userStream.properties.pingEvery',
        'properties.userStream.properties.pongTimeout',
        'properties.userStream.properties.backoff.properties.initial',
        'properties.userStream.properties.backoff.properties.max',
        'properties.shutdown.properties.timeout',
        'properties.record.properties.flushEvery',
        'properties.record.properties.reorderWindow',
        'properties.record.properties.rotate.properties.every',
        'properties.notify.properties.reconnectStorm.properties.within',
        'properties.log.properties.summaryEvery',
        ...['every', 'fundingEvery', 'maxBookAge'].map((f) => `properties.sim.properties.live.properties.${f}`),
        // One per sink kind (webhook, slack, discord, telegram).
        ...[0, 1, 2, 3].flatMap((k) => ['timeout', 'retry.properties.initial', 'retry.properties.max'].map((f) => `properties.notify.properties.sinks.items.oneOf.${k}.properties.${f}`)),
      ].sort(),
    );
  });

  it('describes every section of the document', () => {
    const sections = Object.keys((daemonConfigJsonSchema()['properties'] ?? {}) as Doc).sort();
    expect(sections).toEqual(Object.keys(daemonFileSchema.shape).sort());
    expect(Object.keys(SECTION_DESCRIPTIONS).sort()).toEqual(sections);
  });
});
