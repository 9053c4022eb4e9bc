import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { T0 } from '../../sim/e2e/sim-harness.js';
import { defaultYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { runUntil } from './virtual-steps.js';

/**
 * /metrics follows the Prometheus conventions `promtool check metrics` enforces: a counter's name ends
 * in `_total`, nothing else's does; `le` only on a histogram's buckets, `quantile` only on a summary;
 * every sample belongs to a family with HELP and TYPE.
 */
interface Family {
  readonly name: string;
  type: string | undefined;
  help: boolean;
  readonly samples: { readonly name: string; readonly labels: ReadonlySet<string> }[];
}

function families(text: string): Map<string, Family> {
  const out = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = out.get(name);
    if (f === undefined) {
      f = { name, type: undefined, help: false, samples: [] };
      out.set(name, f);
    }
    return f;
  };
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) ([A-Za-z_:][\w:]*) ?(.*)$/.exec(line);
    if (meta !== null) {
      current = family(meta[2] ?? '');
      if (meta[1] === 'TYPE') current.type = meta[3];
      else current.help = (meta[3] ?? '') !== '';
      continue;
    }
    const sample = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? \S+$/.exec(line);
    if (sample === null) continue;
    const labels = new Set([...(sample[2] ?? '').matchAll(/(\w+)="/g)].map((m) => m[1] ?? ''));
    const name = sample[1] ?? '';
    if (current === undefined || !name.startsWith(current.name)) throw new Error(`sample ${name} outside its family`);
    current.samples.push({ name, labels });
  }
  return out;
}

/** What is wrong with one family, by the exposition format's rules; empty when nothing is. */
function problems(f: Family): string[] {
  const found: string[] = [];
  if (!f.help) found.push('no HELP');
  const suffixes = f.samples.map((s) => s.name.slice(f.name.length));
  const hasLabel = (label: string): boolean => f.samples.some((s) => s.labels.has(label));
  switch (f.type) {
    case 'counter':
      if (!f.name.endsWith('_total')) found.push('a counter not named _total');
      if (suffixes.some((s) => s !== '')) found.push('a counter sample with a suffix');
      if (hasLabel('le') || hasLabel('quantile')) found.push('a counter with le or quantile labels');
      break;
    case 'gauge':
      if (/_(total|count|sum|bucket)$/.test(f.name)) found.push(`a gauge named like a counter or histogram part`);
      if (hasLabel('le') || hasLabel('quantile')) found.push('a gauge with le or quantile labels');
      break;
    case 'histogram':
      if (f.samples.some((s) => (s.name.endsWith('_bucket') ? !s.labels.has('le') : s.labels.has('le')))) found.push('le outside _bucket');
      if (suffixes.some((s) => !['_bucket', '_sum', '_count'].includes(s))) found.push('a histogram sample that is not _bucket, _sum or _count');
      if (f.samples.length > 0 && !suffixes.includes('_count')) found.push('a histogram without _count');
      break;
    case 'summary':
      if (f.samples.some((s) => (s.name === f.name ? !s.labels.has('quantile') : s.labels.has('quantile')))) found.push('quantile outside the quantile samples');
      if (suffixes.some((s) => !['', '_sum', '_count'].includes(s))) found.push('a summary sample that is not a quantile, _sum or _count');
      break;
    default:
      found.push(`TYPE ${String(f.type)}`);
  }
  return found;
}

let dir: string;
let daemon: Daemon | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-metrics-conventions-'));
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

test('every metric family of a trading paper daemon keeps the Prometheus naming and type rules', async () => {
  const clock = new VirtualClock(T0);
  daemon = await startDaemon(writeConfig(dir, 'default.yml', defaultYaml(join(dir, 'state'))), clock);
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.openOrders().length > 0, 'orders of the example strategies', { stepMs: 500 });
  const text = await (await fetch(`${d.health.url}/metrics`)).text();
  const all = families(text);
  // The kinds the rules speak of are all there: counters, gauges, histograms and a summary.
  expect(new Set([...all.values()].map((f) => f.type))).toEqual(new Set(['counter', 'gauge', 'histogram', 'summary']));
  expect(all.get('stratd_event_loop_lag_seconds')?.type).toBe('histogram');
  expect(all.get('stratd_event_loop_lag_recent_seconds')?.type).toBe('summary');
  const wrong = [...all.values()].map((f) => [f.name, problems(f)] as const).filter(([, p]) => p.length > 0);
  expect(wrong).toEqual([]);
});

test('the checker finds what promtool finds', () => {
  const bad = [
    '# HELP a_total x',
    '# TYPE a_total counter',
    'a_total{le="1"} 3',
    '# HELP g_total x',
    '# TYPE g_total gauge',
    'g_total 1',
    '# HELP q x',
    '# TYPE q gauge',
    'q{quantile="0.5"} 1',
    '# HELP c x',
    '# TYPE c counter',
    'c 1',
  ].join('\n');
  const found = Object.fromEntries([...families(bad).values()].map((f) => [f.name, problems(f)]));
  expect(found).toEqual({
    a_total: ['a counter with le or quantile labels'],
    g_total: ['a gauge named like a counter or histogram part'],
    q: ['a gauge with le or quantile labels'],
    c: ['a counter not named _total'],
  });
});
