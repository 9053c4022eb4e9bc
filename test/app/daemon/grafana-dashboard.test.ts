import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { T0 } from '../../sim/e2e/sim-harness.js';
import { defaultYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { runUntil } from './virtual-steps.js';

const DASHBOARD = join(process.cwd(), 'deploy', 'grafana', 'stratd-dashboard.json');

interface Target {
  readonly expr?: unknown;
  readonly datasource?: unknown;
}
interface Panel {
  readonly type?: unknown;
  readonly title?: unknown;
  readonly targets?: readonly Target[];
  readonly panels?: readonly Panel[];
}
interface Dashboard {
  readonly schemaVersion?: unknown;
  readonly templating?: { readonly list?: ReadonlyArray<{ readonly name?: unknown; readonly type?: unknown; readonly query?: unknown }> };
  readonly panels?: readonly Panel[];
}

function dashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
}

function allPanels(panels: readonly Panel[] = []): Panel[] {
  return panels.flatMap((p) => [p, ...allPanels(p.panels)]);
}

/** Every PromQL expression of the dashboard's panels. */
function expressions(d: Dashboard): string[] {
  return allPanels(d.panels).flatMap((p) => (p.targets ?? []).map((t) => String(t.expr)));
}

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: identifiers left once strings, label matchers, ranges
 * and grouping label lists are taken out, other than functions and aggregations (followed by `(`) and
 * keywords.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/([A-Za-z_:][\w:]*)\s*(\()?/g)].filter((m) => m[2] === undefined && !KEYWORDS.has((m[1] ?? '').toLowerCase())).map((m) => m[1] ?? '');
  return [...new Set(names)];
}

/** The families /metrics exposes (its TYPE lines) and the series names each makes: histograms' _bucket, _sum, _count, summaries' _sum, _count. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE ([A-Za-z_:][\w:]*) (\w+)$/gm)) {
    const [, name = '', type] = m;
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

test('the PromQL reader finds the metrics an expression selects, not its functions, labels or keywords', () => {
  expect(metricNames('histogram_quantile(0.99, sum by (le, strategy) (rate(stratd_strategy_handler_seconds_bucket{instance=~"$instance"}[$__rate_interval])))')).toEqual(['stratd_strategy_handler_seconds_bucket']);
  expect(metricNames('stratd_rate_budget_used{instance=~"a"} / stratd_rate_budget_limit{job="x"}')).toEqual(['stratd_rate_budget_used', 'stratd_rate_budget_limit']);
  expect(metricNames('sum by (sink) (increase(stratd_notify_dropped_total[5m])) > bool 0 or on(instance) vector(0)')).toEqual(['stratd_notify_dropped_total']);
});

test('the dashboard is a Grafana 10 model with a Prometheus datasource variable, and every query names it', () => {
  const d = dashboard();
  expect(Number(d.schemaVersion)).toBeGreaterThanOrEqual(38);
  expect(d.templating?.list).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' })]));
  const targets = allPanels(d.panels).flatMap((p) => p.targets ?? []);
  expect(targets.length).toBeGreaterThan(20);
  for (const t of targets) expect(t.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
});

let dir: string;
let daemon: Daemon | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-grafana-'));
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A notification sink (the notify families exist only with one); it never sends: no daily reset runs here. */
const NOTIFY_YAML = `notify:
  sinks:
    - name: ops
      kind: webhook
      url: \${GRAFANA_TEST_HOOK_URL}
      events: [dailySummary]
`;

test('every metric the dashboard queries exists on a trading paper daemon’s /metrics', async () => {
  const clock = new VirtualClock(T0);
  const config = writeConfig(dir, 'default.yml', `${defaultYaml(join(dir, 'state'))}${NOTIFY_YAML}`);
  daemon = await startDaemon(config, clock, [], { GRAFANA_TEST_HOOK_URL: 'http://127.0.0.1:9/hook' });
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.openOrders().length > 0, 'orders of the example strategies', { stepMs: 500 });
  const exposed = exposedNames(await (await fetch(`${d.health.url}/metrics`)).text());
  const queried = [...new Set(expressions(dashboard()).flatMap(metricNames))].sort();
  expect(queried.length).toBeGreaterThan(25);
  expect(queried.filter((name) => !exposed.has(name))).toEqual([]);
}, 120_000);
