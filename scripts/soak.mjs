#!/usr/bin/env node
// The soak (issue 8): the paper daemon (`stratd run` with its embedded simulator) through a day of market
// in accelerated time, sampled from outside over its health server's /metrics and /status. Prints JSON
// lines (one per sample, then a summary) and exits 1 when a bound is broken: heap or RSS growth after the
// warm-up, event-loop lag p99, a table above its count bound or growing without one, the daemon not
// stopping cleanly on SIGTERM. Runs the compiled daemon (bin/stratd.js → dist/): `npm run soak` builds first.
//
// The embedded simulator keeps finished orders, trades and flows for --sim-history-hours of market
// (15 min, and an hour of candles: inside the warm-up; its own defaults are two weeks of orders like the
// exchange's and a week of candles), so the growth measured is the daemon's, not the exchange's
// histories filling up.
//
// Usage: node scripts/soak.mjs [--hours 24] [--time-scale 50] [--warmup 2 (h)] [--interval 2 (s)]
//          [--config config/default.yml] [--state-dir DIR] [--sim-history-hours 0.25] [--keep] [--quiet]
//          [--max-growth-pct 10] [--max-lag-ms 20]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOUR_MS = 3_600_000;

const { values: flags } = parseArgs({
  options: {
    hours: { type: 'string', default: '24' },
    'time-scale': { type: 'string', default: '50' },
    warmup: { type: 'string' },
    interval: { type: 'string', default: '2' },
    config: { type: 'string', default: join(ROOT, 'config/default.yml') },
    'state-dir': { type: 'string' },
    'sim-history-hours': { type: 'string', default: '0.25' },
    'max-growth-pct': { type: 'string', default: '10' },
    'max-lag-ms': { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
  const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
  process.stdout.write(`${header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n')}\n`);
  process.exit(0);
}

function positive(name, text) {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) usage(`--${name} must be a positive number, got "${text}"`);
  return value;
}
function usage(message) {
  process.stderr.write(`soak: ${message}\n`);
  process.exit(2);
}

const hours = positive('hours', flags.hours);
const factor = positive('time-scale', flags['time-scale']);
// Default: the first 2 hours of market, or the first quarter of a shorter run.
const warmupHours = flags.warmup === undefined ? Math.min(2, hours / 4) : Number(flags.warmup);
if (!(warmupHours >= 0 && warmupHours < hours)) usage(`--warmup must be at least 0 and below --hours (${hours}), got "${flags.warmup}"`);
const intervalMs = positive('interval', flags.interval) * 1000;
const maxGrowthPct = positive('max-growth-pct', flags['max-growth-pct']);
const maxLagMs = positive('max-lag-ms', flags['max-lag-ms']);
const simHistoryHours = positive('sim-history-hours', flags['sim-history-hours']);

// ------------------------------------------------------------------ the run's config, in a temp dir

const work = mkdtempSync(join(tmpdir(), 'stratd-soak-'));
const stateDir = resolve(flags['state-dir'] ?? join(work, 'state'));
const baseFile = resolve(flags.config);
const base = parseYaml(readFileSync(baseFile, 'utf8'));
if (base.mode !== 'paper' || base.sim === undefined) usage(`${baseFile} is not a paper config (mode: paper with a sim: section): the soak only runs against the embedded simulator`);
const simFile = resolve(dirname(baseFile), base.sim.config ?? './sim.yml');
const sim = parseYaml(readFileSync(simFile, 'utf8'));
sim.history = { ...sim.history, maxAgeMs: Math.max(60_000, Math.round(simHistoryHours * HOUR_MS)) };
sim.market = { ...sim.market, klineRetention: Math.max(60, Math.round(simHistoryHours * 60)) };
const simCopy = join(work, 'sim.yml');
writeFileSync(simCopy, stringifyYaml(sim));
const config = { ...base, stateDir, sim: { ...base.sim, config: simCopy, port: 0 }, health: { host: '127.0.0.1', port: 0 } };
delete config.record;
const configFile = join(work, 'stratd.yml');
writeFileSync(configFile, stringifyYaml(config));
const logFile = join(work, 'stratd.log');

// ------------------------------------------------------------------ the daemon

const env = { ...process.env };
for (const name of ['STRATD_STATE_DIR', 'STRATD_HEALTH_TOKEN', 'NOTIFY_SOCKET', 'WATCHDOG_USEC']) delete env[name];
const args = [join(ROOT, 'bin/stratd.js'), 'run', '--config', configFile, '--state-dir', stateDir, '--time-scale', String(factor)];
const log = createWriteStream(logFile);
const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
child.stderr.pipe(log, { end: false });
let exited;
const exit = new Promise((resolveExit) => child.on('exit', (code, signal) => resolveExit((exited = { code, signal }))));
const health = new Promise((resolveHealth, rejectHealth) => {
  let pending = '';
  child.stdout.on('data', (chunk) => {
    log.write(chunk);
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'stratd running' && typeof entry.health === 'string') resolveHealth(entry.health);
      } catch {
        // not a JSON log line
      }
    }
  });
  void exit.then(({ code, signal }) => rejectHealth(new Error(`stratd exited (code ${code}, signal ${signal}) before it was running; see ${logFile}`)));
  setTimeout(() => rejectHealth(new Error(`stratd not running after 60 s; see ${logFile}`)), 60_000).unref();
});

function emit(record) {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

async function main() {
  emit({ type: 'start', hours, timeScale: factor, warmupHours, intervalS: intervalMs / 1000, config: configFile, stateDir, log: logFile, simHistoryHours });
  const url = await health;
  const wallStart = performance.now();
  const samples = [];
  for (;;) {
    if (exited !== undefined) return finish(samples, wallStart, `stratd exited during the run (code ${exited.code}, signal ${exited.signal})`);
    const sample = await takeSample(url, wallStart);
    samples.push(sample);
    if (!flags.quiet) emit(sampleLine(sample));
    if (sample.marketHours >= hours) break;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  child.kill('SIGTERM');
  const stopped = await Promise.race([exit, new Promise((r) => setTimeout(() => r(undefined), 60_000))]);
  if (stopped === undefined) {
    child.kill('SIGKILL');
    return finish(samples, wallStart, 'stratd did not exit within 60 s of SIGTERM');
  }
  return finish(samples, wallStart, stopped.code === 0 ? undefined : `stratd exited with code ${stopped.code} (signal ${stopped.signal}) after SIGTERM`);
}

// ------------------------------------------------------------------ sampling

async function takeSample(url, wallStart) {
  const [metricsText, status] = await Promise.all([fetchText(`${url}/metrics`), fetchText(`${url}/status`).then((t) => JSON.parse(t))]);
  const m = parseMetrics(metricsText);
  const collections = {};
  const limits = {};
  for (const row of m.rows('stratd_collection_size')) collections[row.labels.collection] = row.value;
  for (const row of m.rows('stratd_collection_limit')) limits[row.labels.collection] = row.value;
  const lagBuckets = {};
  for (const row of m.rows('stratd_event_loop_lag_seconds_bucket')) lagBuckets[row.labels.le] = row.value;
  return {
    wallS: (performance.now() - wallStart) / 1000,
    marketHours: status.uptimeMs / HOUR_MS,
    heapUsed: m.value('stratd_nodejs_heap_size_used_bytes'),
    heapTotal: m.value('stratd_nodejs_heap_size_total_bytes'),
    external: m.value('stratd_nodejs_external_memory_bytes'),
    heapAfterGc: m.value('stratd_heap_used_after_gc_bytes') || undefined,
    rss: m.value('stratd_process_resident_memory_bytes'),
    lag: { p50: m.value('stratd_event_loop_lag_recent_seconds', { quantile: '0.5' }), p99: m.value('stratd_event_loop_lag_recent_seconds', { quantile: '0.99' }), max: m.value('stratd_event_loop_lag_recent_seconds', { quantile: '1' }) },
    lagBuckets,
    orders: m.sum('stratd_orders_submitted_total'),
    ordersByStrategy: sumBy(m.rows('stratd_orders_submitted_total'), 'strategy'),
    denialsByReason: sumBy(m.rows('stratd_intents_denied_total'), 'reason'),
    fills: m.sum('stratd_fills_total'),
    commandFailures: m.sum('stratd_command_failures_total'),
    restFailures: m.sum('stratd_rest_request_seconds_count', (l) => l.status !== '2xx'),
    restRequests: m.sum('stratd_rest_request_seconds_count'),
    pollFailures: m.sum('stratd_market_poll_failures_total'),
    polls: m.sum('stratd_market_polls_total'),
    streamReconnects: m.sum('stratd_user_stream_reconnects_total'),
    jobRuns: Object.fromEntries(m.rows('stratd_job_runs_total').map((r) => [r.labels.job, r.value])),
    jobFailures: m.sum('stratd_job_failures_total'),
    cpuSeconds: m.value('stratd_process_cpu_seconds_total'),
    collections,
    limits,
  };
}

function sumBy(rows, label) {
  const out = {};
  for (const r of rows) out[r.labels[label]] = (out[r.labels[label]] ?? 0) + r.value;
  return out;
}

async function fetchText(url) {
  // /status wants the control token the daemon wrote into its state directory at start.
  const token = readFileSync(join(stateDir, 'control.token'), 'utf8').trim();
  const reply = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  if (!reply.ok) throw new Error(`${url}: HTTP ${reply.status}`);
  return reply.text();
}

function parseMetrics(text) {
  const all = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const labels = {};
    for (const l of (match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    all.push({ name: match[1], labels, value: Number(match[4]) });
  }
  const rows = (name) => all.filter((r) => r.name === name);
  return {
    rows,
    value: (name, labels = {}) => rows(name).find((r) => Object.entries(labels).every(([k, v]) => r.labels[k] === v))?.value,
    sum: (name, keep = () => true) => rows(name).reduce((total, r) => (keep(r.labels) ? total + r.value : total), 0),
  };
}

const MB = 1024 * 1024;
const round = (x, digits = 1) => (x === undefined || Number.isNaN(x) ? undefined : Math.round(x * 10 ** digits) / 10 ** digits);

function sampleLine(s) {
  return {
    type: 'sample',
    wallS: round(s.wallS),
    marketHours: round(s.marketHours, 2),
    heapMB: round(s.heapUsed / MB),
    heapAfterGcMB: round(s.heapAfterGc / MB),
    rssMB: round(s.rss / MB),
    lagP99Ms: round(s.lag.p99 * 1000, 2),
    lagMaxMs: round(s.lag.max * 1000, 2),
    orders: s.orders,
    fills: s.fills,
    collections: s.collections,
  };
}

// ------------------------------------------------------------------ verdict

function median(values) {
  const v = values.filter((x) => x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** p99 of the lag samples between two cumulative bucket snapshots (linear within a bucket). */
function lagP99(first, last) {
  const bounds = Object.keys(last)
    .filter((le) => le !== '+Inf')
    .map(Number)
    .sort((a, b) => a - b);
  const delta = (le) => (last[le] ?? 0) - (first?.[le] ?? 0);
  const total = delta('+Inf');
  if (total <= 0) return { p99Ms: undefined, samples: 0 };
  const target = 0.99 * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const bound of bounds) {
    const count = delta(String(bound));
    if (count >= target) {
      const share = count === previousCount ? 1 : (target - previousCount) / (count - previousCount);
      return { p99Ms: (previousBound + (bound - previousBound) * share) * 1000, samples: total };
    }
    previousBound = bound;
    previousCount = count;
  }
  return { p99Ms: Infinity, above: previousBound * 1000, samples: total };
}

function finish(samples, wallStart, failure) {
  const failures = failure === undefined ? [] : [failure];
  const warnings = [];
  const last = samples[samples.length - 1];
  if (last === undefined) {
    emit({ type: 'summary', pass: false, failures });
    return cleanup(1);
  }
  const warm = samples.find((s) => s.marketHours >= warmupHours) ?? samples[0];
  const end = last.marketHours;
  const window = (from, to) => samples.filter((s) => s.marketHours >= from && s.marketHours <= to);
  const baseWindow = window(warm.marketHours, warm.marketHours + 1);
  const endWindow = window(Math.max(warm.marketHours, end - 1), end);
  const figure = (pick) => {
    const at = median(baseWindow.map(pick));
    const atEnd = median(endWindow.map(pick));
    return { warmupMB: round(at / MB), endMB: round(atEnd / MB), growthPct: at === undefined || atEnd === undefined ? undefined : round(((atEnd - at) / at) * 100, 2) };
  };
  const heap = figure((s) => s.heapAfterGc ?? s.heapUsed);
  const heapUsed = figure((s) => s.heapUsed);
  const rss = figure((s) => s.rss);
  const heapTotal = figure((s) => s.heapTotal);
  const external = figure((s) => s.external);
  const complete = end >= hours * 0.999;
  if (!complete) failures.push(`the run ended at ${round(end, 2)} h of market, before ${hours} h`);
  if (heap.growthPct === undefined || heap.growthPct >= maxGrowthPct) failures.push(`heap (after GC) grew ${heap.growthPct}% after the warm-up (bound ${maxGrowthPct}%)`);
  if (rss.growthPct === undefined || rss.growthPct >= maxGrowthPct) failures.push(`RSS grew ${rss.growthPct}% after the warm-up (bound ${maxGrowthPct}%)`);

  const lag = lagP99(warm.lagBuckets, last.lagBuckets);
  const intervalP99s = samples.filter((s) => s.marketHours > warm.marketHours).map((s) => s.lag.p99 * 1000);
  if (lag.p99Ms === undefined || lag.p99Ms >= maxLagMs) failures.push(`event-loop lag p99 ${lag.p99Ms === Infinity ? `above ${lag.above}` : round(lag.p99Ms, 2)} ms after the warm-up (bound ${maxLagMs} ms)`);

  // Tables: above their count bound, or (without one) growing through the whole second half of the run.
  const half = samples.filter((s) => s.marketHours >= end / 2);
  const tables = {};
  for (const name of Object.keys(last.collections).sort()) {
    const series = half.map((s) => s.collections[name]).filter((v) => v !== undefined);
    const limit = last.limits[name];
    const monotonic = series.length > 2 && series.every((v, i) => i === 0 || v >= series[i - 1]) && series[series.length - 1] > series[0];
    const all = samples.map((s) => s.collections[name]).filter((v) => v !== undefined);
    tables[name] = { start: warm.collections[name], end: last.collections[name], max: Math.max(...all), ...(limit === undefined ? {} : { limit }), ...(monotonic ? { growingThroughSecondHalf: true } : {}) };
    if (limit !== undefined && last.collections[name] > limit) failures.push(`${name}: ${last.collections[name]} entries, above its bound ${limit}`);
    else if (monotonic && limit === undefined) failures.push(`${name}: grew through the second half (${series[0]} → ${series[series.length - 1]}) with no bound`);
    else if (monotonic) warnings.push(`${name}: still growing toward its bound ${limit} (${series[0]} → ${series[series.length - 1]})`);
  }
  if (last.orders === 0) failures.push('no order was placed: the soak did not trade');
  // When each strategy placed its last order: one that went quiet early traded only part of the day.
  const byStrategy = {};
  for (const id of Object.keys(last.ordersByStrategy)) {
    const placed = last.ordersByStrategy[id];
    const lastChange = samples.find((s) => (s.ordersByStrategy[id] ?? 0) === placed);
    byStrategy[id] = { orders: placed, lastOrderBeforeHours: round(lastChange?.marketHours ?? 0, 2) };
    if ((lastChange?.marketHours ?? 0) < end * 0.75) warnings.push(`strategy ${id} placed no order after ${round(lastChange?.marketHours ?? 0, 2)} h of market`);
  }

  const wallS = (performance.now() - wallStart) / 1000;
  emit({
    type: 'summary',
    pass: failures.length === 0,
    failures,
    warnings,
    market: { hours: round(end, 2), timeScale: factor, warmupEndHours: round(warm.marketHours, 2), wallMinutes: round(wallS / 60, 1), achievedScale: round((end * 3600) / wallS, 1), samples: samples.length },
    heapAfterGc: heap,
    heapUsed,
    rss,
    heapCommitted: heapTotal,
    externalMemory: external,
    eventLoopLag: {
      p99Ms: lag.p99Ms === Infinity ? `>${lag.above}` : round(lag.p99Ms, 2),
      samples: lag.samples,
      intervalP99MedianMs: round(median(intervalP99s), 2),
      intervalP99MaxMs: round(Math.max(...intervalP99s), 2),
      boundMs: maxLagMs,
    },
    trading: {
      ordersPlaced: last.orders,
      byStrategy,
      intentsDenied: last.denialsByReason,
      fills: last.fills,
      commandFailures: last.commandFailures,
      restRequests: last.restRequests,
      restFailures: last.restFailures,
      polls: last.polls,
      pollFailures: last.pollFailures,
      streamReconnects: last.streamReconnects,
      jobRuns: last.jobRuns,
      jobFailures: last.jobFailures,
      cpuSeconds: round(last.cpuSeconds),
    },
    tables,
  });
  process.stderr.write(failures.length === 0 ? `soak: PASS (${round(end, 2)} h of market in ${round(wallS / 60, 1)} min)\n` : `soak: FAIL\n${failures.map((f) => `  - ${f}\n`).join('')}`);
  return cleanup(failures.length === 0 ? 0 : 1);
}

function cleanup(code) {
  if (exited === undefined) child.kill('SIGKILL');
  log.end();
  if (!flags.keep && code === 0) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`soak: config, state and daemon log kept in ${work}\n`);
  process.exitCode = code;
}

main().catch((error) => {
  process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
  if (exited === undefined) child.kill('SIGKILL');
  log.end();
  process.stderr.write(`soak: config, state and daemon log kept in ${work}\n`);
  process.exitCode = 1;
});
